// `banca bench eval`: single-thread throughput of the hand evaluators.
#ifndef BANCA_LIBS_CARDS_EVAL_BENCH_H_
#define BANCA_LIBS_CARDS_EVAL_BENCH_H_

#include <string>

namespace banca::cards {

struct EvalBenchOptions {
  // Timed repetitions of each measurement; the best is reported, as the
  // others are slowed by whatever else shares the machine.
  int repetitions = 3;
  // Pre-generated random hands per measurement (7-card and Omaha each).
  int random_hands = 1 << 20;
  // Passes over the random hands per repetition.
  int random_passes = 8;
  // Enumerate all 133,784,560 seven-card sets (else skip: 0 reported).
  bool enumerate = true;
};

// One JSON object: {"enumerate_per_sec":…, "random_per_sec":…,
// "omaha_random_per_sec":…, "table_bytes":…, "table_init_ms":…}. Takes about
// two seconds with the defaults.
std::string RunEvalBench(const EvalBenchOptions& options = {});

}  // namespace banca::cards

#endif  // BANCA_LIBS_CARDS_EVAL_BENCH_H_
