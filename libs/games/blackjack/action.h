// A player's decision in a blackjack round.
#ifndef BANCA_LIBS_GAMES_BLACKJACK_ACTION_H_
#define BANCA_LIBS_GAMES_BLACKJACK_ACTION_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace banca::games::blackjack {

enum class ActionType : uint8_t {
  kHit,
  kStand,
  kDouble,     // amount 0 or the hand's stake: the stake again, one card
  kSplit,      // amount 0 or the hand's stake: a second hand, same stake
  kInsurance,  // amount: 0 declines, else up to half the main bet
  kSurrender,  // late surrender, where the table offers it
};

struct Action {
  ActionType type = ActionType::kStand;
  int64_t amount = 0;
  bool operator==(const Action&) const = default;
};

// "hit", "stand", ... as in scenario files.
std::string_view ActionTypeName(ActionType type);
std::optional<ActionType> ParseActionType(std::string_view name);

}  // namespace banca::games::blackjack

#endif  // BANCA_LIBS_GAMES_BLACKJACK_ACTION_H_
