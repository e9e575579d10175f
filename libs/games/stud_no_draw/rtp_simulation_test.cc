#include "libs/games/stud_no_draw/rtp_simulation.h"

#include "gtest/gtest.h"
#include "libs/cards/seeded_random.h"
#include "libs/cards/test_util.h"
#include "libs/games/rtp_tally.h"
#include "libs/games/stud_no_draw/exact_rtp.h"
#include "libs/games/stud_no_draw/strategy.h"

namespace banca::games::stud_no_draw {
namespace {

constexpr double kExactRtp = kTheoreticalRtp;

TEST(StudNoDrawRtp, StrategyContinuesWithAceKingOrBetter) {
  EXPECT_TRUE(ContinueWithAceKingOrBetter(cards::Cards("As Kd 4c 3h 2c")));
  EXPECT_TRUE(ContinueWithAceKingOrBetter(cards::Cards("2s 2d 4c 3h 7c")));
  EXPECT_FALSE(ContinueWithAceKingOrBetter(cards::Cards("As Qd Jc 9h 8c")));
}

TEST(StudNoDrawRtp, SimulatedRoundsAgreeWithTheExactRtp) {
  auto rng = cards::testing::SeededRandomSource::FromSeed(803);
  RtpTally tally;
  for (int i = 0; i < 1000; ++i) {
    absl::StatusOr<RoundStakes> r = SimulateRound(rng, 100);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_TRUE(r->staked == 100 || r->staked == 300);
  }
  ASSERT_TRUE(SimulateRounds(200'000, rng, tally).ok());
  EXPECT_EQ(tally.rounds(), 200'000);
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
  RtpTally tally;
  EXPECT_EQ(SimulateRounds(-1, rng, tally).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(tally.rounds(), 0);
}

}  // namespace
}  // namespace banca::games::stud_no_draw
