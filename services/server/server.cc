#include "services/server/server.h"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "libs/common/clock.h"
#include "libs/common/log_line.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/log_backend.h"
#include "prometheus/exposer.h"
#include "prometheus/registry.h"
#include "services/common/server_options.h"
#include "services/server/metered_log.h"
#include "services/server/token_key.h"

#ifndef BANCA_VERSION
#error \
    "BANCA_VERSION comes from project(VERSION) (services/server/CMakeLists.txt)"
#endif
#ifndef BANCA_COMMIT
#error "BANCA_COMMIT comes from git at configure time (CMakeLists.txt)"
#endif

namespace banca::server {

struct ServerParts {
  // The gRPC server first, then the services, the last started first.
  ~ServerParts() {
    grpc.reset();
    while (!hosted.empty()) hosted.pop_back();
  }

  SystemClock clock;
  std::shared_ptr<prometheus::Registry> registry =
      std::make_shared<prometheus::Registry>();
  std::unique_ptr<prometheus::Exposer> exposer;
  std::unique_ptr<eventlog::EventLog> log;
  // The log as each service sees it (metered_log.h), in start order.
  std::vector<std::unique_ptr<MeteredLog>> service_logs;
  std::vector<std::unique_ptr<edge::HostedService>> hosted;  // start order
  std::unique_ptr<grpc::Server> grpc;
  int port = 0;
  absl::Duration replay_time;
};

absl::StatusOr<ServerKeys> LoadServerKeys(
    const ServerConfig& config,
    const std::vector<edge::HostedServiceSpec>& services) {
  const bool all_allow_insecure_dev = std::all_of(
      services.begin(), services.end(),
      [](const auto& service) { return service.insecure_dev_allowed; });
  const bool needs_deck_keys =
      std::any_of(services.begin(), services.end(),
                  [](const auto& service) { return service.needs_deck_keys; });
  ServerKeys keys;
  // Every service checks signed tokens; without a key only a developer's
  // --insecure-dev wallet may start (the table cannot tell players apart
  // without tokens).
  absl::StatusOr<auth::Verifier> verifier =
      LoadVerifier(config.token_key_file, config.token_verify_key_file);
  if (verifier.ok()) {
    keys.keys.verifier = *std::move(verifier);
  } else if (!all_allow_insecure_dev || !config.settings.insecure_dev ||
             !absl::IsNotFound(verifier.status())) {
    return verifier.status();
  }
  const std::string& data_dir = config.settings.data_dir;
  std::error_code ec;
  std::filesystem::create_directories(data_dir, ec);
  if (needs_deck_keys) {
    ASSIGN_OR_RETURN(
        keys.keys.deck_keys,
        LoadDeckKeys(config.deck_key_file, data_dir, &keys.deck_key_made));
  }
  return keys;
}

namespace {

// Starts `services` on the log `parts` holds, in order; a failure names
// the service.
absl::Status StartServices(const ServerConfig& config, const ServerKeys& keys,
                           const std::vector<edge::HostedServiceSpec>& services,
                           ServerParts& parts) {
  for (const edge::HostedServiceSpec& spec : services) {
    parts.service_logs.push_back(
        std::make_unique<MeteredLog>(*parts.log, *parts.registry, spec.name));
    const edge::HostContext context{.log = *parts.service_logs.back(),
                                    .clock = parts.clock,
                                    .metrics = parts.registry.get(),
                                    .settings = config.settings,
                                    .keys = keys.keys};
    ASSIGN_OR_RETURN(std::unique_ptr<edge::HostedService> started,
                     Prefixed(spec.start(context), spec.name, ": "));
    parts.hosted.push_back(std::move(started));
  }
  return absl::OkStatus();
}

// Serves the started services on the configured address with
// `credentials`, with gRPC health (and reflection when the program
// registered its plugin).
absl::Status Listen(const ServerConfig& config,
                    std::shared_ptr<grpc::ServerCredentials> credentials,
                    ServerParts& parts) {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  edge::ApplyServerOptions(builder);
  const std::string address =
      absl::StrCat(config.grpc_address, ":", config.grpc_port);
  builder.AddListeningPort(address, credentials, &parts.port);
  for (const auto& hosted : parts.hosted) {
    builder.RegisterService(hosted->service());
  }
  parts.grpc = builder.BuildAndStart();
  if (parts.grpc == nullptr || parts.port == 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", address));
  }
  grpc::HealthCheckServiceInterface* health =
      parts.grpc->GetHealthCheckService();
  for (const auto& hosted : parts.hosted) {
    health->SetServingStatus(hosted->health_name(), true);
  }
  return absl::OkStatus();
}

// banca_build_info{version,commit} 1: which build serves.
void AddBuildInfo(prometheus::Registry& registry) {
  prometheus::BuildGauge()
      .Name("banca_build_info")
      .Help("1, labelled with the version and the commit of this build")
      .Register(registry)
      .Add({{"version", BANCA_VERSION}, {"commit", BANCA_COMMIT}})
      .Set(1);
}

// /metrics on the configured address; civetweb throws when it cannot bind.
absl::Status ServeMetrics(const ServerConfig& config, ServerParts& parts) {
  AddBuildInfo(*parts.registry);
  if (config.metrics_port <= 0) return absl::OkStatus();
  const std::string address =
      absl::StrCat(config.metrics_address, ":", config.metrics_port);
  try {
    parts.exposer = std::make_unique<prometheus::Exposer>(address);
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("cannot serve /metrics on ", address, ": ", e.what()));
  }
  parts.exposer->RegisterCollectable(parts.registry);
  return absl::OkStatus();
}

// Opens the log, trying again while it is unreachable for up to
// config.log_retry (server.h); the last error names the tries.
absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenLogWithRetries(
    const ServerConfig& config) {
  constexpr absl::Duration kFirstWait = absl::Seconds(1);
  constexpr absl::Duration kLongestWait = absl::Seconds(30);
  const absl::Time give_up = absl::Now() + config.log_retry;
  absl::Duration wait = kFirstWait;
  for (int attempt = 1;; ++attempt) {
    absl::StatusOr<std::unique_ptr<eventlog::EventLog>> log =
        eventlog::OpenLogBackend(config.log, config.settings.data_dir);
    const bool transient = absl::IsUnavailable(log.status()) ||
                           absl::IsDeadlineExceeded(log.status());
    if (log.ok() || !transient) return log;
    const absl::Duration left = give_up - absl::Now();
    if (left <= absl::ZeroDuration()) {
      if (attempt == 1) return log;
      return absl::Status(
          log.status().code(),
          absl::StrCat("gave up on the log after ", attempt, " tries in ",
                       absl::FormatDuration(config.log_retry), ": ",
                       log.status().message()));
    }
    Log(LogLevel::kWarning, "serve", "the log cannot be reached; trying again",
        {{"attempt", attempt},
         {"wait_ms", absl::ToInt64Milliseconds(std::min(wait, left))},
         {"status", log.status().ToString()}});
    absl::SleepFor(std::min(wait, left));
    wait = std::min(wait * 2, kLongestWait);
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<Server>> Server::Start(
    const ServerConfig& config, ServerKeys keys,
    std::vector<edge::HostedServiceSpec> services) {
  // Certificate files that cannot be used stop the start before the log
  // is opened or replayed.
  ASSIGN_OR_RETURN(std::shared_ptr<grpc::ServerCredentials> credentials,
                   Prefixed(edge::ServerCredentialsFor(config.tls), "TLS: "));
  auto parts = std::make_unique<ServerParts>();
  ASSIGN_OR_RETURN(parts->log, OpenLogWithRetries(config));
  RETURN_IF_ERROR(ServeMetrics(config, *parts));
  const absl::Time replay_start = absl::Now();
  RETURN_IF_ERROR(StartServices(config, keys, services, *parts));
  parts->replay_time = absl::Now() - replay_start;
  RETURN_IF_ERROR(Listen(config, std::move(credentials), *parts));
  return std::unique_ptr<Server>(new Server(std::move(parts)));
}

Server::Server(std::unique_ptr<ServerParts> parts) : parts_(std::move(parts)) {}

Server::~Server() = default;

int Server::port() const { return parts_->port; }

int64_t Server::replayed_events() const {
  int64_t events = 0;
  for (const auto& hosted : parts_->hosted) {
    events += hosted->replayed_events();
  }
  return events;
}

absl::Duration Server::replay_time() const { return parts_->replay_time; }

void Server::Shutdown(absl::Duration grace) {
  for (auto it = parts_->hosted.rbegin(); it != parts_->hosted.rend(); ++it) {
    (*it)->BeginShutdown();
  }
  parts_->grpc->Shutdown(absl::ToChronoTime(absl::Now() + grace));
}

absl::Status Server::Wait() {
  parts_->grpc->Wait();
  absl::Status stopped;
  for (auto it = parts_->hosted.rbegin(); it != parts_->hosted.rend(); ++it) {
    absl::Status status = (*it)->Stop();
    if (stopped.ok()) stopped = std::move(status);
  }
  return stopped;
}

}  // namespace banca::server
