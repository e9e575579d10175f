// Card values and hand totals. Standard game (digest gap 1): 2–9 at face
// value, tens and faces 10, an ace 1 or 11, whichever is better without
// going over 21.
#ifndef BANCA_LIBS_GAMES_BLACKJACK_HAND_VALUE_H_
#define BANCA_LIBS_GAMES_BLACKJACK_HAND_VALUE_H_

#include "absl/types/span.h"
#include "libs/cards/card.h"

namespace banca::games::blackjack {

// 2..10; an ace counts 1 here (HandTotal decides 11).
int CardValue(cards::Card card);

struct Total {
  int value = 0;      // best total: one ace counted 11 when that stays <= 21
  bool soft = false;  // an ace is counted 11 in `value`
  bool operator==(const Total&) const = default;
};

Total HandTotal(absl::Span<const cards::Card> cards);

inline bool IsBust(absl::Span<const cards::Card> cards) {
  return HandTotal(cards).value > 21;
}

// Two cards totalling 21. Whether it counts as a blackjack also depends on
// the hand not coming from a split, which the caller knows.
bool IsTwoCardTwentyOne(absl::Span<const cards::Card> cards);

// BJ-25i: exactly three cards, 6-7-8 of one suit (any order) or three 7s
// (any suits). Both total 21, so a fourth card would bust: only a
// three-card hand can hold the combination (digest gap 3).
bool IsSpecialPrizeHand(absl::Span<const cards::Card> cards);

}  // namespace banca::games::blackjack

#endif  // BANCA_LIBS_GAMES_BLACKJACK_HAND_VALUE_H_
