#include "libs/games/roulette/rtp_simulation.h"

#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/seeded_random.h"
#include "libs/games/roulette/table.h"
#include "libs/games/roulette/wheel.h"

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

// The strategy of `banca bench rtp`: every chance and two call bets in
// turn; every bet returns 36/P of its stake on a P-pocket wheel, so the
// whole spread does too (docs/rtp.md).
TEST(RouletteRtp, BenchStrategyAgreesWithTheTheoryOnEveryWheel_RFD_12) {
  const std::vector<BetRequest> bets = BenchRtpStrategy();
  ASSERT_EQ(bets.size(), 18u);
  constexpr int64_t kRounds = 180'000;  // 10 000 of each bet
  int64_t per_cycle = 0;
  for (const BetRequest& bet : bets) per_cycle += bet.amount;
  EXPECT_EQ(per_cycle, 2400);
  for (WheelKind wheel : {WheelKind::kFrench, WheelKind::kAmericanDoubleZero,
                          WheelKind::kAmericanSingleZero}) {
    auto rng = cards::testing::SeededRandomSource::FromSeed(2015);
    absl::StatusOr<RtpTally> tally = SimulateRtp(wheel, bets, kRounds, rng);
    ASSERT_TRUE(tally.ok()) << tally.status();
    EXPECT_EQ(tally->staked(), kRounds / 18 * per_cycle);
    EXPECT_TRUE(tally->ConfidenceInterval().Contains(TheoreticalRtp(wheel)))
        << tally->Rtp();
  }
}

// The theory of docs/rtp.md, exactly: through the engine, each bet of the
// strategy summed over every pocket of the wheel returns 36 times its
// stake, so its RTP is 36/P on a P-pocket wheel.
TEST(RouletteRtp, EveryStrategyBetReturns36StakesOverTheWheel_RFD_12) {
  for (WheelKind wheel : {WheelKind::kFrench, WheelKind::kAmericanDoubleZero,
                          WheelKind::kAmericanSingleZero}) {
    TableConfig config;
    config.wheel = wheel;
    config.players = WheelMode::kIndividual;
    config.launch = LaunchMode::kPlayerTriggered;
    absl::StatusOr<Table> table = Table::Create(config, absl::UnixEpoch());
    ASSERT_TRUE(table.ok()) << table.status();
    for (const BetRequest& bet : BenchRtpStrategy()) {
      int64_t returned = 0;
      for (Pocket pocket : WheelOrder(wheel)) {
        ASSERT_TRUE(table->PlaceBet("sim", "b", bet, absl::UnixEpoch()).ok());
        absl::StatusOr<SpinResult> spin = table->Spin(
            SpinOutcome{pocket, kMinRevolutions, false}, absl::UnixEpoch());
        ASSERT_TRUE(spin.ok()) << spin.status();
        returned += std::get<RoundSettled>(*spin).total_returned;
      }
      EXPECT_EQ(returned, 36 * bet.amount)
          << BetKindName(bet.kind) << " on wheel " << static_cast<int>(wheel);
    }
  }
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
