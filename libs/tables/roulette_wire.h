// Roulette between the banked-table API (banked_table.proto) and the engine
// (libs/games/roulette): table settings, bets and their chips.
#ifndef BANCA_LIBS_TABLES_ROULETTE_WIRE_H_
#define BANCA_LIBS_TABLES_ROULETTE_WIRE_H_

#include <string>

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"
#include "libs/games/roulette/bet.h"
#include "libs/games/roulette/table_config.h"

namespace banca::tables {

// The longest betting window a table may set.
inline constexpr int kMaxBettingSeconds = 600;

// The settings with every default filled in and checked by the engine
// (RFD-10, -11, -13, RF-4, RA-10). INVALID_ARGUMENT naming the field.
absl::StatusOr<v1::RouletteTableConfig> NormalizeRouletteConfig(
    v1::BankedGame game, const v1::RouletteTableConfig& config);
// `config` must be normalized.
games::roulette::TableConfig RouletteEngineConfig(
    v1::BankedGame game, const v1::RouletteTableConfig& config);

// INVALID_ARGUMENT naming the field for an unknown kind, a number off the
// wheel, an index or count out of range, or lists longer than any bet.
absl::StatusOr<games::roulette::BetRequest> RouletteBetFromProto(
    games::roulette::WheelKind wheel, const v1::RouletteBet& bet,
    int64_t amount);
v1::RouletteBet RouletteBetToProto(const games::roulette::BetRequest& request);
v1::RouletteChipView ChipToProto(const games::roulette::Chip& chip,
                                 int64_t returned);

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_ROULETTE_WIRE_H_
