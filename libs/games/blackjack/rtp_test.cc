#include <cstdio>
#include <cstdlib>

#include "gtest/gtest.h"
#include "libs/cards/seeded_random.h"
#include "libs/games/blackjack/rtp_simulation.h"
#include "libs/games/blackjack/theoretical_rtp.h"

namespace banca::games::blackjack {
namespace {

TEST(BlackjackRtp, TheoryUnderTheDefaultsIsTheStandardGame) {
  absl::StatusOr<TheoreticalRtp> t = ComputeTheoreticalRtp(TableSettings{});
  ASSERT_TRUE(t.ok()) << t.status();
  // The standard game's house edge under basic strategy is a few tenths of
  // a percent; the prize adds a little.
  EXPECT_GT(t->base_rtp(), 0.990);
  EXPECT_LT(t->base_rtp(), 1.000);
  EXPECT_GT(t->exposure, 1.05);
  EXPECT_LT(t->exposure, 1.20);
  EXPECT_GT(t->special_full_shoe, 0);
  EXPECT_NEAR(t->special_full_shoe, t->special_infinite,
              0.2 * t->special_infinite);
  EXPECT_GT(t->rtp(), t->base_rtp());
  std::printf(
      "base_net %.6f staked %.6f base_rtp %.6f prize(shoe) %.6f "
      "prize(inf) %.6f rtp %.6f\n",
      t->base_edge, t->exposure, t->base_rtp(), t->special_full_shoe,
      t->special_infinite, t->rtp());
}

TEST(BlackjackRtp, WorseRulesLowerTheTheory) {
  const TheoreticalRtp base = *ComputeTheoreticalRtp(TableSettings{});
  TableSettings h17;
  h17.dealer_hits_soft_17 = true;
  EXPECT_LT(ComputeTheoreticalRtp(h17)->base_rtp(), base.base_rtp());
  TableSettings six_five;
  six_five.blackjack_pays_num = 6;
  six_five.blackjack_pays_den = 5;
  EXPECT_LT(ComputeTheoreticalRtp(six_five)->base_rtp(), base.base_rtp());
  TableSettings surrender;
  surrender.surrender = Surrender::kLate;
  EXPECT_GT(ComputeTheoreticalRtp(surrender)->base_rtp(), base.base_rtp());
}

TEST(BlackjackRtp, SimulationAgreesWithTheory) {
  auto rng = cards::testing::SeededRandomSource::FromSeed(21);
  RtpSimulationOptions options;
  options.rounds = 400'000;
  absl::StatusOr<RtpSimulation> sim = SimulateRtp(options, rng);
  ASSERT_TRUE(sim.ok()) << sim.status();
  const double theory = DefaultGameTheoreticalRtp();
  const RtpTally::Interval ci = sim->tally.ConfidenceInterval();
  std::printf("simulated %.6f [%.6f, %.6f], theory %.6f, prizes %lld\n",
              sim->tally.Rtp(), ci.low, ci.high, theory,
              static_cast<long long>(sim->prizes));
  EXPECT_TRUE(ci.Contains(theory));
  // The finite shoe returns a little more than the infinite deck.
  EXPECT_GT(theory, ComputeTheoreticalRtp({})->rtp());
  EXPECT_GT(sim->prizes, 0);
  EXPECT_GT(sim->shuffles, 1);
}

TEST(BlackjackRtp, BadOptionsAreRejected) {
  auto rng = cards::testing::SeededRandomSource::FromSeed(1);
  RtpSimulationOptions o;
  o.rounds = 0;
  EXPECT_EQ(SimulateRtp(o, rng).status().code(),
            absl::StatusCode::kInvalidArgument);
  o = {};
  o.stake = 1;
  EXPECT_EQ(SimulateRtp(o, rng).status().code(),
            absl::StatusCode::kInvalidArgument);
  o = {};
  o.reshuffle_below_bps = 0;
  EXPECT_EQ(SimulateRtp(o, rng).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace banca::games::blackjack

namespace banca::games::blackjack {
namespace {

// A long run for docs/rtp.md: --gtest_also_run_disabled_tests, rounds from
// BANCA_RTP_ROUNDS (default 10 million), seed from BANCA_RTP_SEED.
TEST(BlackjackRtp, DISABLED_LongSimulation) {
  const char* rounds = std::getenv("BANCA_RTP_ROUNDS");
  const char* seed = std::getenv("BANCA_RTP_SEED");
  auto rng = cards::testing::SeededRandomSource::FromSeed(
      seed ? std::strtoull(seed, nullptr, 10) : 2015);
  RtpSimulationOptions options;
  options.rounds = rounds ? std::strtoll(rounds, nullptr, 10) : 10'000'000;
  absl::StatusOr<RtpSimulation> sim = SimulateRtp(options, rng);
  ASSERT_TRUE(sim.ok()) << sim.status();
  const RtpTally::Interval ci = sim->tally.ConfidenceInterval();
  // Ratios only (RatioOf): the special prizes' share of the RTP and how
  // often they come.
  const long double special_share =
      RatioOf(sim->prize_returned, sim->tally.staked());
  const long double specials_per_round = RatioOf(sim->prizes, options.rounds);
  std::printf(
      "rounds %lld rtp %.6f ci99 [%.6f, %.6f] theory %.6f "
      "prizes/round %.3Lg prize rtp share %.6Lf\n",
      static_cast<long long>(options.rounds), sim->tally.Rtp(), ci.low, ci.high,
      DefaultGameTheoreticalRtp(), specials_per_round, special_share);
}

}  // namespace
}  // namespace banca::games::blackjack
