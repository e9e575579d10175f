// `banca bench eval`: single-thread throughput of the hand evaluators.
#ifndef BANCA_LIBS_CARDS_EVAL_BENCH_H_
#define BANCA_LIBS_CARDS_EVAL_BENCH_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "libs/cards/card.h"

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

// The workloads themselves, shared with the same-machine comparison against
// other evaluators (tools/eval_compare). Each returns the sum of the values
// it computed, which callers keep so that no evaluation can be optimized
// away (and which equal inputs make comparable between runs).

inline constexpr uint64_t kNumSevenCardSets = 133'784'560;

// Every seven-card set, each evaluated on its own. Partial hands are kept
// per loop level, as OMPEval's enumeration benchmark does.
uint64_t EnumerateAllSeven();
// `hands` deals of seven cards, laid out contiguously.
uint64_t SumSevenCardValues(const Card* deals, size_t hands);
// `hands` deals of nine cards: four hole cards, then five board cards.
uint64_t SumOmahaValues(const Card* deals, size_t hands);

// `hands` deals of `per_hand` distinct cards each, laid out contiguously,
// from the production CSPRNG (benchmark inputs need no reproducibility).
std::vector<Card> RandomDeals(int hands, int per_hand);

// Bytes of lookup tables the evaluator builds or links in.
uint64_t EvaluatorTableBytes();

// Thread CPU seconds: on a shared machine, time spent descheduled says
// nothing about an evaluator.
double ThreadCpuSeconds();

}  // namespace banca::cards

#endif  // BANCA_LIBS_CARDS_EVAL_BENCH_H_
