// The composition root of `banca serve`: the chosen services on one event
// log, behind one gRPC server, with their keys, metrics and health. The
// command parses flags and handles signals; everything it serves is put
// together here, so a test or another front end starts the same server.
#ifndef BANCA_SERVICES_SERVER_SERVER_H_
#define BANCA_SERVICES_SERVER_SERVER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/auth/token.h"
#include "libs/seal/deck_keys.h"

namespace banca::server {

struct ServerConfig {
  bool wallet = true;
  bool table = false;  // the poker and the banked tables
  std::string data_dir;
  std::string log = "embedded";  // or kafka://HOST:PORT[,...][?options]
  std::string grpc_address = "0.0.0.0";
  int grpc_port = 7070;     // 0 picks a free port
  int metrics_port = 9464;  // 0: no /metrics
  int partitions = 8;
  std::string currency = "EUR";
  std::string token_key_file;
  std::string token_verify_key_file;
  std::string deck_key_file;  // empty: DATA_DIR/deck.key, made if missing
  bool insecure_dev = false;
  std::string wallet_group;
  int wallet_session_timeout_ms = 10'000;
};

// Sets config->wallet and config->table from "wallet", "table" or
// "wallet,table"; INVALID_ARGUMENT naming a service it does not know.
absl::Status ParseServices(std::string_view list, ServerConfig* config);

// What the services check callers and seal decks with.
struct ServerKeys {
  std::optional<auth::Verifier> verifier;   // absent only for --insecure-dev
  std::optional<seal::DeckKeys> deck_keys;  // the tables'
  bool deck_key_made = false;  // DATA_DIR/deck.key was made just now
};

// The keys `config` asks for: a verifier unless a developer's insecure
// wallet runs alone, the deck keys when the tables run. An error names the
// key that cannot be read.
absl::StatusOr<ServerKeys> LoadServerKeys(const ServerConfig& config);

// What a started server holds (server.cc).
struct ServerParts;

class Server {
 public:
  // Opens the log, replays and starts each service, listens. The status
  // says which part failed ("wallet: ...", "cannot listen on ...").
  static absl::StatusOr<std::unique_ptr<Server>> Start(
      const ServerConfig& config, ServerKeys keys);
  ~Server();

  int port() const;
  int64_t replayed_events() const;
  absl::Duration replay_time() const;

  // Stops taking calls: the tables first (no new hand or round), then the
  // gRPC server, giving calls in flight `grace`. Safe from another thread.
  void Shutdown(absl::Duration grace);
  // Blocks until the server has shut down, then stops every service. The
  // wallet's stop status (its last appends made durable).
  absl::Status Wait();

 private:
  explicit Server(std::unique_ptr<ServerParts> parts);
  std::unique_ptr<ServerParts> parts_;
};

}  // namespace banca::server

#endif  // BANCA_SERVICES_SERVER_SERVER_H_
