// banca serve: runs the chosen services in one process on one event log.
#include <signal.h>

#include <cstdio>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "libs/common/json_text.h"
#include "libs/eventlog/group_member.h"
#include "nlohmann/json.hpp"
#include "services/reporting/hosted_reporting.h"
#include "services/server/server.h"
#include "services/server/service_selection.h"
#include "services/table/hosted_tables.h"
#include "services/tournament/hosted_tournaments.h"
#include "services/wallet/hosted_wallet.h"
#include "tools/banca/commands.h"

namespace banca::cli {

namespace {

struct ServeFlags {
  std::string services = "wallet";
  server::ServerConfig config;
};

constexpr int kMaxPort = 65'535;

// One structured log line on `out` (the serving line is what scripts and
// tests wait for, on stdout).
void LogLine(std::FILE* out, const nlohmann::ordered_json& line) {
  std::fprintf(out, "%s\n", JsonText(line).c_str());
  std::fflush(out);
}

int Fail(int code, const absl::Status& status) {
  return Complain("banca serve", status, code);
}

// What --services may name, in the order they start: the wallet, then the
// tables (one table process hosts the poker and the banked tables), the
// tournaments, then reporting (which only reads the log).
std::vector<server::ServiceChoice> ServiceCatalog() {
  return {{"wallet", {wallet::HostedWallet()}},
          {"table", table::HostedTables()},
          {"tournament", {tournament::HostedTournaments()}},
          {"reporting", {reporting::HostedReporting()}}};
}

int Serve(const ServeFlags& flags) {
  const server::ServerConfig& config = flags.config;
  absl::StatusOr<std::vector<edge::HostedServiceSpec>> services =
      server::SelectServices(flags.services, ServiceCatalog());
  if (!services.ok()) return Fail(kUsageError, services.status());
  absl::StatusOr<server::ServerKeys> keys =
      server::LoadServerKeys(config, *services);
  if (!keys.ok()) return Fail(kUsageError, keys.status());
  if (config.settings.insecure_dev) {
    LogLine(stderr, {{"level", "warning"},
                     {"msg",
                      "--insecure-dev: the wallet checks no caller's "
                      "identity; never use it with real money"}});
  }
  if (keys->deck_key_made) {
    LogLine(
        stderr,
        {{"level", "info"},
         {"msg", absl::StrCat("made a deck key in ", config.settings.data_dir,
                              "/deck.key: the tables seal their decks "
                              "with it; tables hosted by several "
                              "processes need one --deck-key-file")}});
  }
  // Block the stop signals before any thread starts, so only the waiter
  // below receives them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  // Reflection for grpcurl and friends: registered by the program, not by
  // the server library (with it there, the sanitizer-built test binaries
  // that link the library aborted at start: reflection's descriptors
  // registered twice).
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  auto server =
      server::Server::Start(config, *std::move(keys), *std::move(services));
  if (!server.ok()) return Fail(1, server.status());
  LogLine(stdout,
          {{"level", "info"},
           {"msg", "serving"},
           {"services", flags.services},
           {"grpc_port", (*server)->port()},
           {"metrics_port", config.metrics_port},
           {"replayed_events", (*server)->replayed_events()},
           {"replay_ms", absl::ToInt64Milliseconds((*server)->replay_time())}});
  std::thread waiter([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    (*server)->Shutdown(absl::Seconds(5));
  });
  const absl::Status stopped = (*server)->Wait();
  waiter.join();
  LogLine(
      stdout,
      {{"level", "info"}, {"msg", "stopped"}, {"status", stopped.ToString()}});
  return stopped.ok() ? 0 : 1;
}

}  // namespace

void AddServeCommand(CLI::App& banca, Action* action) {
  CLI::App* serve =
      banca.add_subcommand("serve", "run services over gRPC on one event log");
  serve->footer(
      "Every service checks signed caller tokens: give the issuer's key "
      "(--token-key-file or BANCA_TOKEN_KEY) or a verifying-only key file "
      "(docs/security.md). Wallets of one --wallet-group share the wallet "
      "topic's partitions, table processes of one --table-group the tables' "
      "(docs/architecture.md).\n"
      "Exit 0 stopped cleanly (SIGINT/SIGTERM), 1 failed to start or stop, "
      "2 usage or a key that cannot be read.");
  auto flags = std::make_shared<ServeFlags>();
  serve->add_option("--services", flags->services,
                    "a comma-separated list of wallet, table, tournament");
  serve
      ->add_option("--data-dir", flags->config.settings.data_dir,
                   "projections, the embedded log, the deck key")
      ->required();
  serve->add_option("--log", flags->config.log,
                    "embedded, or kafka://HOST:PORT[,HOST:PORT][?options]");
  AddInt(*serve, "--grpc-port", flags->config.grpc_port, "0 picks a free port",
         0, kMaxPort);
  serve->add_option("--grpc-address", flags->config.grpc_address,
                    "the address to listen on");
  AddInt(*serve, "--metrics-port", flags->config.metrics_port,
         "Prometheus /metrics (0: none)", 0, kMaxPort);
  AddInt(*serve, "--partitions", flags->config.settings.partitions,
         "partitions of a new wallet topic", 1);
  serve->add_option("--currency", flags->config.settings.currency,
                    "the wallet's currency");
  serve->add_option("--token-key-file", flags->config.token_key_file,
                    "the issuer's key (else BANCA_TOKEN_KEY)");
  serve->add_option("--token-verify-key-file",
                    flags->config.token_verify_key_file,
                    "verifying-only public keys (docs/security.md)");
  serve->add_option("--deck-key-file", flags->config.deck_key_file,
                    "the tables' deck-sealing key (default: made in "
                    "DATA_DIR/deck.key)");
  AddSwitch(*serve, "--insecure-dev", flags->config.settings.insecure_dev,
            "a wallet with no identity checks, for a laptop; never with "
            "real money");
  serve->add_option("--wallet-group", flags->config.settings.wallet_group,
                    "share the wallet topic with the group's other wallets");
  AddInt(*serve, "--wallet-session-timeout-ms",
         flags->config.settings.wallet_session_timeout_ms,
         "a silent group member's partitions move after this",
         eventlog::kMinSessionTimeoutMs, eventlog::kMaxSessionTimeoutMs);
  serve->add_option("--table-group", flags->config.settings.table_group,
                    "share the tables' topics with the group's other table "
                    "(and tournament) processes");
  AddInt(*serve, "--table-session-timeout-ms",
         flags->config.settings.table_session_timeout_ms,
         "a silent table group member's partitions move after this",
         eventlog::kMinSessionTimeoutMs, eventlog::kMaxSessionTimeoutMs);
  serve->add_option("--advertise-address",
                    flags->config.settings.advertise_address,
                    "HOST:PORT clients reach this server at (LocateTable)");
  OnParsed(*serve, action, [flags] { return Serve(*flags); });
}

}  // namespace banca::cli
