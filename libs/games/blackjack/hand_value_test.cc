#include "libs/games/blackjack/hand_value.h"

#include "gtest/gtest.h"
#include "libs/games/blackjack/test_util.h"

namespace banca::games::blackjack {
namespace {

using testing::Shoe;

TEST(BlackjackHandValue, AceIsOneOrElevenTensAreTen_BJ_gap1) {
  EXPECT_EQ(HandTotal(Shoe("As Kd")), (Total{21, true}));
  EXPECT_EQ(HandTotal(Shoe("As 6d")), (Total{17, true}));
  EXPECT_EQ(HandTotal(Shoe("As 6d Kc")), (Total{17, false}));
  EXPECT_EQ(HandTotal(Shoe("As Ad")), (Total{12, true}));
  EXPECT_EQ(HandTotal(Shoe("As Ad Ac Ah 7d")), (Total{21, true}));
  EXPECT_EQ(HandTotal(Shoe("Td Jc Qh")), (Total{30, false}));
  EXPECT_EQ(HandTotal(Shoe("2c 3d")), (Total{5, false}));
  EXPECT_TRUE(IsBust(Shoe("Td 5c 7h")));
  EXPECT_FALSE(IsBust(Shoe("Td As Kh")));
  EXPECT_TRUE(IsTwoCardTwentyOne(Shoe("Ks Ah")));
  EXPECT_FALSE(IsTwoCardTwentyOne(Shoe("7s 7h 7d")));
}

TEST(BlackjackHandValue, SpecialPrizeCombinations_BJ_25i) {
  EXPECT_TRUE(IsSpecialPrizeHand(Shoe("6h 7h 8h")));
  EXPECT_TRUE(IsSpecialPrizeHand(Shoe("8s 6s 7s")));   // any order
  EXPECT_TRUE(IsSpecialPrizeHand(Shoe("7s 7h 7d")));   // any suits
  EXPECT_TRUE(IsSpecialPrizeHand(Shoe("7h 7h 7h")));   // a multi-deck shoe
  EXPECT_FALSE(IsSpecialPrizeHand(Shoe("6h 7h 8d")));  // not one suit
  EXPECT_FALSE(IsSpecialPrizeHand(Shoe("6h 7h")));
  EXPECT_FALSE(IsSpecialPrizeHand(Shoe("5h 6h 7h 3h")));
  EXPECT_FALSE(IsSpecialPrizeHand(Shoe("7h 7d 7c 7s")));
  EXPECT_FALSE(IsSpecialPrizeHand(Shoe("Ah 2h 8h")));
}

}  // namespace
}  // namespace banca::games::blackjack
