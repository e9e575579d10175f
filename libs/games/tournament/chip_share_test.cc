#include "libs/games/tournament/chip_share.h"

#include <vector>

#include "gtest/gtest.h"
#include "libs/games/tournament/limits.h"

namespace banca::games::tournament {
namespace {

using Shares = std::vector<PlayerAmount>;

TEST(ChipShare, FlooredByChipsLeftoverToTheLargestStacks_TN36_Gap3) {
  // 22,757 over 70,000 / 50,000 / 30,000 chips (150,000): 10,619.93,
  // 7,585.67, 4,551.4 floored sum to 22,755; the two cents left go to the
  // two largest stacks.
  const std::vector<Stack> stacks = {
      {"ana", 70'000, 3}, {"bia", 50'000, 1}, {"cai", 30'000, 2}};
  EXPECT_EQ(ShareByChips(22'757, stacks),
            (Shares{{"ana", 10'620}, {"bia", 7'586}, {"cai", 4'551}}));
}

TEST(ChipShare, EqualStacksTakeLeftoverCentsByLowerSeat_TN36_Gap3) {
  const std::vector<Stack> stacks = {
      {"ana", 100, 7}, {"bia", 100, 3}, {"cai", 100, 5}};
  // 10 = 3 × 3 + 1: seat 3 first.
  EXPECT_EQ(ShareByChips(10, stacks),
            (Shares{{"ana", 3}, {"bia", 4}, {"cai", 3}}));
  // 11 = 3 × 3 + 2: seats 3 and 5.
  EXPECT_EQ(ShareByChips(11, stacks),
            (Shares{{"ana", 3}, {"bia", 4}, {"cai", 4}}));
}

TEST(ChipShare, NothingToShareOrOneStack_TN36) {
  EXPECT_EQ(ShareByChips(0, std::vector<Stack>{{"ana", 5, 1}, {"bia", 9, 2}}),
            (Shares{{"ana", 0}, {"bia", 0}}));
  EXPECT_EQ(ShareByChips(12'345, std::vector<Stack>{{"ana", 1, 1}}),
            (Shares{{"ana", 12'345}}));
}

TEST(ChipShare, LargestValuesWithoutOverflow_TN36) {
  // 10^15 × 10^12 / (10^12 + 1) = 999,999,999,999,000.000… and
  // 10^15 / (10^12 + 1) = 999.99…: one cent left, to the larger stack.
  const std::vector<Stack> stacks = {{"ana", 1, 1}, {"bia", kMaxChips, 2}};
  EXPECT_EQ(ShareByChips(kMaxAmountMinor, stacks),
            (Shares{{"ana", 999}, {"bia", 999'999'999'999'001}}));
}

TEST(ChipShareDeathTest, AnEmptyStackStops) {
  const std::vector<Stack> stacks = {{"ana", 0, 1}, {"bia", 5, 2}};
  EXPECT_DEATH(ShareByChips(10, stacks), "BANCA_CHECK failed");
}

TEST(ChipShareDeathTest, ANegativeAmountStops) {
  const std::vector<Stack> stacks = {{"ana", 1, 1}};
  EXPECT_DEATH(ShareByChips(-1, stacks), "BANCA_CHECK failed");
}

}  // namespace
}  // namespace banca::games::tournament
