#include "libs/wire/banked_codec.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/wire/envelope_record.h"

namespace banca::wire {

std::string BankedStream(std::string_view table_id) {
  return absl::StrCat("banked/", ToAbsl(table_id));
}

std::string_view BankedGameName(v1::BankedGame game) {
  switch (game) {
    case v1::BANKED_GAME_ROULETTE_FRENCH:
      return "roulette_french";
    case v1::BANKED_GAME_ROULETTE_AMERICAN:
      return "roulette_american";
    case v1::BANKED_GAME_BLACKJACK:
      return "blackjack";
    case v1::BANKED_GAME_STUD_NO_DRAW:
      return "stud_no_draw";
    default:
      return "";
  }
}

namespace {

EnvelopeMeta BankedMeta(std::string_view topic,
                        const v1::BankedTableEvent& event, uint64_t sequence,
                        const BankedEventContext& context) {
  return EnvelopeMeta{std::string(topic),
                      BankedStream(event.table_id()),
                      std::string(kBankedEventType),
                      kBankedSchemaVersion,
                      sequence,
                      context.producer,
                      context.correlation_id,
                      event.request_id(),
                      context.occurred_at_micros};
}

}  // namespace

eventlog::Record EncodeBankedRecord(const v1::BankedTableEvent& event,
                                    uint64_t sequence,
                                    const BankedEventContext& context) {
  return EnvelopeRecord(BankedMeta(kBankedTopic, event, sequence, context),
                        event);
}

bool IsMoneyRequest(const v1::BankedTableEvent& event) {
  return event.has_stake_requested() || event.has_money();
}

void AppendBankedRecords(const v1::BankedTableEvent& event, uint64_t sequence,
                         const BankedEventContext& context,
                         std::vector<eventlog::Record>* records) {
  records->push_back(EncodeBankedRecord(event, sequence, context));
  if (!IsMoneyRequest(event)) return;
  records->push_back(EnvelopeRecord(
      BankedMeta(kBankedRequestsTopic, event, sequence, context), event));
}

absl::StatusOr<DecodedBankedEvent> DecodeBankedRecord(
    const eventlog::StoredRecord& record) {
  DecodedBankedEvent out;
  RETURN_IF_ERROR(DecodeEnvelope(record, kBankedEventType, "banked",
                                 &out.envelope, &out.event));
  return out;
}

}  // namespace banca::wire
