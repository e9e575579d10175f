// A poker table's settings as the API gives them, checked and completed,
// and the engine's view of them and of its actions.
#ifndef BANCA_LIBS_TABLES_POKER_CONFIG_H_
#define BANCA_LIBS_TABLES_POKER_CONFIG_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "banca/v1/table.pb.h"
#include "libs/games/poker/action.h"
#include "libs/games/poker/hand.h"
#include "libs/games/poker/table_config.h"

namespace banca::tables {

// Defaults when a field is 0.
inline constexpr int kDefaultSeats = 6;
inline constexpr int kDefaultActionSeconds = 30;
inline constexpr int kMaxActionSeconds = 600;
inline constexpr int kMaxHandIntervalMs = 60'000;
// HE-68: the longest rest limit an operator may set (a day).
inline constexpr int kMaxSitOutSeconds = 86'400;

// The settings with every default filled in, checked by the engine's rules
// (HE-5, HE-8, HE-17, HE-22 ...). INVALID_ARGUMENT naming the bad field.
absl::StatusOr<v1::PokerTableConfig> NormalizeConfig(
    const v1::PokerTableConfig& config);
// `config` must be normalized.
games::poker::TableConfig EngineConfig(const v1::PokerTableConfig& config);

absl::StatusOr<games::poker::Action> ActionFromProto(v1::PokerActionType type,
                                                     int64_t amount);
v1::PokerActionType ActionToProto(games::poker::ActionType type);
// What the player to act may do, as the views show it.
void FillLegalActions(const games::poker::LegalActions& legal,
                      v1::LegalActionsView* out);

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_POKER_CONFIG_H_
