// banca serve: runs the chosen services in one process on one event log.
#include <signal.h>

#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "libs/common/log_line.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/group_member.h"
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
  std::string log_level = "info";
  server::ServerConfig config;
  // The transport is always chosen: TLS files, or --plaintext.
  bool plaintext = false;
  edge::ServerTls tls;
  int log_retry_seconds = 0;  // config.log_retry
};

constexpr int kMaxPort = 65'535;

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

// TLS (mutual with a client CA) from the --tls-* flags, or plaintext when
// --plaintext says so; neither, both, or half of TLS is a usage error.
absl::StatusOr<std::optional<edge::ServerTls>> ChosenTransport(
    const ServeFlags& flags) {
  const edge::ServerTls& tls = flags.tls;
  const bool any_tls = !tls.cert_file.empty() || !tls.key_file.empty() ||
                       !tls.client_ca_file.empty();
  if (flags.plaintext && any_tls) {
    return absl::InvalidArgumentError(
        "--plaintext and the --tls-* flags exclude each other");
  }
  if (flags.plaintext) return std::nullopt;
  if (!any_tls) {
    return absl::InvalidArgumentError(
        "choose the transport: --tls-cert-file and --tls-key-file (TLS; "
        "add --tls-client-ca-file for mutual TLS), or --plaintext "
        "(unencrypted, for loopback or a network that encrypts for you)");
  }
  if (tls.cert_file.empty() || tls.key_file.empty()) {
    return absl::InvalidArgumentError(
        "TLS needs both --tls-cert-file and --tls-key-file");
  }
  return tls;
}

bool IsLoopback(const std::string& address) {
  return address == "127.0.0.1" || address == "localhost" || address == "::1" ||
         address == "[::1]";
}

std::string TransportName(const std::optional<edge::ServerTls>& tls) {
  if (!tls.has_value()) return "plaintext";
  return tls->client_ca_file.empty() ? "tls" : "mutual-tls";
}

// Sets config.tls from the flags and checks its files now: certificate
// files that cannot be used are the operator's to fix, like a key file
// that cannot be read (Server::Start checks them again).
absl::Status ChooseTransport(ServeFlags& flags) {
  ASSIGN_OR_RETURN(flags.config.tls, ChosenTransport(flags));
  return Prefixed(edge::ServerCredentialsFor(flags.config.tls).status(),
                  "TLS: ");
}

int Serve(ServeFlags flags) {
  flags.config.log_retry = absl::Seconds(flags.log_retry_seconds);
  if (absl::Status transport = ChooseTransport(flags); !transport.ok()) {
    return Fail(kUsageError, transport);
  }
  const server::ServerConfig& config = flags.config;
  const std::optional<LogLevel> log_level = ParseLogLevel(flags.log_level);
  if (!log_level) {
    return Fail(kUsageError, absl::InvalidArgumentError(
                                 "--log-level must be debug, info, warning, "
                                 "error or fatal"));
  }
  SetLogLevel(*log_level);
  absl::StatusOr<std::vector<edge::HostedServiceSpec>> services =
      server::SelectServices(flags.services, ServiceCatalog());
  if (!services.ok()) return Fail(kUsageError, services.status());
  absl::StatusOr<server::ServerKeys> keys =
      server::LoadServerKeys(config, *services);
  if (!keys.ok()) return Fail(kUsageError, keys.status());
  if (!config.tls.has_value() && !IsLoopback(config.grpc_address)) {
    Log(LogLevel::kWarning, "serve",
        absl::StrCat("--plaintext on ", config.grpc_address,
                     ": callers' tokens and players' cards cross the network "
                     "unencrypted unless it encrypts for you"));
  }
  if (config.settings.insecure_dev) {
    Log(LogLevel::kWarning, "serve",
        "--insecure-dev: the wallet checks no caller's identity; never use "
        "it with real money");
  }
  if (keys->deck_key_made) {
    Log(LogLevel::kInfo, "serve",
        absl::StrCat("made a deck key in ", config.settings.data_dir,
                     "/deck.key: the tables seal their decks with it; tables "
                     "hosted by several processes need one --deck-key-file"));
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
  Announce(
      "serve", "serving",
      {{"services", flags.services},
       {"transport", TransportName(config.tls)},
       {"grpc_port", (*server)->port()},
       {"metrics_address", config.metrics_address},
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
  Announce("serve", "stopped", {{"status", stopped.ToString()}});
  return stopped.ok() ? 0 : 1;
}

}  // namespace

void AddServeCommand(CLI::App& banca, Action* action) {
  CLI::App* serve =
      banca.add_subcommand("serve", "run services over gRPC on one event log");
  serve->footer(
      "Every service checks signed caller tokens: give the issuer's key "
      "(--token-key-file or BANCA_TOKEN_KEY) or a verifying-only key file "
      "(docs/security.md). The transport is chosen explicitly: "
      "--tls-cert-file and --tls-key-file (reloaded without a restart; "
      "--tls-client-ca-file for mutual TLS), or --plaintext. Wallets of one "
      "--wallet-group share the wallet topic's partitions, table processes "
      "of one --table-group the tables' "
      "(docs/architecture.md).\n"
      "Exit 0 stopped cleanly (SIGINT/SIGTERM), 1 failed to start or stop, "
      "2 usage, or a key or certificate file that cannot be used.");
  auto flags = std::make_shared<ServeFlags>();
  serve->add_option(
      "--services", flags->services,
      "a comma-separated list of wallet, table, tournament, reporting");
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
  serve->add_option("--tls-cert-file", flags->tls.cert_file,
                    "the server's PEM certificate chain (TLS)");
  serve->add_option("--tls-key-file", flags->tls.key_file,
                    "the server's PEM private key (TLS)");
  serve->add_option("--tls-client-ca-file", flags->tls.client_ca_file,
                    "PEM CA certificates: every client must present a "
                    "certificate they signed (mutual TLS)");
  AddInt(*serve, "--tls-reload-seconds", flags->tls.reload_seconds,
         "how often the TLS files are read again", edge::kMinTlsReloadSeconds,
         edge::kMaxTlsReloadSeconds);
  AddSwitch(*serve, "--plaintext", flags->plaintext,
            "serve gRPC unencrypted (loopback, or a network that encrypts "
            "for you); without it TLS is required");
  AddInt(*serve, "--metrics-port", flags->config.metrics_port,
         "Prometheus /metrics (0: none)", 0, kMaxPort);
  serve->add_option("--metrics-address", flags->config.metrics_address,
                    "the address /metrics listens on (default 0.0.0.0: "
                    "every interface; 127.0.0.1 or a pod IP to narrow it)");
  serve->add_option("--log-level", flags->log_level,
                    "debug, info (default), warning, error or fatal: the "
                    "JSON log lines on stderr below it are dropped");
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
  AddInt(*serve, "--snapshot-every-events",
         flags->config.settings.wallet_snapshot_every_events,
         "the wallet snapshots its state every this many events of its log "
         "and at a clean stop (0: only at a stop); a start loads the newest "
         "and replays the log after it",
         0, int64_t{1} << 40);
  AddInt(*serve, "--idempotency-window-hours",
         flags->config.settings.idempotency_window_hours,
         "the wallet (and a table) answers a retried request id this long "
         "after its first answer (the wallet's kept on disk in "
         "DATA_DIR/answers/wallet); a reuse after it is a new request",
         1, 24 * 366);
  AddSwitch(*serve, "--no-snapshots",
            flags->config.settings.wallet_snapshots_off,
            "no wallet snapshots: every start replays the log from offset 0");
  AddInt(*serve, "--log-retry-seconds", flags->log_retry_seconds,
         "keep trying a log that cannot be reached at start for this long, "
         "1 s to 30 s between tries (0: fail at once)",
         0, 3600);
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
