#include "libs/games/blackjack/basic_strategy.h"

#include "gtest/gtest.h"
#include "libs/games/blackjack/test_util.h"

namespace banca::games::blackjack {
namespace {

using testing::C;
using testing::Shoe;

LegalActions All() {
  LegalActions l;
  l.can_hit = l.can_stand = l.can_double = l.can_split = l.can_surrender = true;
  return l;
}

LegalActions HitStand() {
  LegalActions l;
  l.can_hit = l.can_stand = true;
  return l;
}

ActionType Play(const std::string& hand, const std::string& up,
                const LegalActions& l = All(), TableSettings s = {}) {
  return BasicStrategy(Shoe(hand), C(up), s, l);
}

TEST(BasicStrategy, HardTotals) {
  EXPECT_EQ(Play("Td 6c", "Th", HitStand()), ActionType::kHit);
  EXPECT_EQ(Play("Td 6c", "6h"), ActionType::kStand);
  EXPECT_EQ(Play("Td 2c", "3h"), ActionType::kHit);
  EXPECT_EQ(Play("Td 2c", "4h"), ActionType::kStand);
  EXPECT_EQ(Play("Td 7c", "Ah"), ActionType::kStand);
  EXPECT_EQ(Play("6d 5c", "6h"), ActionType::kDouble);
  EXPECT_EQ(Play("6d 5c", "6h", HitStand()), ActionType::kHit);
  EXPECT_EQ(Play("6d 4c", "Th"), ActionType::kHit);
  EXPECT_EQ(Play("5d 4c", "3h"), ActionType::kDouble);
  EXPECT_EQ(Play("5d 4c", "2h"), ActionType::kHit);
}

TEST(BasicStrategy, ElevenAgainstAnAceDependsOnSoft17) {
  EXPECT_EQ(Play("6d 5c", "Ah"), ActionType::kHit);
  TableSettings h17;
  h17.dealer_hits_soft_17 = true;
  EXPECT_EQ(Play("6d 5c", "Ah", All(), h17), ActionType::kDouble);
}

TEST(BasicStrategy, SoftTotals) {
  EXPECT_EQ(Play("Ad 7c", "9h"), ActionType::kHit);
  EXPECT_EQ(Play("Ad 7c", "8h"), ActionType::kStand);
  EXPECT_EQ(Play("Ad 7c", "4h"), ActionType::kDouble);
  EXPECT_EQ(Play("Ad 7c", "4h", HitStand()), ActionType::kStand);
  EXPECT_EQ(Play("Ad 2c", "5h"), ActionType::kDouble);
  EXPECT_EQ(Play("Ad 2c", "4h"), ActionType::kHit);
  EXPECT_EQ(Play("Ad 8c", "6h"), ActionType::kStand);
}

TEST(BasicStrategy, Pairs) {
  EXPECT_EQ(Play("8d 8c", "Th"), ActionType::kSplit);
  EXPECT_EQ(Play("Ad Ac", "6h"), ActionType::kSplit);
  EXPECT_EQ(Play("Td Kc", "6h"), ActionType::kStand);
  EXPECT_EQ(Play("5d 5c", "6h"), ActionType::kDouble);
  EXPECT_EQ(Play("9d 9c", "7h"), ActionType::kStand);
  EXPECT_EQ(Play("9d 9c", "8h"), ActionType::kSplit);
  EXPECT_EQ(Play("2d 2c", "2h"), ActionType::kSplit);
  TableSettings no_das;
  no_das.double_after_split = false;
  EXPECT_EQ(Play("2d 2c", "2h", All(), no_das), ActionType::kHit);
  // A refused split plays the total: 8 8 = 16 against a ten hits.
  LegalActions no_split = HitStand();
  EXPECT_EQ(Play("8d 8c", "Th", no_split), ActionType::kHit);
}

TEST(BasicStrategy, SurrenderOnlyWhenOffered) {
  EXPECT_EQ(Play("Td 6c", "Th"), ActionType::kSurrender);
  EXPECT_EQ(Play("Td 5c", "Th"), ActionType::kSurrender);
  EXPECT_EQ(Play("Td 5c", "9h"), ActionType::kHit);
  EXPECT_EQ(Play("Td 6c", "Th", HitStand()), ActionType::kHit);
}

TEST(BasicStrategy, TwentyOneAndSplitAcesStand) {
  EXPECT_EQ(Play("7d 7c 7h", "Th"), ActionType::kStand);
  LegalActions split_ace;  // only stand (and perhaps a re-split)
  split_ace.can_stand = true;
  EXPECT_EQ(Play("Ad 5c", "Th", split_ace), ActionType::kStand);
}

}  // namespace
}  // namespace banca::games::blackjack
