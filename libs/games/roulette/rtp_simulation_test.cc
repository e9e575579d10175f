#include "libs/games/roulette/rtp_simulation.h"

#include "gtest/gtest.h"
#include "libs/cards/seeded_random.h"

namespace banca::games::roulette {
namespace {

TEST(RouletteRtp, SimulationAgreesWithTheTheory_RFD_12) {
  struct Case {
    WheelKind wheel;
    BetRequest bet;
  };
  BetRequest red;
  red.kind = BetKind::kRed;
  red.amount = 100;
  for (const Case& c : {Case{WheelKind::kFrench, DefaultRtpBet()},
                        Case{WheelKind::kFrench, red},
                        Case{WheelKind::kAmericanDoubleZero, DefaultRtpBet()},
                        Case{WheelKind::kAmericanSingleZero, red}}) {
    auto rng = cards::testing::SeededRandomSource::FromSeed(36);
    absl::StatusOr<RtpTally> tally = SimulateRtp(c.wheel, c.bet, 200'000, rng);
    ASSERT_TRUE(tally.ok()) << tally.status();
    EXPECT_EQ(tally->rounds(), 200'000);
    EXPECT_EQ(tally->staked(), 200'000 * 100);
    EXPECT_TRUE(tally->ConfidenceInterval().Contains(TheoreticalRtp(c.wheel)))
        << tally->Rtp();
  }
  EXPECT_NEAR(TheoreticalRtp(WheelKind::kFrench), 0.97297, 1e-5);
  EXPECT_NEAR(TheoreticalRtp(WheelKind::kAmericanDoubleZero), 0.94737, 1e-5);
}

TEST(RouletteRtp, BadRequestsAreRejected) {
  auto rng = cards::testing::SeededRandomSource::FromSeed(1);
  EXPECT_EQ(SimulateRtp(WheelKind::kFrench, DefaultRtpBet(), 0, rng)
                .status()
                .message(),
            "rounds must be 1..1000000000, got 0");
  BetRequest bad = DefaultRtpBet();
  bad.numbers = {-1};  // 00
  EXPECT_EQ(SimulateRtp(WheelKind::kFrench, bad, 10, rng).status().message(),
            "00 is only on a double-zero wheel");
}

}  // namespace
}  // namespace banca::games::roulette
