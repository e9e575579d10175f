// A player's decision in a betting round.
#ifndef BANCA_LIBS_GAMES_POKER_ACTION_H_
#define BANCA_LIBS_GAMES_POKER_ACTION_H_

#include <cstdint>
#include <string_view>

namespace banca::games::poker {

enum class ActionType : uint8_t {
  kFold,
  kCheck,
  kCall,
  kBet,         // amount = the player's total bet in this round ("bet to").
  kRaise,       // amount = the player's total bet in this round ("raise to").
  kAllIn,       // the whole stack: a call, bet or raise as the amount makes it.
  kStraddle,    // synthetic poker, before the cards: 2 x the big blind.
  kRestraddle,  // synthetic poker, before the cards: 2 x the straddle.
};

struct Action {
  ActionType type = ActionType::kFold;
  int64_t amount = 0;  // kBet and kRaise only.
  bool operator==(const Action&) const = default;
};

// "fold", "check", ... as in scenario files.
std::string_view ActionTypeName(ActionType type);

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_ACTION_H_
