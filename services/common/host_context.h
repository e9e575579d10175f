// What a server starts each service it hosts with (hosted_service.h): the
// log they share, the clock, the metrics registry, the settings `banca
// serve` was given and the keys it loaded.
#ifndef BANCA_SERVICES_COMMON_HOST_CONTEXT_H_
#define BANCA_SERVICES_COMMON_HOST_CONTEXT_H_

#include <optional>
#include <string>

#include "libs/auth/token.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "libs/seal/deck_keys.h"
#include "prometheus/registry.h"

namespace banca::edge {

// The settings of one server that its services take their options from.
struct HostSettings {
  std::string data_dir;          // each service's projections live under it
  int partitions = 8;            // of each topic a service creates or reads
  std::string currency = "EUR";  // the wallet's
  // A wallet that checks no caller's identity (a developer's machine).
  bool insecure_dev = false;
  // Wallets of one group share the wallet topic's partitions.
  std::string wallet_group;
  int wallet_session_timeout_ms = 10'000;
  // The wallet's snapshots (DATA_DIR/snapshots/wallet): one every this
  // many events of its log, and one at a clean stop; 0: only at a stop.
  int64_t wallet_snapshot_every_events = 0;
  // No snapshots at all: every start replays the log from offset 0.
  bool wallet_snapshots_off = false;
  // How long the wallet (DATA_DIR/answers/wallet) and the table hosts (in
  // memory) keep a request id's answer: a retry within it is answered
  // again, a reuse after it is a new request.
  int64_t idempotency_window_hours = 7 * 24;
  // Table hosts of one group share each game topic's partitions (the
  // tables, the banked tables and the tournaments alike).
  std::string table_group;
  int table_session_timeout_ms = 10'000;
  // Where clients reach this server (host:port): announced to the table
  // group, and named as the owner in its refusals (owner_redirect.h).
  std::string advertise_address;
};

// What services check callers and seal decks with.
struct HostKeys {
  std::optional<auth::Verifier> verifier;   // absent only for --insecure-dev
  std::optional<seal::DeckKeys> deck_keys;  // the tables'
};

// Everything a service is started with. The server owns what it refers to;
// a service copies what it keeps (only the log, the clock and the registry
// outlive the start).
struct HostContext {
  eventlog::EventLog& log;
  const Clock& clock;
  prometheus::Registry* metrics = nullptr;  // null: no metrics
  const HostSettings& settings;
  const HostKeys& keys;
};

}  // namespace banca::edge

#endif  // BANCA_SERVICES_COMMON_HOST_CONTEXT_H_
