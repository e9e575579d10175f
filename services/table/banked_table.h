// The banked games (roulette, blackjack, póquer sem descarte) as the table
// host runs them (table_host.h): their table topic and codec. A banked
// table keeps nothing beside what every hosted table keeps.
#ifndef BANCA_SERVICES_TABLE_BANKED_TABLE_H_
#define BANCA_SERVICES_TABLE_BANKED_TABLE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/tables/banked_game_state.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/topics.h"
#include "services/common/hosted_table.h"
#include "services/common/saga_refusals.h"
#include "services/common/table_host_metrics.h"

namespace banca::table {

struct BankedGame {
  using State = tables::BankedGameState;
  using Table = HostedTable<State>;
  static constexpr std::string_view kName = "banked table";
  static constexpr std::string_view kService = "table";
  static constexpr std::string_view kGame = "banked";
  static constexpr const wire::TableTopics& kTopics = wire::kBankedTableTopics;
  // The table an event belongs to (the host's aggregate id).
  static const std::string& IdOf(const v1::BankedTableEvent& event) {
    return event.table_id();
  }
  static constexpr std::string_view kOutcomeGroup =
      wire::kBankedStakeOutcomesGroup;
  static absl::StatusOr<wire::DecodedBankedEvent> Decode(
      const eventlog::StoredRecord& record) {
    return wire::DecodeBankedRecord(record);
  }
  static void Append(const v1::BankedTableEvent& event, uint64_t sequence,
                     const wire::TableEventContext& context,
                     std::vector<eventlog::Record>* records) {
    wire::AppendBankedRecords(event, sequence, context, records);
  }
  static const std::string* SagaStarted(const v1::BankedTableEvent& event) {
    return event.has_stake_requested() ? &event.stake_requested().saga_id()
                                       : nullptr;
  }
  static bool SagaPending(const State& state, const std::string& saga_id) {
    return state.sagas().Pending(saga_id) != nullptr;
  }
  // A round's settlement, or its void.
  static bool FinishesRound(const v1::BankedTableEvent& event) {
    return event.has_money() && (event.money().cause() == "settled" ||
                                 event.money().cause() == "void");
  }
  static SagaEnd SagaEndOf(const v1::BankedTableEvent& event) {
    if (event.has_stake_captured()) return SagaEnd::kCompleted;
    if (!event.has_stake_refused()) return SagaEnd::kNone;
    return event.stake_refused().timed_out() ? SagaEnd::kTimedOut
                                             : SagaEnd::kFailed;
  }
  // The stake's refusal when the wallet has not answered in time.
  static v1::BankedTableEvent SagaTimedOut(const State& state,
                                           const std::string& saga_id,
                                           int64_t now) {
    v1::BankedTableEvent e;
    e.set_table_id(state.id());
    e.set_at_micros(now);
    v1::StakeRefused* refused = e.mutable_stake_refused();
    refused->set_saga_id(saga_id);
    refused->set_timed_out(true);
    refused->set_reason(std::string(kSagaTimedOut));
    return e;
  }
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_BANKED_TABLE_H_
