#include "libs/games/stud_no_draw/paytable.h"

namespace banca::games::stud_no_draw {

int64_t BetMultiplier(cards::HandValue player) {
  using cards::Category;
  if (player.IsRoyalFlush()) return kMaxBetMultiplier;  // SD-12a
  switch (player.category()) {
    case Category::kStraightFlush:
      return 50;  // SD-12b
    case Category::kFourOfAKind:
      return 20;  // SD-12c
    case Category::kFullHouse:
      return 7;  // SD-12d
    case Category::kFlush:
      return 5;  // SD-12e
    case Category::kStraight:
      return 4;  // SD-12f
    case Category::kThreeOfAKind:
      return 3;  // SD-12g
    case Category::kTwoPair:
      return 2;  // SD-12h
    case Category::kPair:
    case Category::kHighCard:
      return 1;  // SD-12i, SD-12j
  }
  return 1;  // Unreachable: every category is listed above.
}

}  // namespace banca::games::stud_no_draw
