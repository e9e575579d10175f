#include "libs/games/rtp_tally.h"

#include <cmath>
#include <cstdint>

#include "gtest/gtest.h"

namespace banca::games {
namespace {

TEST(RtpTally, EmptyTallyIsZeroWithAPointInterval) {
  RtpTally t;
  EXPECT_EQ(t.rounds(), 0);
  EXPECT_EQ(t.Rtp(), 0);
  EXPECT_EQ(t.ConfidenceInterval().low, 0);
  EXPECT_EQ(t.ConfidenceInterval().high, 0);
}

TEST(RtpTally, ExactRatioOfSums) {
  RtpTally t;
  // One straight-up win in 37 spins of 1 unit: returned 36 of 37 staked.
  for (int i = 0; i < 37; ++i) t.Add(1, i == 17 ? 36 : 0);
  EXPECT_EQ(t.staked(), 37);
  EXPECT_EQ(t.returned(), 36);
  EXPECT_DOUBLE_EQ(t.Rtp(), 36.0 / 37.0);
  RtpTally::Interval ci = t.ConfidenceInterval();
  EXPECT_TRUE(ci.Contains(36.0 / 37.0));
  EXPECT_LT(ci.low, ci.high);
}

TEST(RtpTally, StandardErrorMatchesTheBinomialCase) {
  // Even-money bets of 1 unit: half won (returned 2), half lost. RTP 1,
  // per-round deviation d = +-1, so se = sqrt(n / (n - 1)) / sqrt(n).
  RtpTally t;
  const int n = 10000;
  for (int i = 0; i < n; ++i) t.Add(1, i % 2 ? 2 : 0);
  const double se = std::sqrt(double{n} / (n - 1)) / std::sqrt(double{n});
  RtpTally::Interval ci = t.ConfidenceInterval(1.0);
  EXPECT_NEAR(ci.low, 1 - se, 1e-12);
  EXPECT_NEAR(ci.high, 1 + se, 1e-12);
  EXPECT_NEAR(t.ConfidenceInterval().high - 1, kZ99 * se, 1e-12);
}

TEST(RtpTally, ConstantReturnGivesAZeroWidthInterval) {
  RtpTally t;
  for (int i = 1; i <= 100; ++i) t.Add(i, i);  // every round a push
  EXPECT_DOUBLE_EQ(t.Rtp(), 1.0);
  EXPECT_NEAR(t.ConfidenceInterval().low, 1.0, 1e-9);
  EXPECT_NEAR(t.ConfidenceInterval().high, 1.0, 1e-9);
}

TEST(RtpTally, MergeEqualsAddingEverything) {
  RtpTally a, b, all;
  for (int i = 0; i < 500; ++i) {
    const int64_t staked = 100 + i % 3 * 100;
    const int64_t returned = i % 5 == 0 ? 3 * staked : (i % 2 ? staked : 0);
    (i < 200 ? a : b).Add(staked, returned);
    all.Add(staked, returned);
  }
  a.Merge(b);
  EXPECT_EQ(a.rounds(), all.rounds());
  EXPECT_EQ(a.staked(), all.staked());
  EXPECT_EQ(a.returned(), all.returned());
  EXPECT_EQ(a.ConfidenceInterval().low, all.ConfidenceInterval().low);
}

TEST(RtpTally, LargeSumsDoNotOverflow) {
  RtpTally t;
  // 2^40 cents staked per round, squares beyond int64.
  const int64_t big = int64_t{1} << 40;
  t.Add(big, 2 * big);
  t.Add(big, 0);
  EXPECT_DOUBLE_EQ(t.Rtp(), 1.0);
  EXPECT_GT(t.ConfidenceInterval().high, 1.0);
}

}  // namespace
}  // namespace banca::games
