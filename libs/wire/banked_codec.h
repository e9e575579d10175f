// How banked-table events look on the log: one EventEnvelope per record on
// banca.banked.events, keyed "banked/<table>" so that each table is one
// ordered stream in one partition; the money requests' copies go to
// banca.banked.requests, which the wallet reads.
//
// A topic of its own, not banca.table.events: the poker tables replay that
// topic and every record there is a poker TableEvent.
#ifndef BANCA_LIBS_WIRE_BANKED_CODEC_H_
#define BANCA_LIBS_WIRE_BANKED_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"
#include "banca/v1/envelope.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/wire/envelope_record.h"
#include "libs/wire/topics.h"

namespace banca::wire {

// "banked/<table>".
std::string BankedStream(std::string_view table_id);
// The game's name in ledger transactions ("roulette_french", ...); empty
// for UNSPECIFIED.
std::string_view BankedGameName(v1::BankedGame game);

// The same context as the poker tables' events (envelope_record.h).
using BankedEventContext = TableEventContext;

eventlog::Record EncodeBankedRecord(const v1::BankedTableEvent& event,
                                    uint64_t sequence,
                                    const BankedEventContext& context);

// Whether the wallet carries `event` out: StakeRequested, BankedMoney.
bool IsMoneyRequest(const v1::BankedTableEvent& event);
// `event`'s record, followed, for a money request, by its copy for the
// wallet on kBankedRequestsTopic (same envelope): one batch.
void AppendBankedRecords(const v1::BankedTableEvent& event, uint64_t sequence,
                         const BankedEventContext& context,
                         std::vector<eventlog::Record>* records);

using DecodedBankedEvent = DecodedEnvelope<v1::BankedTableEvent>;
// DATA_LOSS when the record is not a banked-table event.
absl::StatusOr<DecodedBankedEvent> DecodeBankedRecord(
    const eventlog::StoredRecord& record);

}  // namespace banca::wire

#endif  // BANCA_LIBS_WIRE_BANKED_CODEC_H_
