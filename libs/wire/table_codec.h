// How poker-table events look on the log: one EventEnvelope per record on
// banca.table.events, keyed "table/<id>" so each table is ordered in one
// partition, and the money requests' copies for the wallet.
#ifndef BANCA_LIBS_WIRE_TABLE_CODEC_H_
#define BANCA_LIBS_WIRE_TABLE_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "banca/v1/envelope.pb.h"
#include "banca/v1/table.pb.h"
#include "libs/cards/card.h"
#include "libs/eventlog/event_log.h"
#include "libs/wire/envelope_record.h"
#include "libs/wire/topics.h"

namespace banca::wire {

// 1..32 of [a-z0-9-].
bool IsValidTableId(std::string_view id);
std::string TableStream(std::string_view table_id);

std::vector<std::string> CardsToStrings(absl::Span<const cards::Card> cards);
// DATA_LOSS when a stored card does not parse (the log is corrupt).
absl::StatusOr<std::vector<cards::Card>> CardsFromStrings(
    const google::protobuf::RepeatedPtrField<std::string>& cards);

eventlog::Record EncodeTableRecord(const v1::TableEvent& event,
                                   uint64_t sequence,
                                   const TableEventContext& context);

// Whether the wallet carries `event` out: BuyInRequested, HandSettled,
// PlayerLeft.
bool IsMoneyRequest(const v1::TableEvent& event);
// The wallet's copy of a money request: `event` as the wallet needs it (a
// HandSettled without its revealed deck) on kTableRequestsTopic, with the
// envelope of the event's own record (same stream, sequence, event id).
v1::TableEvent MoneyRequestOf(const v1::TableEvent& event);
// `event`'s record, followed, for a money request, by its copy for the
// wallet: what a table host appends, in one batch.
void AppendTableRecords(const v1::TableEvent& event, uint64_t sequence,
                        const TableEventContext& context,
                        std::vector<eventlog::Record>* records);

using DecodedTableEvent = DecodedEnvelope<v1::TableEvent>;
// DATA_LOSS when the record is not a table event.
absl::StatusOr<DecodedTableEvent> DecodeTableRecord(
    const eventlog::StoredRecord& record);

}  // namespace banca::wire

#endif  // BANCA_LIBS_WIRE_TABLE_CODEC_H_
