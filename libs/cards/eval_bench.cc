#include "libs/cards/eval_bench.h"

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <memory>
#include <vector>

#include "absl/strings/str_format.h"
#include "libs/cards/evaluator.h"
#include "libs/cards/random.h"
#include "libs/common/check.h"

namespace banca::cards {
namespace {

// Thread CPU time, not wall time: the build and CI machines are shared, and
// time spent descheduled says nothing about the evaluator.
struct Clock {
  using time_point = double;
  static double now() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
  }
};

double Seconds(double start) { return Clock::now() - start; }

// Keeps results alive so the optimizer cannot drop the evaluations.
volatile uint64_t g_sink;

uint64_t EnumerateAllSeven(const Evaluator& ev) {
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
              for (int g = f + 1; g < 52; ++g) {
                sum += ev.Evaluate(h6 + Card::FromIndex(g)).raw();
              }
            }
          }
        }
      }
    }
  }
  return sum;
}

// `hands` deals of `per_hand` distinct cards each, laid out contiguously.
// Drawn from the production CSPRNG: benchmark inputs need no reproducibility,
// and the banca binary must not link the seeded test generator.
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

}  // namespace

std::string RunEvalBench(const EvalBenchOptions& options) {
  const int reps = std::max(1, options.repetitions);

  // Cold build into fresh memory, as at process start.
  double init_ms = 0;
  {
    auto start = Clock::now();
    auto tables = std::make_unique<internal::Tables>();
    internal::BuildTables(*tables);
    init_ms = Seconds(start) * 1e3;
    g_sink = tables->rank[1];
  }
  const Evaluator& ev = Evaluator::Get();
  const uint64_t table_bytes =
      sizeof(internal::Tables) + sizeof(internal::kRowAdjust);

  double enumerate_per_sec = 0;
  if (options.enumerate) {
    for (int r = 0; r < reps; ++r) {
      auto start = Clock::now();
      g_sink = EnumerateAllSeven(ev);
      enumerate_per_sec =
          std::max(enumerate_per_sec, 133784560 / Seconds(start));
    }
  }

  const int n = std::max(1, options.random_hands);
  const int passes = std::max(1, options.random_passes);
  double random_per_sec = 0;
  {
    const std::vector<Card> deals = RandomDeals(n, 7);
    const Card* d = deals.data();
    for (int r = 0; r < reps; ++r) {
      auto start = Clock::now();
      uint64_t sum = 0;
      for (int p = 0; p < passes; ++p) {
        for (int i = 0; i < n; ++i) {
          const Card* c = d + 7 * static_cast<size_t>(i);
          sum += ev.Evaluate7(c).raw();
        }
      }
      random_per_sec =
          std::max(random_per_sec, double{1} * n * passes / Seconds(start));
      g_sink = sum;
    }
  }

  double omaha_per_sec = 0;
  {
    const std::vector<Card> deals = RandomDeals(n, 9);
    const Card* d = deals.data();
    const int omaha_passes = std::max(1, passes / 4);
    for (int r = 0; r < reps; ++r) {
      auto start = Clock::now();
      uint64_t sum = 0;
      for (int p = 0; p < omaha_passes; ++p) {
        for (int i = 0; i < n; ++i) {
          const Card* c = d + 9 * static_cast<size_t>(i);
          sum += ev.EvaluateOmaha(c, c + 4).raw();
        }
      }
      omaha_per_sec = std::max(omaha_per_sec,
                               double{1} * n * omaha_passes / Seconds(start));
      g_sink = sum;
    }
  }

  return absl::StrFormat(
      "{\"enumerate_per_sec\": %.0f, \"random_per_sec\": %.0f, "
      "\"omaha_random_per_sec\": %.0f, \"table_bytes\": %d, "
      "\"table_init_ms\": %.2f}",
      enumerate_per_sec, random_per_sec, omaha_per_sec, table_bytes, init_ms);
}

}  // namespace banca::cards
