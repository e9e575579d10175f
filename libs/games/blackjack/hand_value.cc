#include "libs/games/blackjack/hand_value.h"

#include <algorithm>
#include <array>

namespace banca::games::blackjack {

using cards::Card;
using cards::Rank;

int CardValue(Card card) {
  const Rank r = card.rank();
  if (r == Rank::kAce) return 1;
  if (r >= Rank::kTen) return 10;
  return static_cast<int>(r) + 2;  // kTwo is 0
}

Total HandTotal(absl::Span<const Card> cards) {
  int hard = 0;
  bool ace = false;
  for (Card c : cards) {
    hard += CardValue(c);
    ace = ace || c.rank() == Rank::kAce;
  }
  // Two aces at 11 would be 22, so at most one ace is ever soft.
  if (ace && hard + 10 <= 21) return Total{hard + 10, true};
  return Total{hard, false};
}

bool IsTwoCardTwentyOne(absl::Span<const Card> cards) {
  return cards.size() == 2 && HandTotal(cards).value == 21;
}

bool IsSpecialPrizeHand(absl::Span<const Card> cards) {
  if (cards.size() != 3) return false;
  std::array<int, 3> ranks{};
  for (size_t i = 0; i < 3; ++i) ranks[i] = static_cast<int>(cards[i].rank());
  std::sort(ranks.begin(), ranks.end());
  const int six = static_cast<int>(Rank::kSix);
  const int seven = static_cast<int>(Rank::kSeven);
  if (ranks[0] == seven && ranks[1] == seven && ranks[2] == seven) return true;
  const bool run = ranks[0] == six && ranks[1] == seven && ranks[2] == six + 2;
  const bool suited =
      cards[0].suit() == cards[1].suit() && cards[1].suit() == cards[2].suit();
  return run && suited;
}

}  // namespace banca::games::blackjack
