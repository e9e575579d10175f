// One table as its host keeps it, whatever the game: the table's state (a
// libs/tables TableAggregate) behind its lock, where its event stream
// stands on the log (queued, and made durable), the answers waiting for
// the log, the sagas' start times, the refusals for the callers waiting
// on them, the table's randomness and its open watch streams. A game's
// host may keep more beside it (services/table/poker_table.h).
#ifndef BANCA_SERVICES_COMMON_HOSTED_TABLE_H_
#define BANCA_SERVICES_COMMON_HOSTED_TABLE_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"
#include "libs/cards/random.h"
#include "services/common/saga_refusals.h"

namespace banca::table {

// What is owed once the table's log is durable up to `sequence`: a
// callback reply to finish (after the table's lock is released), or an
// update to send (under the lock, so that no update overtakes one queued
// before it; sending only queues a write).
struct DurableWait {
  int64_t sequence = 0;
  grpc::ServerUnaryReactor* reactor = nullptr;
  std::function<void()> send;
};

template <typename State>
struct HostedTable {
  absl::Mutex mu;
  absl::CondVar changed;  // state changed, or more of it became durable
  std::unique_ptr<State> state ABSL_GUARDED_BY(mu);
  int64_t sequence ABSL_GUARDED_BY(mu) = 0;  // last one queued on the log
  int64_t durable_sequence ABSL_GUARDED_BY(mu) = 0;  // last one made durable
  std::deque<DurableWait> durable_waits ABSL_GUARDED_BY(mu);  // by sequence
  // When each saga in flight started (its timeout runs from there).
  std::map<std::string, int64_t> saga_started_micros ABSL_GUARDED_BY(mu);
  SagaRefusals refusals;  // for the calls waiting on a saga
  std::unique_ptr<cards::RandomSource> rng ABSL_GUARDED_BY(mu);
  // The open WatchTable streams by viewer (table_caller.h: a player's
  // name, kSpectator for any other role).
  std::map<std::string, int> watchers ABSL_GUARDED_BY(mu);
  // Group mode: a decision at this table has passed the group's gate and
  // its append has not been queued yet (table_group.h).
  bool entered ABSL_GUARDED_BY(mu) = false;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_COMMON_HOSTED_TABLE_H_
