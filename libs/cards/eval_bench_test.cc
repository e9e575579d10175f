#include "libs/cards/eval_bench.h"

#include "gtest/gtest.h"

namespace banca::cards {
namespace {

// Shape only: timings are benchmarks (`banca bench eval`), not test verdicts.
TEST(EvalBench, ReturnsOneJsonObjectWithTheAgreedKeys) {
  EvalBenchOptions options;
  options.repetitions = 1;
  options.random_hands = 1000;
  options.random_passes = 1;
  options.enumerate = false;
  const std::string json = RunEvalBench(options);
  EXPECT_EQ(json.front(), '{');
  EXPECT_EQ(json.back(), '}');
  for (const char* key :
       {"\"enumerate_per_sec\"", "\"random_per_sec\"",
        "\"omaha_random_per_sec\"", "\"table_bytes\"", "\"table_init_ms\""}) {
    EXPECT_NE(json.find(key), std::string::npos) << key;
  }
}

// Run on demand: --gtest_also_run_disabled_tests --gtest_filter=*FullRun*
TEST(EvalBench, DISABLED_FullRun) {
  const std::string json = RunEvalBench();
  std::printf("%s\n", json.c_str());
}

}  // namespace
}  // namespace banca::cards
