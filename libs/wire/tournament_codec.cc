#include "libs/wire/tournament_codec.h"

namespace banca::wire {

std::string TournamentStream(std::string_view tournament_id) {
  return TableTopicStream(kTournamentTopics, tournament_id);
}

bool IsMoneyRequest(const v1::TournamentEvent& event) {
  // A freeroll's entry pays nothing: the tournament applies it at once.
  return (event.has_payment_requested() &&
          event.payment_requested().tx().postings_size() > 0) ||
         event.has_money();
}

void AppendTournamentRecords(const v1::TournamentEvent& event,
                             uint64_t sequence,
                             const TableEventContext& context,
                             std::vector<eventlog::Record>* records) {
  records->push_back(TableEventRecord(kTournamentTopics, kTournamentTopic,
                                      event.tournament_id(), event.request_id(),
                                      event, sequence, context));
  if (!IsMoneyRequest(event)) return;
  records->push_back(TableEventRecord(
      kTournamentTopics, kTournamentRequestsTopic, event.tournament_id(),
      event.request_id(), event, sequence, context));
}

absl::StatusOr<DecodedTournamentEvent> DecodeTournamentRecord(
    const eventlog::StoredRecord& record) {
  return DecodeTableEvent<v1::TournamentEvent>(kTournamentTopics, record);
}

}  // namespace banca::wire
