#include "libs/wire/banked_codec.h"

namespace banca::wire {

std::string BankedStream(std::string_view table_id) {
  return TableTopicStream(kBankedTableTopics, table_id);
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

eventlog::Record EncodeBankedRecord(const v1::BankedTableEvent& event,
                                    uint64_t sequence,
                                    const BankedEventContext& context) {
  return EncodeTableEvent(kBankedTableTopics, kBankedTopic, event, sequence,
                          context);
}

bool IsMoneyRequest(const v1::BankedTableEvent& event) {
  return event.has_stake_requested() || event.has_money();
}

void AppendBankedRecords(const v1::BankedTableEvent& event, uint64_t sequence,
                         const BankedEventContext& context,
                         std::vector<eventlog::Record>* records) {
  AppendTableEvent(kBankedTableTopics, event,
                   IsMoneyRequest(event) ? &event : nullptr, sequence, context,
                   records);
}

absl::StatusOr<DecodedBankedEvent> DecodeBankedRecord(
    const eventlog::StoredRecord& record) {
  return DecodeTableEvent<v1::BankedTableEvent>(kBankedTableTopics, record);
}

}  // namespace banca::wire
