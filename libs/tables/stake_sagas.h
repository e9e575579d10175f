// The stake sagas of one banked table: the stakes requested from the
// wallet and not yet answered, and those the table gave up waiting for
// (whose late capture it pays back). Shared by every banked game; changed
// only through the table's Apply, so a replay rebuilds it.
//
// It also remembers which request asked for each stake in flight and for
// the last kRecentStakeRefusals refused ones, so that a repeat of that
// request (same request id) is answered by its stake's outcome, as the
// first answer was (PlaceBet answers once the stake is captured, or
// FAILED_PRECONDITION with the refusal), not by an OK while the stake is
// in flight or after it was refused. A captured stake's request is
// forgotten: its repeat answers the view, as a capture does.
#ifndef BANCA_LIBS_TABLES_STAKE_SAGAS_H_
#define BANCA_LIBS_TABLES_STAKE_SAGAS_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"

namespace banca::tables {

// Per table: a repeat of an older refused request is answered by the view.
inline constexpr size_t kRecentStakeRefusals = 256;

// How the stake a request asked for ended, as far as this table knows.
struct StakeOutcome {
  enum class State { kUnknown, kPending, kCaptured, kRefused };
  // kUnknown: no stake, a captured one, or a refusal too old.
  State state = State::kUnknown;
  std::string saga_id;
  std::string reason;  // kRefused: the refusal's reason
};

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

  // Request `request_id` asked for stake `saga_id` (after Begin).
  void NoteRequest(const std::string& request_id, const std::string& saga_id);
  // Stake `saga_id` ended (after End): captured, or refused for `reason`.
  void NoteCaptured(const std::string& saga_id);
  void NoteRefused(const std::string& saga_id, const std::string& reason);
  StakeOutcome OutcomeOf(const std::string& request_id) const;

 private:
  int64_t count_ = 0;
  std::map<std::string, Stake> pending_;
  std::map<std::string, Stake> timed_out_;
  // The requests of the stakes in flight and of the last refused ones.
  std::map<std::string, std::string> saga_of_request_;
  std::map<std::string, std::string> request_of_saga_;
  std::map<std::string, std::string> refused_;  // saga id -> reason
  std::deque<std::string> refusals_;            // saga ids, oldest first
};

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_STAKE_SAGAS_H_
