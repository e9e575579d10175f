// The table service's wire formats: table settings between the API and the
// engine, poker actions, and TableEvents on the log (one EventEnvelope per
// record, keyed "table/<id>" so each table is ordered in one partition).
#ifndef BANCA_SERVICES_TABLE_TABLE_CODEC_H_
#define BANCA_SERVICES_TABLE_TABLE_CODEC_H_

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
#include "libs/games/poker/action.h"
#include "libs/games/poker/table_config.h"

namespace banca::table {

inline constexpr std::string_view kTableTopic = "banca.table.events";
// The poker tables' money requests, for the wallet (docs/security.md,
// "Money requests"): a copy of each BuyInRequested, HandSettled and
// PlayerLeft, with the same envelope, appended in the same atomic batch as
// the event itself, and with the same partitions. The wallet reads only
// this topic, never the table's events (no card, no action).
inline constexpr std::string_view kTableRequestsTopic = "banca.table.requests";
inline constexpr int kDefaultTablePartitions = 8;
inline constexpr std::string_view kTableEventType = "banca.v1.TableEvent";
inline constexpr uint32_t kTableSchemaVersion = 1;

// Defaults when a field is 0.
inline constexpr int kDefaultSeats = 6;
inline constexpr int kDefaultActionSeconds = 30;
inline constexpr int kMaxActionSeconds = 600;
inline constexpr int kMaxHandIntervalMs = 60'000;
// HE-68: the longest rest limit an operator may set (a day).
inline constexpr int kMaxSitOutSeconds = 86'400;

// 1..32 of [a-z0-9-].
bool IsValidTableId(std::string_view id);
std::string TableStream(std::string_view table_id);

// The settings with every default filled in, checked by the engine's rules
// (HE-5, HE-8, HE-17, HE-22 ...). INVALID_ARGUMENT naming the bad field.
absl::StatusOr<v1::PokerTableConfig> NormalizeConfig(
    const v1::PokerTableConfig& config);
// `config` must be normalized.
games::poker::TableConfig EngineConfig(const v1::PokerTableConfig& config);

absl::StatusOr<games::poker::Action> ActionFromProto(v1::PokerActionType type,
                                                     int64_t amount);
v1::PokerActionType ActionToProto(games::poker::ActionType type);

std::vector<std::string> CardsToStrings(absl::Span<const cards::Card> cards);
// DATA_LOSS when a stored card does not parse (the log is corrupt).
absl::StatusOr<std::vector<cards::Card>> CardsFromStrings(
    const google::protobuf::RepeatedPtrField<std::string>& cards);

struct TableEventContext {
  std::string producer = "table";
  std::string correlation_id;
  int64_t occurred_at_micros = 0;
};

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

struct DecodedTableEvent {
  v1::EventEnvelope envelope;
  v1::TableEvent event;
};
// DATA_LOSS when the record is not a table event.
absl::StatusOr<DecodedTableEvent> DecodeTableRecord(
    const eventlog::StoredRecord& record);

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_TABLE_CODEC_H_
