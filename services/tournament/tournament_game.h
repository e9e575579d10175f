// A tournament as the table host runs it (services/common/table_host.h):
// its topics, codec and payment sagas. The tournament's tables and hands
// live inside its aggregate (libs/tables/tournament_state.h).
#ifndef BANCA_SERVICES_TOURNAMENT_TOURNAMENT_GAME_H_
#define BANCA_SERVICES_TOURNAMENT_TOURNAMENT_GAME_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/tournament.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/tables/tournament_state.h"
#include "libs/wire/topics.h"
#include "libs/wire/tournament_codec.h"
#include "services/common/hosted_table.h"
#include "services/common/saga_refusals.h"
#include "services/common/table_host_metrics.h"

namespace banca::tournament {

struct TournamentGame {
  using State = tables::TournamentState;
  using Table = table::HostedTable<State>;
  static constexpr std::string_view kName = "tournament";
  static constexpr std::string_view kService = "tournament";
  static constexpr std::string_view kGame = "tournament";
  static constexpr const wire::TableTopics& kTopics = wire::kTournamentTopics;
  static constexpr std::string_view kOutcomeGroup =
      wire::kTournamentPaymentOutcomesGroup;
  static const std::string& IdOf(const v1::TournamentEvent& event) {
    return event.tournament_id();
  }
  static absl::StatusOr<wire::DecodedTournamentEvent> Decode(
      const eventlog::StoredRecord& record) {
    return wire::DecodeTournamentRecord(record);
  }
  static void Append(const v1::TournamentEvent& event, uint64_t sequence,
                     const wire::TableEventContext& context,
                     std::vector<eventlog::Record>* records) {
    wire::AppendTournamentRecords(event, sequence, context, records);
  }
  static const std::string* SagaStarted(const v1::TournamentEvent& event) {
    return event.has_payment_requested() ? &event.payment_requested().saga_id()
                                         : nullptr;
  }
  static bool SagaPending(const State& state, const std::string& saga_id) {
    return state.PendingPayment(saga_id) != nullptr;
  }
  // A hand at one of its tables.
  static bool FinishesRound(const v1::TournamentEvent& event) {
    return event.has_hand_ended();
  }
  static table::SagaEnd SagaEndOf(const v1::TournamentEvent& event) {
    if (event.has_payment_captured()) return table::SagaEnd::kCompleted;
    if (!event.has_payment_refused()) return table::SagaEnd::kNone;
    return event.payment_refused().timed_out() ? table::SagaEnd::kTimedOut
                                               : table::SagaEnd::kFailed;
  }
  // The payment's refusal when the wallet has not answered in time (a
  // later capture is paid back).
  static v1::TournamentEvent SagaTimedOut(const State& state,
                                          const std::string& saga_id,
                                          int64_t now);
};

}  // namespace banca::tournament

#endif  // BANCA_SERVICES_TOURNAMENT_TOURNAMENT_GAME_H_
