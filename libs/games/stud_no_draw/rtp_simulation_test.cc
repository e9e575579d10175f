#include "libs/games/stud_no_draw/rtp_simulation.h"

#include "gtest/gtest.h"
#include "libs/cards/seeded_random.h"
#include "libs/cards/test_util.h"
#include "libs/games/rtp_tally.h"
#include "libs/games/stud_no_draw/strategy.h"

namespace banca::games::stud_no_draw {
namespace {

// docs/rtp.md: the exact RTP of the strategy (exact_rtp_test.cc pins it).
constexpr double kExactRtp = 8'250'579'091'332.0 / 8'477'099'132'040.0;

TEST(StudNoDrawRtp, StrategyContinuesWithAceKingOrBetter) {
  EXPECT_TRUE(ContinueWithAceKingOrBetter(cards::Cards("As Kd 4c 3h 2c")));
  EXPECT_TRUE(ContinueWithAceKingOrBetter(cards::Cards("2s 2d 4c 3h 7c")));
  EXPECT_FALSE(ContinueWithAceKingOrBetter(cards::Cards("As Qd Jc 9h 8c")));
}

TEST(StudNoDrawRtp, SimulatedRoundsAgreeWithTheExactRtp) {
  auto rng = cards::testing::SeededRandomSource::FromSeed(803);
  RtpTally tally;
  for (int i = 0; i < 200'000; ++i) {
    absl::StatusOr<RoundStakes> r = SimulateRound(rng, 100);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_TRUE(r->staked == 100 || r->staked == 300);
    tally.Add(r->staked, r->returned);
  }
  const RtpTally::Interval ci = tally.ConfidenceInterval();
  EXPECT_TRUE(ci.Contains(kExactRtp))
      << "measured " << tally.Rtp() << " [" << ci.low << ", " << ci.high
      << "], exact " << kExactRtp;
}

TEST(StudNoDrawRtp, SimulationRejectsBadAntes) {
  auto rng = cards::testing::SeededRandomSource::FromSeed(1);
  EXPECT_EQ(SimulateRound(rng, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SimulateRound(rng, 1'000'000'001).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace banca::games::stud_no_draw
