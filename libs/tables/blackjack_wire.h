// Blackjack between the banked-table API (banked_table.proto) and the
// engine (libs/games/blackjack): settings, decisions and views.
#ifndef BANCA_LIBS_TABLES_BLACKJACK_WIRE_H_
#define BANCA_LIBS_TABLES_BLACKJACK_WIRE_H_

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"
#include "libs/games/blackjack/action.h"
#include "libs/games/blackjack/round.h"
#include "libs/games/blackjack/settings.h"

namespace banca::tables {

// Defaults when a field is 0.
inline constexpr int kDefaultDecisionSeconds = 30;
inline constexpr int kDefaultBlackjackBettingSeconds = 15;
inline constexpr int kMaxTimerSeconds = 600;

// The settings with every default filled in and checked by the engine.
// INVALID_ARGUMENT naming the field.
absl::StatusOr<v1::BlackjackTableConfig> NormalizeBlackjackConfig(
    const v1::BlackjackTableConfig& config);
// `config` must be normalized.
games::blackjack::TableSettings BlackjackSettings(
    const v1::BlackjackTableConfig& config);

// INVALID_ARGUMENT for UNSPECIFIED or an unknown action.
absl::StatusOr<games::blackjack::ActionType> BlackjackActionFromProto(
    v1::BlackjackActionType type);
v1::BlackjackActionType BlackjackActionToProto(
    games::blackjack::ActionType type);
v1::BlackjackHandView HandToProto(const games::blackjack::PlayerHand& hand);
v1::BlackjackLegalView LegalToProto(
    const games::blackjack::LegalActions& legal);

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_BLACKJACK_WIRE_H_
