// What every table host is configured with, whatever its game: the log's
// shape, the keys, the sagas' timeout, the background threads and the
// limits. TableServiceOptions (poker) and BankedTableServiceOptions add
// what only their API has.
#ifndef BANCA_SERVICES_COMMON_TABLE_HOST_OPTIONS_H_
#define BANCA_SERVICES_COMMON_TABLE_HOST_OPTIONS_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/time/time.h"
#include "libs/auth/token.h"
#include "libs/cards/random.h"
#include "libs/seal/deck_keys.h"

namespace prometheus {
class Registry;
}  // namespace prometheus

namespace banca::table {

struct TableHostOptions {
  std::string producer = "table";
  // The table topic's partitions (and its requests topic's).
  int partitions = 8;
  // The wallet's topic, read for the sagas' outcomes.
  int wallet_partitions = 8;
  auth::Verifier verifier;
  // Where the host's metrics go (table_host_metrics.h); null: none.
  prometheus::Registry* metrics = nullptr;
  // Seals every deck and shoe in the log (libs/tables/sealed_decks.h);
  // Start refuses to run without one. Every host of these tables holds
  // the same keys.
  seal::DeckKeys deck_keys;
  // A buy-in or stake the wallet has not answered by then fails (and is
  // paid back if the money arrives later).
  absl::Duration saga_timeout = absl::Seconds(10);
  // How long a table action's request id is answered again (its answer
  // kept in memory; a start replays only the answers within it): the
  // wallet's idempotency window.
  absl::Duration idempotency_window = absl::Hours(7 * 24);
  // Background threads: the timers (decision time, deals, saga timeouts)
  // every tick_interval, the wallet-outcome reader every poll_interval.
  // Zero turns one off; tests then call Tick() and PollWalletOutcomes()
  // themselves.
  absl::Duration tick_interval = absl::Milliseconds(20);
  absl::Duration poll_interval = absl::Milliseconds(2);
  // Group mode (services/common/table_group.h; docs/architecture.md,
  // "Several table processes"): the table group's name. Empty: this
  // process decides for every table of its games.
  std::string group;
  int group_session_timeout_ms = 10'000;
  absl::Duration group_poll_interval = absl::Milliseconds(200);
  // Where clients reach this process (host:port), announced to the group
  // and named as the owner in the refusals of the others.
  std::string advertise_address;
  // Upper bounds (TigerBeetle style: a limit on everything).
  int max_tables = 10'000;
  // Streams at a table: a player with a seat there (or a buy-in on its
  // way to one) is always admitted; every other stream is a spectator's,
  // at most this many per table.
  int max_spectators_per_table = 64;
  // WatchTable streams one caller (token subject) holds open across the
  // service.
  int max_watch_streams_per_caller = 4;
  // Tests only: the source each table draws its decks, shoes and numbers
  // from, so that a service test can deal the cards a rule needs (the API
  // never takes a deck). Unset, as `banca serve` always leaves it, every
  // table gets its own cards::SystemRandomSource (docs/rng.md); no flag or
  // request can set it.
  std::function<std::unique_ptr<cards::RandomSource>(
      const std::string& table_id)>
      random_source_for_tests;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_COMMON_TABLE_HOST_OPTIONS_H_
