// The stake sagas of one banked table: the stakes requested from the
// wallet and not yet answered, and those the table gave up waiting for
// (whose late capture it pays back). Shared by every banked game; changed
// only through the table's Apply, so a replay rebuilds it.
#ifndef BANCA_LIBS_TABLES_STAKE_SAGAS_H_
#define BANCA_LIBS_TABLES_STAKE_SAGAS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"

namespace banca::tables {

class StakeSagas {
 public:
  // The request as logged (player, bet, round, stake, what it pays for).
  using Stake = v1::StakeRequested;

  // "banked/<table>/stake/<n>" for the next saga.
  std::string NextSagaId(const std::string& table_id) const;
  // DATA_LOSS when `r` is not the next saga (the log is out of order).
  absl::Status Begin(const std::string& table_id, const Stake& r);
  const Stake* Pending(const std::string& saga_id) const;
  const Stake* TimedOut(const std::string& saga_id) const;
  bool any() const { return !pending_.empty(); }
  bool AnyFor(const std::string& player) const;
  std::vector<std::string> PendingIds() const;
  // Ends a pending saga; a refusal for a timeout is remembered so that a
  // late capture is paid back (TakeTimedOut).
  void End(const std::string& saga_id, bool timed_out);
  std::optional<Stake> TakeTimedOut(const std::string& saga_id);

 private:
  int64_t count_ = 0;
  std::map<std::string, Stake> pending_;
  std::map<std::string, Stake> timed_out_;
};

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_STAKE_SAGAS_H_
