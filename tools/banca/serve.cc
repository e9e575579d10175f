// banca serve: runs the chosen services in one process on one event log.
#include <signal.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "libs/common/clock.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/group_member.h"
#include "libs/eventlog/log_backend.h"
#include "nlohmann/json.hpp"
#include "prometheus/exposer.h"
#include "prometheus/registry.h"
#include "services/server/server_options.h"
#include "services/server/token_key.h"
#include "services/table/banked_table_service.h"
#include "services/table/table_service.h"
#include "services/wallet/wallet_service.h"
#include "tools/banca/commands.h"

namespace banca::cli {

namespace {

struct ServeFlags {
  std::string services = "wallet";
  std::string data_dir;
  std::string log = "embedded";
  int grpc_port = 7070;
  std::string grpc_address = "0.0.0.0";
  int metrics_port = 9464;
  int partitions = 8;
  std::string currency = "EUR";
  std::string token_key_file;
  std::string token_verify_key_file;
  std::string deck_key_file;
  bool insecure_dev = false;
  std::string wallet_group;
  int wallet_session_timeout_ms = 10'000;
};

constexpr int kMaxPort = 65'535;

// One structured log line on `out` (the serving line is what scripts and
// tests wait for, on stdout).
void LogLine(std::FILE* out, const nlohmann::ordered_json& line) {
  std::fprintf(out, "%s\n", line.dump().c_str());
  std::fflush(out);
}

int Serve(const ServeFlags& flags) {
  const std::string& data_dir = flags.data_dir;
  if (data_dir.empty()) {
    std::fprintf(stderr, "banca serve: --data-dir is required\n");
    return kUsageError;
  }
  const std::string& services = flags.services;
  bool serve_wallet = false;
  bool serve_table = false;
  for (absl::string_view s : absl::StrSplit(services, ',')) {
    if (s == "wallet") {
      serve_wallet = true;
    } else if (s == "table") {
      serve_table = true;
    } else {
      std::fprintf(stderr,
                   "banca serve: unknown or not yet available service \"%s\" "
                   "(available: wallet, table)\n",
                   std::string(s).c_str());
      return 2;
    }
  }
  // Every service checks signed tokens; without a key only a developer's
  // --insecure-dev wallet may start (the table cannot tell players apart
  // without tokens).
  const bool insecure_dev = flags.insecure_dev;
  absl::StatusOr<auth::Verifier> verifier =
      server::LoadVerifier(flags.token_key_file, flags.token_verify_key_file);
  if (!verifier.ok() &&
      (serve_table || !insecure_dev || !absl::IsNotFound(verifier.status()))) {
    std::fprintf(stderr, "banca serve: %s\n",
                 std::string(verifier.status().message()).c_str());
    return 2;
  }
  if (insecure_dev) {
    LogLine(stderr, {{"level", "warning"},
                     {"msg",
                      "--insecure-dev: the wallet checks no caller's "
                      "identity; never use it with real money"}});
  }
  table::TableServiceOptions table_options;
  table::BankedTableServiceOptions banked_options;
  if (verifier.ok()) {
    table_options.verifier = *verifier;
    banked_options.verifier = *verifier;
  }

  // Block the stop signals before any thread starts, so only the waiter
  // below receives them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  std::error_code ec;
  std::filesystem::create_directories(data_dir, ec);
  if (serve_table) {
    bool created = false;
    absl::StatusOr<seal::DeckKeys> deck_keys =
        server::LoadDeckKeys(flags.deck_key_file, data_dir, &created);
    if (!deck_keys.ok()) {
      std::fprintf(stderr, "banca serve: %s\n",
                   std::string(deck_keys.status().message()).c_str());
      return 2;
    }
    if (created) {
      LogLine(stderr,
              {{"level", "info"},
               {"msg", absl::StrCat("made a deck key in ", data_dir,
                                    "/deck.key: the tables seal their decks "
                                    "with it; tables hosted by several "
                                    "processes need one --deck-key-file")}});
    }
    table_options.deck_keys = *deck_keys;
    banked_options.deck_keys = *std::move(deck_keys);
  }
  auto log = eventlog::OpenLogBackend(flags.log, data_dir);
  if (!log.ok()) {
    std::fprintf(stderr, "banca serve: %s\n",
                 std::string(log.status().message()).c_str());
    return 1;
  }

  auto registry = std::make_shared<prometheus::Registry>();
  std::unique_ptr<prometheus::Exposer> exposer;
  if (flags.metrics_port > 0) {
    exposer = std::make_unique<prometheus::Exposer>(
        absl::StrCat("0.0.0.0:", flags.metrics_port));
    exposer->RegisterCollectable(registry);
  }

  SystemClock clock;
  wallet::WalletOptions options;
  options.currency = flags.currency;
  options.partitions = flags.partitions;
  options.projection_dir = data_dir + "/projections/wallet";
  options.metrics = registry.get();
  if (verifier.ok()) options.verifier = *verifier;
  options.insecure_dev = insecure_dev;
  // Several wallet processes on one Kafka topic share the partitions of
  // one consumer group (WalletOptions::group).
  options.group = flags.wallet_group;
  options.group_session_timeout_ms = flags.wallet_session_timeout_ms;
  std::filesystem::create_directories(options.projection_dir, ec);
  const absl::Time replay_start = absl::Now();
  std::unique_ptr<wallet::WalletService> wallet;
  if (serve_wallet) {
    auto started = wallet::WalletService::Start(**log, clock, options);
    if (!started.ok()) {
      std::fprintf(stderr, "banca serve: wallet: %s\n",
                   std::string(started.status().message()).c_str());
      return 1;
    }
    wallet = std::move(*started);
  }
  std::unique_ptr<table::TableService> tables;
  if (serve_table) {
    table_options.partitions = flags.partitions;
    table_options.wallet_partitions = flags.partitions;
    auto started = table::TableService::Start(**log, clock, table_options);
    if (!started.ok()) {
      std::fprintf(stderr, "banca serve: table: %s\n",
                   std::string(started.status().message()).c_str());
      return 1;
    }
    tables = std::move(*started);
  }
  // The banked games (roulette) are served by the same table process.
  std::unique_ptr<table::BankedTableService> banked;
  if (serve_table) {
    banked_options.partitions = flags.partitions;
    banked_options.wallet_partitions = flags.partitions;
    auto started =
        table::BankedTableService::Start(**log, clock, banked_options);
    if (!started.ok()) {
      std::fprintf(stderr, "banca serve: banked tables: %s\n",
                   std::string(started.status().message()).c_str());
      return 1;
    }
    banked = std::move(*started);
  }
  const int64_t replayed = (wallet ? wallet->replayed_events() : 0) +
                           (tables ? tables->replayed_events() : 0) +
                           (banked ? banked->replayed_events() : 0);

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  server::ApplyServerOptions(builder);
  int selected_port = 0;
  const std::string address =
      absl::StrCat(flags.grpc_address, ":", flags.grpc_port);
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(),
                           &selected_port);
  if (wallet) builder.RegisterService(wallet.get());
  if (tables) builder.RegisterService(tables.get());
  if (banked) builder.RegisterService(banked.get());
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || selected_port == 0) {
    std::fprintf(stderr, "banca serve: cannot listen on %s\n", address.c_str());
    return 1;
  }
  if (wallet) {
    server->GetHealthCheckService()->SetServingStatus("banca.v1.WalletService",
                                                      true);
  }
  if (tables) {
    server->GetHealthCheckService()->SetServingStatus("banca.v1.TableService",
                                                      true);
    server->GetHealthCheckService()->SetServingStatus(
        "banca.v1.BankedTableService", true);
  }
  LogLine(stdout, {{"level", "info"},
                   {"msg", "serving"},
                   {"services", services},
                   {"grpc_port", selected_port},
                   {"metrics_port", flags.metrics_port},
                   {"replayed_events", replayed},
                   {"replay_ms",
                    absl::ToInt64Milliseconds(absl::Now() - replay_start)}});

  std::thread waiter([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    if (banked) banked->BeginShutdown();
    if (tables) tables->BeginShutdown();
    server->Shutdown(std::chrono::system_clock::now() +
                     std::chrono::seconds(5));
  });
  server->Wait();
  waiter.join();
  if (banked) banked->Stop();
  if (tables) tables->Stop();
  absl::Status stopped = wallet ? wallet->Stop() : absl::OkStatus();
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
      "topic's partitions (docs/architecture.md).\n"
      "Exit 0 stopped cleanly (SIGINT/SIGTERM), 1 failed to start or stop, "
      "2 usage or a key that cannot be read.");
  auto flags = std::make_shared<ServeFlags>();
  serve->add_option("--services", flags->services,
                    "wallet, table, or wallet,table");
  serve
      ->add_option("--data-dir", flags->data_dir,
                   "projections, the embedded log, the deck key")
      ->required();
  serve->add_option("--log", flags->log,
                    "embedded, or kafka://HOST:PORT[,HOST:PORT][?options]");
  AddInt(*serve, "--grpc-port", flags->grpc_port, "0 picks a free port", 0,
         kMaxPort);
  serve->add_option("--grpc-address", flags->grpc_address,
                    "the address to listen on");
  AddInt(*serve, "--metrics-port", flags->metrics_port,
         "Prometheus /metrics (0: none)", 0, kMaxPort);
  AddInt(*serve, "--partitions", flags->partitions,
         "partitions of a new wallet topic", 1);
  serve->add_option("--currency", flags->currency, "the wallet's currency");
  serve->add_option("--token-key-file", flags->token_key_file,
                    "the issuer's key (else BANCA_TOKEN_KEY)");
  serve->add_option("--token-verify-key-file", flags->token_verify_key_file,
                    "verifying-only public keys (docs/security.md)");
  serve->add_option("--deck-key-file", flags->deck_key_file,
                    "the tables' deck-sealing key (default: made in "
                    "DATA_DIR/deck.key)");
  AddSwitch(*serve, "--insecure-dev", flags->insecure_dev,
            "a wallet with no identity checks, for a laptop; never with "
            "real money");
  serve->add_option("--wallet-group", flags->wallet_group,
                    "share the wallet topic with the group's other wallets");
  AddInt(*serve, "--wallet-session-timeout-ms",
         flags->wallet_session_timeout_ms,
         "a silent group member's partitions move after this",
         eventlog::kMinSessionTimeoutMs, eventlog::kMaxSessionTimeoutMs);
  OnParsed(*serve, action, [flags] { return Serve(*flags); });
}

}  // namespace banca::cli
