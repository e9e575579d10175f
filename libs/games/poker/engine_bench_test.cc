#include "libs/games/poker/engine_bench.h"

#include "gtest/gtest.h"

namespace banca::games::poker {
namespace {

TEST(EngineBench, PlaysCompleteHands) {
  EngineBenchOptions o;
  o.hands = 100'000;
  const EngineBenchResult r = RunEngineBench(o);
  EXPECT_EQ(r.hands, 100'000);
  EXPECT_GT(r.hands_per_sec, 0);
  EXPECT_GT(r.showdowns, 0);
  // Not a performance gate (shared machines); the figure is in the log.
  std::printf("poker engine: %.0f hands/s, %.1f actions/hand\n",
              r.hands_per_sec, static_cast<double>(r.actions) / r.hands);
}

}  // namespace
}  // namespace banca::games::poker
