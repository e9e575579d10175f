#include "libs/games/blackjack/basic_strategy.h"

#include "libs/games/blackjack/hand_value.h"

namespace banca::games::blackjack {
namespace {

using cards::Card;
using cards::Rank;

// The chart's cells before the table's restrictions apply.
enum class Move : uint8_t {
  kHit,
  kStand,
  kDoubleElseHit,
  kDoubleElseStand,
};

// 2..11, the ace as 11.
int UpValue(Card up) { return up.rank() == Rank::kAce ? 11 : CardValue(up); }

bool Between(int up, int lo, int hi) { return up >= lo && up <= hi; }

Move HardMove(int total, int up, bool h17) {
  if (total <= 8) return Move::kHit;
  if (total == 9) return Between(up, 3, 6) ? Move::kDoubleElseHit : Move::kHit;
  if (total == 10) {
    return Between(up, 2, 9) ? Move::kDoubleElseHit : Move::kHit;
  }
  if (total == 11) {
    return (up <= 10 || h17) ? Move::kDoubleElseHit : Move::kHit;
  }
  if (total == 12) return Between(up, 4, 6) ? Move::kStand : Move::kHit;
  if (total <= 16) return up <= 6 ? Move::kStand : Move::kHit;
  return Move::kStand;
}

Move SoftMove(int total, int up, bool h17) {
  switch (total) {
    case 13:
    case 14:
      return Between(up, 5, 6) ? Move::kDoubleElseHit : Move::kHit;
    case 15:
    case 16:
      return Between(up, 4, 6) ? Move::kDoubleElseHit : Move::kHit;
    case 17:
      return Between(up, 3, 6) ? Move::kDoubleElseHit : Move::kHit;
    case 18:
      if (Between(up, 3, 6) || (h17 && up == 2)) return Move::kDoubleElseStand;
      return up <= 8 ? Move::kStand : Move::kHit;
    case 19:
      return (h17 && up == 6) ? Move::kDoubleElseStand : Move::kStand;
    default:
      return total <= 12 ? Move::kHit : Move::kStand;
  }
}

// The pair rows; false = play the pair as its total.
bool SplitPair(int card, int up, bool das) {
  switch (card) {
    case 11:
    case 8:
      return true;
    case 10:
    case 5:
      return false;
    case 9:
      return up != 7 && up != 10 && up != 11;
    case 7:
      return up <= 7;
    case 6:
      return das ? up <= 6 : Between(up, 3, 6);
    case 4:
      return das && Between(up, 5, 6);
    case 2:
    case 3:
      return das ? up <= 7 : Between(up, 4, 7);
  }
  return false;
}

bool Surrenders(int total, bool pair_of_eights, int up, bool h17) {
  if (pair_of_eights) return h17 && up == 11;
  if (total == 16) return up >= 9;
  if (total == 15) return up == 10 || (h17 && up == 11);
  if (total == 17) return h17 && up == 11;
  return false;
}

}  // namespace

ActionType BasicStrategyByTotal(Total total, int pair_value, int up_value,
                                const TableSettings& settings,
                                const LegalActions& legal) {
  const int u = up_value;
  const bool h17 = settings.dealer_hits_soft_17;
  if (total.value >= 21) return ActionType::kStand;
  // Surrender is a hard-total play: no soft hand is given up.
  if (legal.can_surrender && !total.soft &&
      Surrenders(total.value, pair_value == 8, u, h17)) {
    return ActionType::kSurrender;
  }
  if (pair_value != 0 && legal.can_split &&
      SplitPair(pair_value, u, settings.double_after_split)) {
    return ActionType::kSplit;
  }
  // Split aces that may not be re-split take no decision but stand.
  if (!legal.can_hit) return ActionType::kStand;
  const Move move = total.soft ? SoftMove(total.value, u, h17)
                               : HardMove(total.value, u, h17);
  switch (move) {
    case Move::kHit:
      return ActionType::kHit;
    case Move::kStand:
      return ActionType::kStand;
    case Move::kDoubleElseHit:
      return legal.can_double ? ActionType::kDouble : ActionType::kHit;
    case Move::kDoubleElseStand:
      return legal.can_double ? ActionType::kDouble : ActionType::kStand;
  }
  return ActionType::kStand;
}

ActionType BasicStrategy(absl::Span<const Card> hand, Card up,
                         const TableSettings& settings,
                         const LegalActions& legal) {
  int pair_value = 0;
  if (hand.size() == 2 && CardValue(hand[0]) == CardValue(hand[1])) {
    pair_value = hand[0].rank() == Rank::kAce ? 11 : CardValue(hand[0]);
  }
  return BasicStrategyByTotal(HandTotal(hand), pair_value, UpValue(up),
                              settings, legal);
}

}  // namespace banca::games::blackjack
