// How tournament events look on the log: one EventEnvelope per record on
// banca.tournament.events, keyed "tournament/<id>" so that each tournament
// is one ordered stream in one partition; the money requests' copies
// (PaymentRequested, TournamentMoney) go to banca.tournament.requests,
// which the wallet reads (never the events: no card, no action).
#ifndef BANCA_LIBS_WIRE_TOURNAMENT_CODEC_H_
#define BANCA_LIBS_WIRE_TOURNAMENT_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/tournament.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/wire/envelope_record.h"
#include "libs/wire/topics.h"

namespace banca::wire {

// "tournament/<id>".
std::string TournamentStream(std::string_view tournament_id);

// Whether the wallet carries `event` out: a payment with a transaction
// (a freeroll's entry has none), or money.
bool IsMoneyRequest(const v1::TournamentEvent& event);
// `event`'s record, followed, for a money request, by its copy for the
// wallet on kTournamentRequestsTopic (same envelope): one batch.
void AppendTournamentRecords(const v1::TournamentEvent& event,
                             uint64_t sequence,
                             const TableEventContext& context,
                             std::vector<eventlog::Record>* records);

using DecodedTournamentEvent = DecodedEnvelope<v1::TournamentEvent>;
// DATA_LOSS when the record is not a tournament event.
absl::StatusOr<DecodedTournamentEvent> DecodeTournamentRecord(
    const eventlog::StoredRecord& record);

}  // namespace banca::wire

#endif  // BANCA_LIBS_WIRE_TOURNAMENT_CODEC_H_
