#include "libs/cards/eval_bench.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <memory>
#include <vector>

#include "libs/cards/evaluator.h"
#include "libs/cards/random.h"
#include "libs/common/check.h"
#include "nlohmann/json.hpp"

namespace banca::cards {
namespace {

// Keeps results alive so the optimizer cannot drop the evaluations.
volatile uint64_t g_sink;

}  // namespace

double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

uint64_t EvaluatorTableBytes() {
  return sizeof(internal::Tables) + sizeof(internal::kRowAdjust) +
         sizeof(internal::kBoardRowOffset);
}

uint64_t EnumerateAllSeven() {
  const Evaluator& ev = Evaluator::Get();
  uint64_t sum = 0;
  const CardAccumulator h0;
  for (int a = 0; a < 52; ++a) {
    const CardAccumulator h1 = h0 + Card::FromIndex(a);
    for (int b = a + 1; b < 52; ++b) {
      const CardAccumulator h2 = h1 + Card::FromIndex(b);
      for (int c = b + 1; c < 52; ++c) {
        const CardAccumulator h3 = h2 + Card::FromIndex(c);
        for (int d = c + 1; d < 52; ++d) {
          const CardAccumulator h4 = h3 + Card::FromIndex(d);
          for (int e = d + 1; e < 52; ++e) {
            const CardAccumulator h5 = h4 + Card::FromIndex(e);
            for (int f = e + 1; f < 52; ++f) {
              const CardAccumulator h6 = h5 + Card::FromIndex(f);
              // Most six-card hands have no four of a suit: their last
              // cards skip the flush test (OMPEval's evaluate<false>).
              if (h6.FlushPossibleWithOneMore()) {
                for (int g = f + 1; g < 52; ++g) {
                  sum += ev.Evaluate(h6 + Card::FromIndex(g)).raw();
                }
              } else {
                for (int g = f + 1; g < 52; ++g) {
                  sum += ev.EvaluateNoFlush(h6 + Card::FromIndex(g)).raw();
                }
              }
            }
          }
        }
      }
    }
  }
  return sum;
}

uint64_t SumSevenCardValues(const Card* deals, size_t hands) {
  const Evaluator& ev = Evaluator::Get();
  uint64_t sum = 0;
  for (size_t i = 0; i < hands; ++i) sum += ev.Evaluate7(deals + 7 * i).raw();
  return sum;
}

uint64_t SumOmahaValues(const Card* deals, size_t hands) {
  const Evaluator& ev = Evaluator::Get();
  uint64_t sum = 0;
  for (size_t i = 0; i < hands; ++i) {
    const Card* c = deals + 9 * i;
    sum += ev.EvaluateOmaha(c, c + 4).raw();
  }
  return sum;
}

std::vector<Card> RandomDeals(int hands, int per_hand) {
  auto source = SystemRandomSource::Create();
  BANCA_CHECK(source.ok());
  RandomSource& rng = **source;
  std::vector<Card> deck = StandardDeck();
  std::vector<Card> out;
  out.reserve(static_cast<size_t>(hands) * per_hand);
  for (int h = 0; h < hands; ++h) {
    // Partial Fisher–Yates: the first per_hand positions are a uniform deal.
    for (int i = 0; i < per_hand; ++i) {
      const int j = i + static_cast<int>(UniformInt(rng, kNumCards - i));
      std::swap(deck[i], deck[j]);
      out.push_back(deck[i]);
    }
  }
  return out;
}

std::string RunEvalBench(const EvalBenchOptions& options) {
  const int reps = std::max(1, options.repetitions);

  // Cold build into fresh memory, as at process start.
  double init_ms = 0;
  {
    const double start = ThreadCpuSeconds();
    auto tables = std::make_unique<internal::Tables>();
    internal::BuildTables(*tables);
    init_ms = (ThreadCpuSeconds() - start) * 1e3;
    g_sink = tables->rank[1];
  }
  Evaluator::Get();
  const uint64_t table_bytes = EvaluatorTableBytes();

  double enumerate_per_sec = 0;
  if (options.enumerate) {
    for (int r = 0; r < reps; ++r) {
      const double start = ThreadCpuSeconds();
      g_sink = EnumerateAllSeven();
      enumerate_per_sec = std::max(
          enumerate_per_sec, kNumSevenCardSets / (ThreadCpuSeconds() - start));
    }
  }

  const int n = std::max(1, options.random_hands);
  const int passes = std::max(1, options.random_passes);
  double random_per_sec = 0;
  {
    const std::vector<Card> deals = RandomDeals(n, 7);
    for (int r = 0; r < reps; ++r) {
      const double start = ThreadCpuSeconds();
      uint64_t sum = 0;
      for (int p = 0; p < passes; ++p)
        sum += SumSevenCardValues(deals.data(), n);
      random_per_sec =
          std::max(random_per_sec,
                   double{1} * n * passes / (ThreadCpuSeconds() - start));
      g_sink = sum;
    }
  }

  double omaha_per_sec = 0;
  {
    const std::vector<Card> deals = RandomDeals(n, 9);
    const int omaha_passes = std::max(1, passes / 4);
    for (int r = 0; r < reps; ++r) {
      const double start = ThreadCpuSeconds();
      uint64_t sum = 0;
      for (int p = 0; p < omaha_passes; ++p) {
        sum += SumOmahaValues(deals.data(), n);
      }
      omaha_per_sec = std::max(omaha_per_sec, double{1} * n * omaha_passes /
                                                  (ThreadCpuSeconds() - start));
      g_sink = sum;
    }
  }

  nlohmann::ordered_json out;
  out["enumerate_per_sec"] = std::llround(enumerate_per_sec);
  out["random_per_sec"] = std::llround(random_per_sec);
  out["omaha_random_per_sec"] = std::llround(omaha_per_sec);
  out["table_bytes"] = table_bytes;
  out["table_init_ms"] = std::round(init_ms * 100) / 100;
  return out.dump();
}

}  // namespace banca::cards
