// The return-to-player gate of CI: every banked game of `banca bench rtp`
// (libs/games/rtp_games.h) plays at least 1,000,000 rounds on its real
// engine, and its theoretical RTP (docs/rtp.md) must lie inside the measured
// 99% confidence interval. Seeded, so a run is reproducible: with a correct
// engine a given seed fails with probability 1% per game, once and for all,
// and the seeds below were not chosen to pass (they are the test's date).
#include <cstdint>
#include <cstdio>
#include <string>

#include "gtest/gtest.h"
#include "libs/cards/seeded_random.h"
#include "libs/games/rtp_games.h"
#include "libs/games/rtp_tally.h"

namespace banca::cli {
namespace {

constexpr int64_t kRounds = 1'000'000;

TEST(ReturnToPlayer, TheoryInsideThe99PercentIntervalForEveryGame) {
  if (games::RtpGames().empty()) {
    GTEST_SKIP() << "no banked game is built yet";
  }
  uint64_t seed = 20261123;
  for (const games::RtpGame& game : games::RtpGames()) {
    cards::testing::SeededRandomSource rng =
        cards::testing::SeededRandomSource::FromSeed(seed++);
    games::RtpTally tally;
    ASSERT_TRUE(game.simulate(kRounds, rng, tally).ok()) << game.name;
    EXPECT_EQ(tally.rounds(), kRounds) << game.name;
    const games::RtpTally::Interval ci = tally.ConfidenceInterval();
    EXPECT_TRUE(ci.Contains(game.theoretical))
        << game.name << " (" << game.strategy << "): measured " << tally.Rtp()
        << " in [" << ci.low << ", " << ci.high << "], theoretical "
        << game.theoretical;
    std::printf("%s: rtp %.6f, 99%% ci [%.6f, %.6f], theoretical %.6f\n",
                std::string(game.name).c_str(), tally.Rtp(), ci.low, ci.high,
                game.theoretical);
  }
}

}  // namespace
}  // namespace banca::cli
