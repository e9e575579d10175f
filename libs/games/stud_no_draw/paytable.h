// SD-12: what a winning second bet (bet) pays, by the player's combination.
#ifndef BANCA_LIBS_GAMES_STUD_NO_DRAW_PAYTABLE_H_
#define BANCA_LIBS_GAMES_STUD_NO_DRAW_PAYTABLE_H_

#include <cstdint>

#include "libs/cards/evaluator.h"

namespace banca::games::stud_no_draw {

// Winnings per unit of the second bet, the stake not included (digest gap
// 4: the stake comes back as well): royal flush 100, straight flush 50,
// four of a kind 20, full house 7, flush 5, straight 4, three of a kind 3,
// two pairs 2, one pair and high cards 1 (gap 5: "the bet" in SD-12 i/j is
// the second bet).
int64_t BetMultiplier(cards::HandValue player);

// The largest multiplier (a royal flush): bounds every payout.
inline constexpr int64_t kMaxBetMultiplier = 100;

}  // namespace banca::games::stud_no_draw

#endif  // BANCA_LIBS_GAMES_STUD_NO_DRAW_PAYTABLE_H_
