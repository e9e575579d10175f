#include "libs/wire/table_codec.h"

#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace banca::wire {

bool IsValidTableId(std::string_view id) {
  if (id.empty() || id.size() > 32) return false;
  for (char c : id) {
    if (!(absl::ascii_islower(static_cast<unsigned char>(c)) ||
          absl::ascii_isdigit(static_cast<unsigned char>(c)) || c == '-')) {
      return false;
    }
  }
  return true;
}

std::string TableStream(std::string_view table_id) {
  return TableTopicStream(kPokerTableTopics, table_id);
}

std::vector<std::string> CardsToStrings(absl::Span<const cards::Card> cs) {
  std::vector<std::string> out;
  out.reserve(cs.size());
  for (cards::Card c : cs) out.push_back(cards::CardToString(c));
  return out;
}

absl::StatusOr<std::vector<cards::Card>> CardsFromStrings(
    const google::protobuf::RepeatedPtrField<std::string>& in) {
  std::vector<cards::Card> out;
  out.reserve(in.size());
  for (const std::string& text : in) {
    absl::StatusOr<cards::Card> c = cards::ParseCard(text);
    if (!c.ok()) {
      return absl::DataLossError(
          absl::StrCat("stored card \"", text, "\" does not parse"));
    }
    out.push_back(*c);
  }
  return out;
}

eventlog::Record EncodeTableRecord(const v1::TableEvent& event,
                                   uint64_t sequence,
                                   const TableEventContext& context) {
  return EncodeTableEvent(kPokerTableTopics, kTableTopic, event, sequence,
                          context);
}

bool IsMoneyRequest(const v1::TableEvent& event) {
  return event.has_buy_in_requested() || event.has_hand_settled() ||
         event.has_player_left();
}

v1::TableEvent MoneyRequestOf(const v1::TableEvent& event) {
  v1::TableEvent request = event;
  if (request.has_hand_settled()) {
    request.mutable_hand_settled()->clear_revealed_deck();
  }
  return request;
}

void AppendTableRecords(const v1::TableEvent& event, uint64_t sequence,
                        const TableEventContext& context,
                        std::vector<eventlog::Record>* records) {
  std::optional<v1::TableEvent> request;
  if (IsMoneyRequest(event)) request = MoneyRequestOf(event);
  AppendTableEvent(kPokerTableTopics, event, request ? &*request : nullptr,
                   sequence, context, records);
}

absl::StatusOr<DecodedTableEvent> DecodeTableRecord(
    const eventlog::StoredRecord& record) {
  return DecodeTableEvent<v1::TableEvent>(kPokerTableTopics, record);
}

}  // namespace banca::wire
