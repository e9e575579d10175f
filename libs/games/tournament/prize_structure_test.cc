#include "libs/games/tournament/prize_structure.h"

#include <vector>

#include "gtest/gtest.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/test_util.h"

namespace banca::games::tournament {
namespace {

using Prizes = std::vector<int64_t>;

Prizes Amounts(int64_t pool, const std::vector<int32_t>& payouts_bps) {
  absl::StatusOr<Prizes> p = PrizeAmounts(pool, payouts_bps);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : Prizes{};
}

TEST(PrizeStructure, EachPlaceGetsItsShareOfThePool_TN9_TN34) {
  // 30,000 × 50 % / 30 % / 20 %.
  EXPECT_EQ(Amounts(30'000, {5000, 3000, 2000}),
            (Prizes{15'000, 9'000, 6'000}));
}

TEST(PrizeStructure, LeftoverCentsGoToTopPlaces_TN54) {
  // 30,500 × 4000 / 10000 = 12,200; × 2650 = 8,082.5 → 8,082; × 1950 =
  // 5,947.5 → 5,947; × 1400 = 4,270. Floors sum to 30,499: one cent left,
  // to place 1.
  EXPECT_EQ(Amounts(30'500, {4000, 2650, 1950, 1400}),
            (Prizes{12'201, 8'082, 5'947, 4'270}));
  // 11 × 34 % = 3.74, 11 × 33 % = 3.63 twice: floors 3 + 3 + 3 = 9, two
  // cents left, to places 1 and 2.
  EXPECT_EQ(Amounts(11, {3400, 3300, 3300}), (Prizes{4, 4, 3}));
  // 10: floors 3 + 3 + 3, one cent, to place 1.
  EXPECT_EQ(Amounts(10, {3400, 3300, 3300}), (Prizes{4, 3, 3}));
}

TEST(PrizeStructure, OnePlaceTakesThePool_TN9) {
  EXPECT_EQ(Amounts(901, {10'000}), (Prizes{901}));
  EXPECT_TRUE(CheckPayoutsForPlayers({10'000}, 1).ok());
}

TEST(PrizeStructure, EmptyPoolPaysNothing_TN9) {
  EXPECT_EQ(Amounts(0, {5000, 3000, 2000}), (Prizes{0, 0, 0}));
}

TEST(PrizeStructure, LargestPoolWithoutOverflow_TN9) {
  EXPECT_EQ(
      Amounts(kMaxAmountMinor, {5000, 3000, 2000}),
      (Prizes{500'000'000'000'000, 300'000'000'000'000, 200'000'000'000'000}));
  // 999,999,999,999,999 × 3334 / 10000 = 333,399,999,999,999.67 and
  // × 3333 / 10000 = 333,299,999,999,999.67 twice: two cents left.
  EXPECT_EQ(
      Amounts(kMaxAmountMinor - 1, {3334, 3333, 3333}),
      (Prizes{333'400'000'000'000, 333'300'000'000'000, 333'299'999'999'999}));
}

TEST(PrizeStructure, PrizesSumToThePoolAndNeverRise_TN9) {
  const std::vector<std::vector<int32_t>> structures = {
      {10'000},
      {6500, 3500},
      {5000, 3000, 2000},
      {3334, 3333, 3333},
      {4000, 2650, 1950, 1400},
      std::vector<int32_t>(10'000, 1)};
  for (const auto& payouts : structures) {
    for (int64_t pool : {0, 1, 7, 99, 10'001, 123'456'789}) {
      const Prizes prizes = Amounts(pool, payouts);
      ASSERT_EQ(prizes.size(), payouts.size());
      int64_t sum = 0;
      for (size_t i = 0; i < prizes.size(); ++i) {
        if (i > 0) {
          EXPECT_LE(prizes[i], prizes[i - 1]);
        }
        sum += prizes[i];
      }
      EXPECT_EQ(sum, pool);
    }
  }
}

TEST(PrizeStructure, SharesSumToExactly10000_TN9) {
  EXPECT_TRUE(IsInvalid(CheckPayouts({5000, 3000, 1999}), "payouts_bps"));
  EXPECT_TRUE(IsInvalid(CheckPayouts({5000, 3000, 2001}), "payouts_bps"));
  EXPECT_TRUE(IsInvalid(CheckPayouts({9999}), "payouts_bps"));
  EXPECT_TRUE(
      IsInvalid(PrizeAmounts(100, {5000, 4999}).status(), "payouts_bps"));
}

TEST(PrizeStructure, EveryPaidPlaceHasAPositiveShare_TN34) {
  EXPECT_TRUE(IsInvalid(CheckPayouts({10'000, 0}), "payouts_bps"));
  EXPECT_TRUE(IsInvalid(CheckPayouts({10'001, -1}), "payouts_bps"));
  EXPECT_TRUE(IsInvalid(CheckPayouts({}), "payouts_bps"));
}

TEST(PrizeStructure, ABetterPlaceNeverPaysLess_TN50) {
  EXPECT_TRUE(IsInvalid(CheckPayouts({3000, 5000, 2000}), "place 2"));
  EXPECT_TRUE(IsInvalid(CheckPayouts({5000, 2000, 3000}), "place 3"));
  EXPECT_TRUE(CheckPayouts({5000, 5000}).ok());
}

TEST(PrizeStructure, NoMorePaidPlacesThanPlayers_TN34) {
  EXPECT_TRUE(CheckPayoutsForPlayers({5000, 3000, 2000}, 3).ok());
  EXPECT_TRUE(
      IsInvalid(CheckPayoutsForPlayers({5000, 3000, 2000}, 2), "payouts_bps"));
  EXPECT_TRUE(IsInvalid(CheckPayoutsForPlayers({10'000}, 0), "payouts_bps"));
}

TEST(PrizeStructure, AtMostMaxPlaces) {
  EXPECT_TRUE(CheckPayouts(std::vector<int32_t>(kMaxPlaces, 1)).ok());
  EXPECT_TRUE(IsInvalid(CheckPayouts(std::vector<int32_t>(kMaxPlaces + 1, 1)),
                        "payouts_bps"));
}

TEST(PrizeStructure, PoolOutOfRangeIsRejected) {
  EXPECT_TRUE(IsInvalid(PrizeAmounts(-1, {10'000}).status(), "pool"));
  EXPECT_TRUE(
      IsInvalid(PrizeAmounts(kMaxAmountMinor + 1, {10'000}).status(), "pool"));
}

}  // namespace
}  // namespace banca::games::tournament
