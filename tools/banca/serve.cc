// banca serve: runs the chosen services in one process on one event log.
#include <signal.h>

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
#include "prometheus/exposer.h"
#include "prometheus/registry.h"
#include "services/table/banked_table_service.h"
#include "services/table/table_service.h"
#include "services/wallet/wallet_service.h"
#include "tools/banca/commands.h"
#include "tools/banca/flags.h"
#include "tools/banca/log_backend.h"
#include "tools/banca/server_options.h"
#include "tools/banca/token_key.h"

namespace banca::cli {

int ServeCommand(int argc, char** argv) {
  auto flags =
      Flags::Parse(argc, argv, 2,
                   {"services", "data-dir", "log", "grpc-port", "grpc-address",
                    "metrics-port", "partitions", "currency", "token-key-file",
                    "token-verify-key-file", "deck-key-file", "insecure-dev",
                    "wallet-group", "wallet-session-timeout-ms"});
  if (!flags.ok()) {
    std::fprintf(stderr, "banca serve: %s\n",
                 std::string(flags.status().message()).c_str());
    return 2;
  }
  const std::string data_dir = flags->Get("data-dir", "");
  if (data_dir.empty()) {
    std::fprintf(stderr, "banca serve: --data-dir is required\n");
    return 2;
  }
  const std::string services = flags->Get("services", "wallet");
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
  const bool insecure_dev = flags->GetBool("insecure-dev");
  absl::StatusOr<auth::Verifier> verifier =
      LoadVerifier(flags->Get("token-key-file", ""),
                   flags->Get("token-verify-key-file", ""));
  if (!verifier.ok() &&
      (serve_table || !insecure_dev || !absl::IsNotFound(verifier.status()))) {
    std::fprintf(stderr, "banca serve: %s\n",
                 std::string(verifier.status().message()).c_str());
    return 2;
  }
  if (insecure_dev) {
    std::fprintf(stderr,
                 "{\"level\":\"warning\",\"msg\":\"--insecure-dev: the "
                 "wallet checks no caller's identity; never use it with real "
                 "money\"}\n");
  }
  table::TableServiceOptions table_options;
  table::BankedTableServiceOptions banked_options;
  if (verifier.ok()) {
    table_options.verifier = *verifier;
    banked_options.verifier = *verifier;
  }
  auto grpc_port = flags->GetInt("grpc-port", 7070);
  auto metrics_port = flags->GetInt("metrics-port", 9464);
  auto partitions = flags->GetInt("partitions", 8);
  for (const auto* v : {&grpc_port, &metrics_port, &partitions}) {
    if (!v->ok()) {
      std::fprintf(stderr, "banca serve: %s\n",
                   std::string(v->status().message()).c_str());
      return 2;
    }
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
        LoadDeckKeys(flags->Get("deck-key-file", ""), data_dir, &created);
    if (!deck_keys.ok()) {
      std::fprintf(stderr, "banca serve: %s\n",
                   std::string(deck_keys.status().message()).c_str());
      return 2;
    }
    if (created) {
      std::fprintf(stderr,
                   "{\"level\":\"info\",\"msg\":\"made a deck key in "
                   "%s/deck.key: the tables seal their decks with it; tables "
                   "hosted by several processes need one --deck-key-file\"}\n",
                   data_dir.c_str());
    }
    table_options.deck_keys = *deck_keys;
    banked_options.deck_keys = *std::move(deck_keys);
  }
  auto log = OpenLogBackend(flags->Get("log", "embedded"), data_dir);
  if (!log.ok()) {
    std::fprintf(stderr, "banca serve: %s\n",
                 std::string(log.status().message()).c_str());
    return 1;
  }

  auto registry = std::make_shared<prometheus::Registry>();
  std::unique_ptr<prometheus::Exposer> exposer;
  if (*metrics_port > 0) {
    exposer = std::make_unique<prometheus::Exposer>(
        absl::StrCat("0.0.0.0:", *metrics_port));
    exposer->RegisterCollectable(registry);
  }

  SystemClock clock;
  wallet::WalletOptions options;
  options.currency = flags->Get("currency", "EUR");
  options.partitions = static_cast<int>(*partitions);
  options.projection_dir = data_dir + "/projections/wallet";
  options.metrics = registry.get();
  if (verifier.ok()) options.verifier = *verifier;
  options.insecure_dev = insecure_dev;
  // Several wallet processes on one Kafka topic share the partitions of
  // one consumer group (WalletOptions::group).
  options.group = flags->Get("wallet-group", "");
  auto session_ms = flags->GetInt("wallet-session-timeout-ms", 10'000);
  if (!session_ms.ok() || *session_ms < eventlog::kMinSessionTimeoutMs ||
      *session_ms > eventlog::kMaxSessionTimeoutMs) {
    std::fprintf(
        stderr, "banca serve: --wallet-session-timeout-ms must be %d..%d\n",
        eventlog::kMinSessionTimeoutMs, eventlog::kMaxSessionTimeoutMs);
    return 2;
  }
  options.group_session_timeout_ms = static_cast<int>(*session_ms);
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
    table_options.partitions = static_cast<int>(*partitions);
    table_options.wallet_partitions = static_cast<int>(*partitions);
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
    banked_options.partitions = static_cast<int>(*partitions);
    banked_options.wallet_partitions = static_cast<int>(*partitions);
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
  ApplyServerOptions(builder);
  int selected_port = 0;
  const std::string address =
      absl::StrCat(flags->Get("grpc-address", "0.0.0.0"), ":", *grpc_port);
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
  std::printf(
      "{\"level\":\"info\",\"msg\":\"serving\",\"services\":\"%s\","
      "\"grpc_port\":%d,\"metrics_port\":%lld,\"replayed_events\":%lld,"
      "\"replay_ms\":%lld}\n",
      services.c_str(), selected_port, static_cast<long long>(*metrics_port),
      static_cast<long long>(replayed),
      static_cast<long long>(
          absl::ToInt64Milliseconds(absl::Now() - replay_start)));
  std::fflush(stdout);

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
  std::printf("{\"level\":\"info\",\"msg\":\"stopped\",\"status\":\"%s\"}\n",
              stopped.ToString().c_str());
  return stopped.ok() ? 0 : 1;
}

}  // namespace banca::cli
