// How banked-table events look on the log: one EventEnvelope per record on
// banca.banked.events, keyed "banked/<table>" so that each table is one
// ordered stream in one partition. The wallet reads this topic for the
// stake sagas and settlements (services/wallet/banked_requests.cc).
//
// A topic of its own, not banca.table.events: the poker tables replay that
// topic and every record there is a poker TableEvent.
#ifndef BANCA_SERVICES_TABLE_BANKED_CODEC_H_
#define BANCA_SERVICES_TABLE_BANKED_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"
#include "banca/v1/envelope.pb.h"
#include "libs/eventlog/event_log.h"
#include "services/table/table_codec.h"

namespace banca::table {

inline constexpr std::string_view kBankedTopic = "banca.banked.events";
// The banked tables' money requests for the wallet (StakeRequested,
// BankedMoney), copied as the poker tables' are (kTableRequestsTopic).
inline constexpr std::string_view kBankedRequestsTopic =
    "banca.banked.requests";
inline constexpr std::string_view kBankedEventType =
    "banca.v1.BankedTableEvent";
inline constexpr uint32_t kBankedSchemaVersion = 1;
// The banked tables' position on banca.wallet.events: the stake outcomes
// they have read (and turned into StakeCaptured / StakeRefused).
inline constexpr std::string_view kBankedStakeOutcomesGroup =
    "table.banked-stake-outcomes";

// "banked/<table>".
std::string BankedStream(std::string_view table_id);
// The game's name in ledger transactions ("roulette_french", ...); empty
// for UNSPECIFIED.
std::string_view BankedGameName(v1::BankedGame game);

// A stake saga's id, "banked/<table>/stake/<n>", and the wallet's request
// id for its one step, "<saga>/stake".
std::string StakeSagaId(std::string_view table_id, int64_t n);
std::string StakeRequestId(std::string_view saga_id);
// The saga id of a wallet request id "<saga>/stake"; empty when it is not
// one.
std::string SagaOfStakeRequest(std::string_view request_id);

// The same context as the poker tables' events.
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

struct DecodedBankedEvent {
  v1::EventEnvelope envelope;
  v1::BankedTableEvent event;
};
// DATA_LOSS when the record is not a banked-table event.
absl::StatusOr<DecodedBankedEvent> DecodeBankedRecord(
    const eventlog::StoredRecord& record);

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_BANKED_CODEC_H_
