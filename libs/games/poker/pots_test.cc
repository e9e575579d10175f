#include "libs/games/poker/pots.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace banca::games::poker {
namespace {

using ::testing::ElementsAre;

TEST(HoldemSidePots, UncalledExcessReturnedNotPotted_Gap7) {
  std::vector<Contribution> c = {{1, 500, false}, {2, 2000, false}};
  PotSplit s = SplitPots(c);
  EXPECT_EQ(s.returned, (SeatAmount{2, 1500}));
  ASSERT_EQ(s.pots.size(), 1);
  EXPECT_EQ(s.pots[0].amount, 1000);
}

TEST(HoldemSidePots, FoldedChipsStayInThePots_HE35) {
  std::vector<Contribution> c = {
      {1, 300, true}, {2, 200, false}, {3, 800, false}, {4, 800, false}};
  PotSplit s = SplitPots(c);
  EXPECT_EQ(s.returned.amount, 0);
  ASSERT_EQ(s.pots.size(), 2);
  EXPECT_EQ(s.pots[0].amount, 800);
  EXPECT_THAT(s.pots[0].eligible, ElementsAre(2, 3, 4));
  EXPECT_EQ(s.pots[1].amount, 100 + 600 + 600);
  EXPECT_THAT(s.pots[1].eligible, ElementsAre(3, 4));
}

TEST(HoldemSidePots, EqualAllInsMakeOnePot_HE42) {
  std::vector<Contribution> c = {
      {1, 500, false}, {2, 500, false}, {3, 900, false}, {4, 900, false}};
  PotSplit s = SplitPots(c);
  ASSERT_EQ(s.pots.size(), 2);
  EXPECT_EQ(s.pots[0].amount, 2000);
  EXPECT_EQ(s.pots[1].amount, 800);
}

TEST(HoldemRake, CapSpreadMainPotFirst_HE19) {
  std::vector<Pot> pots(3);
  pots[0].amount = 10000;
  pots[1].amount = 5000;
  pots[2].amount = 999;
  EXPECT_THAT(RakePots(pots, 500, 0), ElementsAre(500, 250, 49));
  EXPECT_THAT(RakePots(pots, 500, 600), ElementsAre(500, 100, 0));
}

// A hand only ever adds chips to a contribution, so a negative one is a
// broken engine: splitting it stops rather than paying out chips that were
// never put in.
TEST(HoldemSidePotsDeathTest, ANegativeContributionStops) {
  std::vector<Contribution> c = {{1, -500, false}, {2, 1000, false}};
  EXPECT_DEATH(SplitPots(c), "BANCA_CHECK failed: amount\\[i\\] >= 0");
}

// A pot is never negative either; its rake would be a payment to the
// house from nowhere.
TEST(HoldemRakeDeathTest, ANegativePotStops) {
  std::vector<Pot> pots(1);
  pots[0].amount = -1000;
  EXPECT_DEATH(RakePots(pots, 500, 0), "BANCA_CHECK failed: r.ok\\(\\)");
}

}  // namespace
}  // namespace banca::games::poker
