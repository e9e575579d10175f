// The poker game as the table host runs it (table_host.h): its table
// topic and codec, and what a poker table keeps beside its state — the
// Play sessions at it, the Act answers kept for retries, the decision and
// deal timers, and the buy-in calls waiting for their saga.
#ifndef BANCA_SERVICES_TABLE_POKER_TABLE_H_
#define BANCA_SERVICES_TABLE_POKER_TABLE_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "banca/v1/table.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/tables/table_state.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "services/common/hosted_table.h"
#include "services/common/saga_refusals.h"
#include "services/common/table_host_metrics.h"

namespace banca::table {

// One player's seat over a Play stream or a Relay session (play_session.h).
class PlaySession;

// An Act decided at a poker table, kept for retries while its hand is the
// current or the previous one.
struct ActAnswer {
  std::string fingerprint;
  int64_t hand = 0;
  int64_t sequence = 0;  // durable once the table's log reaches it
  // Empty when decided before a restart or through Play (whose answer has
  // no view): a retry by Act gets the current view.
  std::optional<v1::TableView> response;
};

struct PokerTable : HostedTable<tables::TableState> {
  // The open Play sessions by player, and the last turn (hand, actions so
  // far) their player was told of.
  std::map<std::string, std::shared_ptr<PlaySession>> players;
  std::pair<int64_t, size_t> told_turn{0, 0};
  absl::flat_hash_map<std::string, ActAnswer> acts;  // "<player>:<id>"
  std::deque<std::string> act_order;                 // oldest first
  // The turn the decision timer runs for: (hand, actions so far).
  int64_t timer_hand = 0;
  size_t timer_actions = 0;
  int64_t action_deadline_micros = 0;
  int64_t hand_due_micros = 0;
  // The Sit and Rebuy calls and the Play rebuys waiting for their saga's
  // answer, each run once (under the lock) when its saga ends, and not
  // woken by every action at the table as `changed` would.
  std::map<std::string, std::function<void()>> saga_waits;
};

struct PokerGame {
  using State = tables::TableState;
  using Table = PokerTable;
  static constexpr std::string_view kName = "table";
  static constexpr std::string_view kService = "table";
  static constexpr std::string_view kGame = "poker";
  static constexpr const wire::TableTopics& kTopics = wire::kPokerTableTopics;
  // The table an event belongs to (the host's aggregate id).
  static const std::string& IdOf(const v1::TableEvent& event) {
    return event.table_id();
  }
  static constexpr std::string_view kOutcomeGroup = wire::kTableOutcomesGroup;
  static absl::StatusOr<wire::DecodedTableEvent> Decode(
      const eventlog::StoredRecord& record) {
    return wire::DecodeTableRecord(record);
  }
  static void Append(const v1::TableEvent& event, uint64_t sequence,
                     const wire::TableEventContext& context,
                     std::vector<eventlog::Record>* records) {
    wire::AppendTableRecords(event, sequence, context, records);
  }
  static const std::string* SagaStarted(const v1::TableEvent& event) {
    return event.has_buy_in_requested() ? &event.buy_in_requested().saga_id()
                                        : nullptr;
  }
  static bool SagaPending(const State& state, const std::string& saga_id) {
    return state.FindSaga(saga_id) != nullptr;
  }
  static bool FinishesRound(const v1::TableEvent& event) {
    return event.has_hand_settled();
  }
  static SagaEnd SagaEndOf(const v1::TableEvent& event) {
    if (event.has_buy_in_completed()) return SagaEnd::kCompleted;
    if (!event.has_buy_in_failed()) return SagaEnd::kNone;
    return event.buy_in_failed().timed_out() ? SagaEnd::kTimedOut
                                             : SagaEnd::kFailed;
  }
  // The buy-in's failure when the wallet has not answered in time.
  static v1::TableEvent SagaTimedOut(const State& state,
                                     const std::string& saga_id, int64_t) {
    v1::TableEvent e;
    e.set_table_id(state.id());
    v1::BuyInFailed* failed = e.mutable_buy_in_failed();
    failed->set_saga_id(saga_id);
    failed->set_timed_out(true);
    failed->set_reason(std::string(kSagaTimedOut));
    return e;
  }
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_POKER_TABLE_H_
