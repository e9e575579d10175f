// The composition root of `banca serve`: the hosted services it is given
// (services/common/hosted_service.h) on one event log, behind one gRPC
// server, with their keys, metrics and health. It names no service: the
// program offers its catalog (tools/banca/serve.cc) and --services picks
// from it (service_selection.h); each service's folder builds its own
// options. The command parses flags and handles signals;
// everything it serves is put together here, so a test or another front
// end starts the same server.
#ifndef BANCA_SERVICES_SERVER_SERVER_H_
#define BANCA_SERVICES_SERVER_SERVER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/host_context.h"
#include "services/common/hosted_service.h"
#include "services/common/transport_security.h"

namespace banca::server {

struct ServerConfig {
  // What the services are started with; data_dir also holds the embedded
  // log and the deck key.
  edge::HostSettings settings;
  std::string log = "embedded";  // or kafka://HOST:PORT[,...][?options]
  // A log that cannot be reached at start (UNAVAILABLE, DEADLINE_EXCEEDED:
  // brokers still starting) is tried again, waiting 1 s, 2 s, … 30 s
  // between tries, for up to this long; zero: the first failure stops the
  // start.
  absl::Duration log_retry = absl::ZeroDuration();
  std::string grpc_address = "0.0.0.0";
  int grpc_port = 7070;  // 0 picks a free port
  // TLS, or mutual TLS with a client CA (transport_security.h). Unset:
  // plaintext, as the in-process servers of tests and benches on loopback
  // use; `banca serve` leaves it unset only when --plaintext says so.
  std::optional<edge::ServerTls> tls;
  int metrics_port = 9464;  // 0: no /metrics
  // What /metrics binds to: every interface by default; 127.0.0.1 or a
  // pod IP narrows it ([::1] for IPv6).
  std::string metrics_address = "0.0.0.0";
  std::string token_key_file;
  std::string token_verify_key_file;
  std::string deck_key_file;  // empty: DATA_DIR/deck.key, made if missing
};

// The keys the services are given, and how they were found.
struct ServerKeys {
  edge::HostKeys keys;
  bool deck_key_made = false;  // DATA_DIR/deck.key was made just now
};

// The keys `services` need: a verifier unless --insecure-dev runs only
// services that allow it (a developer's wallet alone), the deck keys when
// one of them seals decks (the tables). An error names the key that cannot
// be read.
absl::StatusOr<ServerKeys> LoadServerKeys(
    const ServerConfig& config,
    const std::vector<edge::HostedServiceSpec>& services);

// What a started server holds (server.cc).
struct ServerParts;

class Server {
 public:
  // Opens the log, serves /metrics (banca_build_info, and each service's
  // banca_log_append_errors_total), replays and starts each of `services`
  // in order, listens. The status says which part failed ("wallet: ...",
  // "cannot listen on ...", "cannot serve /metrics on ...").
  static absl::StatusOr<std::unique_ptr<Server>> Start(
      const ServerConfig& config, ServerKeys keys,
      std::vector<edge::HostedServiceSpec> services);
  ~Server();

  int port() const;
  int64_t replayed_events() const;
  absl::Duration replay_time() const;

  // Stops taking calls: each service begins its shutdown, the last started
  // first (the tables before the wallet: no new hand or round), then the
  // gRPC server gives calls in flight `grace`. Safe from another thread.
  void Shutdown(absl::Duration grace);
  // Blocks until the server has shut down, then stops every service, the
  // last started first. The first error of their stops (the wallet's: its
  // last appends made durable).
  absl::Status Wait();

 private:
  explicit Server(std::unique_ptr<ServerParts> parts);
  std::unique_ptr<ServerParts> parts_;
};

}  // namespace banca::server

#endif  // BANCA_SERVICES_SERVER_SERVER_H_
