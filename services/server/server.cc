#include "services/server/server.h"

#include <chrono>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "libs/common/clock.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/log_backend.h"
#include "prometheus/exposer.h"
#include "prometheus/registry.h"
#include "services/server/server_options.h"
#include "services/server/token_key.h"
#include "services/table/banked_table_service.h"
#include "services/table/table_service.h"
#include "services/wallet/wallet_service.h"

namespace banca::server {

struct ServerParts {
  SystemClock clock;
  std::shared_ptr<prometheus::Registry> registry =
      std::make_shared<prometheus::Registry>();
  std::unique_ptr<prometheus::Exposer> exposer;
  std::unique_ptr<eventlog::EventLog> log;
  std::unique_ptr<wallet::WalletService> wallet;
  std::unique_ptr<table::TableService> tables;
  std::unique_ptr<table::BankedTableService> banked;
  std::unique_ptr<grpc::Server> grpc;
  int port = 0;
  absl::Duration replay_time;
};

namespace {

absl::Status Prefixed(std::string_view part, const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrCat(ToAbsl(part), ": ", status.message()));
}

wallet::WalletOptions WalletOptionsFor(const ServerConfig& config,
                                       const ServerKeys& keys,
                                       prometheus::Registry* metrics) {
  wallet::WalletOptions options;
  options.currency = config.currency;
  options.partitions = config.partitions;
  options.projection_dir = config.data_dir + "/projections/wallet";
  options.metrics = metrics;
  if (keys.verifier) options.verifier = *keys.verifier;
  options.insecure_dev = config.insecure_dev;
  // Several wallet processes on one Kafka topic share the partitions of
  // one consumer group (WalletOptions::group).
  options.group = config.wallet_group;
  options.group_session_timeout_ms = config.wallet_session_timeout_ms;
  return options;
}

}  // namespace

absl::Status ParseServices(std::string_view list, ServerConfig* config) {
  config->wallet = false;
  config->table = false;
  for (absl::string_view s : absl::StrSplit(ToAbsl(list), ',')) {
    if (s == "wallet") {
      config->wallet = true;
    } else if (s == "table") {
      config->table = true;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown or not yet available service \"", s,
                       "\" (available: wallet, table)"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<ServerKeys> LoadServerKeys(const ServerConfig& config) {
  ServerKeys keys;
  // Every service checks signed tokens; without a key only a developer's
  // --insecure-dev wallet may start (the table cannot tell players apart
  // without tokens).
  absl::StatusOr<auth::Verifier> verifier =
      LoadVerifier(config.token_key_file, config.token_verify_key_file);
  if (verifier.ok()) {
    keys.verifier = *std::move(verifier);
  } else if (config.table || !config.insecure_dev ||
             !absl::IsNotFound(verifier.status())) {
    return verifier.status();
  }
  std::error_code ec;
  std::filesystem::create_directories(config.data_dir, ec);
  if (config.table) {
    ASSIGN_OR_RETURN(keys.deck_keys,
                     LoadDeckKeys(config.deck_key_file, config.data_dir,
                                  &keys.deck_key_made));
  }
  return keys;
}

namespace {

// The services `parts` holds, started on its log in order: the wallet,
// then the poker and the banked tables (one table process hosts both).
absl::Status StartServices(const ServerConfig& config, const ServerKeys& keys,
                           ServerParts& parts) {
  if (config.wallet) {
    wallet::WalletOptions options =
        WalletOptionsFor(config, keys, parts.registry.get());
    std::error_code ec;
    std::filesystem::create_directories(options.projection_dir, ec);
    auto started =
        wallet::WalletService::Start(*parts.log, parts.clock, options);
    if (!started.ok()) return Prefixed("wallet", started.status());
    parts.wallet = *std::move(started);
  }
  if (!config.table) return absl::OkStatus();
  table::TableServiceOptions poker;
  poker.verifier = *keys.verifier;
  poker.deck_keys = *keys.deck_keys;
  poker.partitions = config.partitions;
  poker.wallet_partitions = config.partitions;
  auto tables = table::TableService::Start(*parts.log, parts.clock, poker);
  if (!tables.ok()) return Prefixed("table", tables.status());
  parts.tables = *std::move(tables);
  table::BankedTableServiceOptions banked;
  banked.verifier = *keys.verifier;
  banked.deck_keys = *keys.deck_keys;
  banked.partitions = config.partitions;
  banked.wallet_partitions = config.partitions;
  auto started =
      table::BankedTableService::Start(*parts.log, parts.clock, banked);
  if (!started.ok()) return Prefixed("banked tables", started.status());
  parts.banked = *std::move(started);
  return absl::OkStatus();
}

// Serves the started services on the configured address, with gRPC
// health (and reflection when the program registered its plugin).
absl::Status Listen(const ServerConfig& config, ServerParts& parts) {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  ApplyServerOptions(builder);
  const std::string address =
      absl::StrCat(config.grpc_address, ":", config.grpc_port);
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(),
                           &parts.port);
  if (parts.wallet) builder.RegisterService(parts.wallet.get());
  if (parts.tables) builder.RegisterService(parts.tables.get());
  if (parts.banked) builder.RegisterService(parts.banked.get());
  parts.grpc = builder.BuildAndStart();
  if (parts.grpc == nullptr || parts.port == 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", address));
  }
  grpc::HealthCheckServiceInterface* health =
      parts.grpc->GetHealthCheckService();
  if (parts.wallet) health->SetServingStatus("banca.v1.WalletService", true);
  if (parts.tables) health->SetServingStatus("banca.v1.TableService", true);
  if (parts.banked) {
    health->SetServingStatus("banca.v1.BankedTableService", true);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Server>> Server::Start(
    const ServerConfig& config, ServerKeys keys) {
  if (config.table && (!keys.verifier || !keys.deck_keys)) {
    return absl::FailedPreconditionError(
        "the tables need a token verifier and deck keys");
  }
  auto parts = std::make_unique<ServerParts>();
  ASSIGN_OR_RETURN(parts->log,
                   eventlog::OpenLogBackend(config.log, config.data_dir));
  if (config.metrics_port > 0) {
    parts->exposer = std::make_unique<prometheus::Exposer>(
        absl::StrCat("0.0.0.0:", config.metrics_port));
    parts->exposer->RegisterCollectable(parts->registry);
  }
  const absl::Time replay_start = absl::Now();
  RETURN_IF_ERROR(StartServices(config, keys, *parts));
  parts->replay_time = absl::Now() - replay_start;
  RETURN_IF_ERROR(Listen(config, *parts));
  return std::unique_ptr<Server>(new Server(std::move(parts)));
}

Server::Server(std::unique_ptr<ServerParts> parts) : parts_(std::move(parts)) {}

Server::~Server() = default;

int Server::port() const { return parts_->port; }

int64_t Server::replayed_events() const {
  return (parts_->wallet ? parts_->wallet->replayed_events() : 0) +
         (parts_->tables ? parts_->tables->replayed_events() : 0) +
         (parts_->banked ? parts_->banked->replayed_events() : 0);
}

absl::Duration Server::replay_time() const { return parts_->replay_time; }

void Server::Shutdown(absl::Duration grace) {
  if (parts_->banked) parts_->banked->BeginShutdown();
  if (parts_->tables) parts_->tables->BeginShutdown();
  parts_->grpc->Shutdown(absl::ToChronoTime(absl::Now() + grace));
}

absl::Status Server::Wait() {
  parts_->grpc->Wait();
  if (parts_->banked) parts_->banked->Stop();
  if (parts_->tables) parts_->tables->Stop();
  return parts_->wallet ? parts_->wallet->Stop() : absl::OkStatus();
}

}  // namespace banca::server
