// Same-machine comparison of banca's hand evaluator with OMPEval and
// PokerHandEvaluator (PHEval): one process, the same input arrays, and
// interleaved repetitions (the order of the evaluators rotates each time), so
// that whatever else loads the machine slows every side alike. Built only
// with -DBANCA_EVAL_COMPARE=ON by tools/bench-compare-eval, which fetches the
// other two from pinned, checksummed packages.
//
// Usage: banca_eval_compare [--repetitions=N] [--hands=N] [--passes=N]
//                           [--no-enumerate]
// Prints one JSON object (docs/performance.md explains the fields).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "HandEvaluator.h"  // OMPEval (omp::HandEvaluator, omp::Hand).
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "libs/cards/card.h"
#include "libs/cards/eval_bench.h"
#include "libs/cards/evaluator.h"
#include "phevaluator/phevaluator.h"

namespace {

using banca::cards::Card;
using banca::cards::Evaluator;
using banca::cards::kNumSevenCardSets;

volatile uint64_t g_sink;

// All three number cards 4 · rank + suit, rank 0 the deuce, so one byte
// array serves every evaluator unchanged.
std::vector<uint8_t> Indices(const std::vector<Card>& cards) {
  std::vector<uint8_t> out(cards.size());
  for (size_t i = 0; i < cards.size(); ++i) {
    out[i] = static_cast<uint8_t>(cards[i].index());
  }
  return out;
}

// OMPEval the way its own sequential benchmark runs: a four-card Hand built
// per fourth card, then one card added per loop level.
uint64_t OmpEnumerate(const omp::HandEvaluator& ev) {
  uint64_t sum = 0;
  for (unsigned c1 = 0; c1 < 52; ++c1) {
    for (unsigned c2 = c1 + 1; c2 < 52; ++c2) {
      for (unsigned c3 = c2 + 1; c3 < 52; ++c3) {
        for (unsigned c4 = c3 + 1; c4 < 52; ++c4) {
          omp::Hand h4 = omp::Hand::empty();
          h4 += c1;
          h4 += c2;
          h4 += c3;
          h4 += c4;
          for (unsigned c5 = c4 + 1; c5 < 52; ++c5) {
            omp::Hand h5 = h4;
            h5 += c5;
            for (unsigned c6 = c5 + 1; c6 < 52; ++c6) {
              omp::Hand h6 = h5;
              h6 += c6;
              for (unsigned c7 = c6 + 1; c7 < 52; ++c7) {
                omp::Hand h7 = h6;
                h7 += c7;
                sum += ev.evaluate(h7);
              }
            }
          }
        }
      }
    }
  }
  return sum;
}

// OMPEval with the shortcut banca's enumeration takes (not in OMPEval's own
// benchmark): when six cards hold no four of a suit, the seventh card skips
// the flush test (evaluate<false>).
uint64_t OmpEnumerateSkipFlush(const omp::HandEvaluator& ev) {
  uint64_t sum = 0;
  for (unsigned c1 = 0; c1 < 52; ++c1) {
    for (unsigned c2 = c1 + 1; c2 < 52; ++c2) {
      for (unsigned c3 = c2 + 1; c3 < 52; ++c3) {
        for (unsigned c4 = c3 + 1; c4 < 52; ++c4) {
          omp::Hand h4 = omp::Hand::empty();
          h4 += c1;
          h4 += c2;
          h4 += c3;
          h4 += c4;
          for (unsigned c5 = c4 + 1; c5 < 52; ++c5) {
            omp::Hand h5 = h4;
            h5 += c5;
            for (unsigned c6 = c5 + 1; c6 < 52; ++c6) {
              omp::Hand h6 = h5;
              h6 += c6;
              if (h6.suitCount(0) >= 4 || h6.suitCount(1) >= 4 ||
                  h6.suitCount(2) >= 4 || h6.suitCount(3) >= 4) {
                for (unsigned c7 = c6 + 1; c7 < 52; ++c7) {
                  omp::Hand h7 = h6;
                  h7 += c7;
                  sum += ev.evaluate<true>(h7);
                }
              } else {
                for (unsigned c7 = c6 + 1; c7 < 52; ++c7) {
                  omp::Hand h7 = h6;
                  h7 += c7;
                  sum += ev.evaluate<false>(h7);
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

// OMPEval's "random order, card arrays" benchmark: a Hand from seven bytes.
uint64_t OmpRandom(const omp::HandEvaluator& ev, const uint8_t* d, size_t n) {
  uint64_t sum = 0;
  for (size_t i = 0; i < n; ++i, d += 7) {
    omp::Hand h = omp::Hand::empty();
    h += d[0];
    h += d[1];
    h += d[2];
    h += d[3];
    h += d[4];
    h += d[5];
    h += d[6];
    sum += ev.evaluate(h);
  }
  return sum;
}

// PHEval has no partial-hand API: its seven-card call per set.
uint64_t PhEnumerate() {
  uint64_t sum = 0;
  for (int a = 0; a < 52; ++a) {
    for (int b = a + 1; b < 52; ++b) {
      for (int c = b + 1; c < 52; ++c) {
        for (int d = c + 1; d < 52; ++d) {
          for (int e = d + 1; e < 52; ++e) {
            for (int f = e + 1; f < 52; ++f) {
              for (int g = f + 1; g < 52; ++g) {
                sum +=
                    static_cast<uint64_t>(evaluate_7cards(a, b, c, d, e, f, g));
              }
            }
          }
        }
      }
    }
  }
  return sum;
}

uint64_t PhRandom(const uint8_t* d, size_t n) {
  uint64_t sum = 0;
  for (size_t i = 0; i < n; ++i, d += 7) {
    sum += static_cast<uint64_t>(
        evaluate_7cards(d[0], d[1], d[2], d[3], d[4], d[5], d[6]));
  }
  return sum;
}

// Deals are four hole cards then five board cards; PHEval takes the board
// first.
uint64_t PhOmaha(const uint8_t* d, size_t n) {
  uint64_t sum = 0;
  for (size_t i = 0; i < n; ++i, d += 9) {
    sum += static_cast<uint64_t>(evaluate_omaha_cards(
        d[4], d[5], d[6], d[7], d[8], d[0], d[1], d[2], d[3]));
  }
  return sum;
}

// True if `theirs` orders hands exactly as `ours` does: over the observed
// pairs, ours → theirs is a strictly increasing function.
bool SameOrder(std::vector<std::pair<int, int>> pairs) {
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  for (size_t i = 1; i < pairs.size(); ++i) {
    if (pairs[i].first == pairs[i - 1].first) return false;
    if (pairs[i].second <= pairs[i - 1].second) return false;
  }
  return true;
}

struct Side {
  std::string name;
  std::function<uint64_t()> run;
  std::vector<double> rates;  // Evaluations per second, one per repetition.
};

struct Workload {
  std::string name;
  double evaluations = 0;   // Per run.
  std::vector<Side> sides;  // sides[0] is banca.
};

double Best(const std::vector<double>& v) {
  return *std::max_element(v.begin(), v.end());
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Runs every side once per repetition, rotating which goes first.
void Measure(Workload& w, int repetitions) {
  const size_t n = w.sides.size();
  for (int r = 0; r < repetitions; ++r) {
    for (size_t k = 0; k < n; ++k) {
      Side& s = w.sides[(k + static_cast<size_t>(r)) % n];
      const double start = banca::cards::ThreadCpuSeconds();
      g_sink = s.run();
      s.rates.push_back(w.evaluations /
                        (banca::cards::ThreadCpuSeconds() - start));
    }
  }
}

std::string Json(const Workload& w) {
  std::vector<std::string> fields;
  for (const Side& s : w.sides) {
    fields.push_back(
        absl::StrFormat("\"%s\": {\"best\": %.0f, \"median\": %.0f}", s.name,
                        Best(s.rates), Median(s.rates)));
  }
  // Ratios pair each repetition's runs, which ran back to back.
  const Side& ours = w.sides[0];
  for (size_t k = 1; k < w.sides.size(); ++k) {
    const Side& theirs = w.sides[k];
    std::vector<double> ratio;
    for (size_t r = 0; r < ours.rates.size(); ++r) {
      ratio.push_back(ours.rates[r] / theirs.rates[r]);
    }
    fields.push_back(absl::StrFormat(
        "\"banca_vs_%s\": {\"best_over_best\": %.2f, \"min\": %.2f, "
        "\"median\": %.2f, \"max\": %.2f}",
        theirs.name, Best(ours.rates) / Best(theirs.rates),
        *std::min_element(ratio.begin(), ratio.end()), Median(ratio),
        *std::max_element(ratio.begin(), ratio.end())));
  }
  return absl::StrCat("\"", w.name, "\": {", absl::StrJoin(fields, ", "), "}");
}

bool Flag(const char* arg, const char* name, int* value) {
  const size_t len = std::strlen(name);
  if (std::strncmp(arg, name, len) != 0 || arg[len] != '=') return false;
  *value = std::atoi(arg + len + 1);
  return true;
}

struct Options {
  int repetitions = 5;
  int hands = 1 << 20;
  int passes = 16;
  bool enumerate = true;
};

// The command line, or nothing after printing the usage.
std::optional<Options> ParseFlags(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-enumerate") == 0) {
      o.enumerate = false;
    } else if (!Flag(argv[i], "--repetitions", &o.repetitions) &&
               !Flag(argv[i], "--hands", &o.hands) &&
               !Flag(argv[i], "--passes", &o.passes)) {
      std::fprintf(stderr,
                   "usage: %s [--repetitions=N] [--hands=N] [--passes=N] "
                   "[--no-enumerate]\n",
                   argv[0]);
      return std::nullopt;
    }
  }
  o.repetitions = std::max(1, o.repetitions);
  o.hands = std::max(1, o.hands);
  o.passes = std::max(1, o.passes);
  return o;
}

// The same random hands for every evaluator: 7 cards (hold'em) and 9
// (Omaha: 4 hole cards, then 5 on the board), as cards and as indices.
struct Deals {
  explicit Deals(int hands)
      : deals7(banca::cards::RandomDeals(hands, 7)),
        deals9(banca::cards::RandomDeals(hands, 9)),
        bytes7(Indices(deals7)),
        bytes9(Indices(deals9)) {}
  const std::vector<Card> deals7;
  const std::vector<Card> deals9;
  const std::vector<uint8_t> bytes7;
  const std::vector<uint8_t> bytes9;
};

struct Agreement {
  bool omp = false;
  bool ph = false;
  bool ph_omaha = false;
};

// Before timing anything: all three rank the same random hands the same
// way (PHEval counts 1 for the best class, so its order is reversed).
Agreement CompareOrders(const Evaluator& ours,
                        const omp::HandEvaluator& omp_eval, const Deals& d,
                        size_t n) {
  std::vector<std::pair<int, int>> vs_omp, vs_ph, vs_ph_omaha;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* b = &d.bytes7[7 * i];
    omp::Hand h = omp::Hand::empty();
    for (int k = 0; k < 7; ++k) h += b[k];
    const int v = ours.Evaluate7(&d.deals7[7 * i]).raw();
    vs_omp.emplace_back(v, omp_eval.evaluate(h));
    vs_ph.emplace_back(
        v, -evaluate_7cards(b[0], b[1], b[2], b[3], b[4], b[5], b[6]));
    const uint8_t* o = &d.bytes9[9 * i];
    vs_ph_omaha.emplace_back(
        ours.EvaluateOmaha(&d.deals9[9 * i], &d.deals9[9 * i + 4]).raw(),
        -evaluate_omaha_cards(o[4], o[5], o[6], o[7], o[8], o[0], o[1], o[2],
                              o[3]));
  }
  return {SameOrder(vs_omp), SameOrder(vs_ph), SameOrder(vs_ph_omaha)};
}

// What is timed: every 7-card set (unless --no-enumerate), the random
// 7-card hands, the random Omaha hands; banca's side first.
std::vector<Workload> Workloads(const Options& o,
                                const omp::HandEvaluator& omp_eval,
                                const Deals& d, size_t n) {
  std::vector<Workload> workloads;
  if (o.enumerate) {
    workloads.push_back(
        {"enumerate_per_sec",
         static_cast<double>(kNumSevenCardSets),
         {{"banca", [] { return banca::cards::EnumerateAllSeven(); }, {}},
          {"ompeval", [&] { return OmpEnumerate(omp_eval); }, {}},
          {"ompeval_skip_flush",
           [&] { return OmpEnumerateSkipFlush(omp_eval); },
           {}},
          {"phevaluator", [] { return PhEnumerate(); }, {}}}});
  }
  const double random_evals = static_cast<double>(n) * o.passes;
  workloads.push_back({"random_per_sec",
                       random_evals,
                       {{"banca",
                         [&] {
                           uint64_t sum = 0;
                           for (int p = 0; p < o.passes; ++p) {
                             sum += banca::cards::SumSevenCardValues(
                                 d.deals7.data(), n);
                           }
                           return sum;
                         },
                         {}},
                        {"ompeval",
                         [&] {
                           uint64_t sum = 0;
                           for (int p = 0; p < o.passes; ++p) {
                             sum += OmpRandom(omp_eval, d.bytes7.data(), n);
                           }
                           return sum;
                         },
                         {}},
                        {"phevaluator",
                         [&] {
                           uint64_t sum = 0;
                           for (int p = 0; p < o.passes; ++p)
                             sum += PhRandom(d.bytes7.data(), n);
                           return sum;
                         },
                         {}}}});
  const int omaha_passes = std::max(1, o.passes / 4);
  workloads.push_back({"omaha_random_per_sec",
                       static_cast<double>(n) * omaha_passes,
                       {{"banca",
                         [&] {
                           uint64_t sum = 0;
                           for (int p = 0; p < omaha_passes; ++p) {
                             sum += banca::cards::SumOmahaValues(
                                 d.deals9.data(), n);
                           }
                           return sum;
                         },
                         {}},
                        {"phevaluator",
                         [&] {
                           uint64_t sum = 0;
                           for (int p = 0; p < omaha_passes; ++p) {
                             sum += PhOmaha(d.bytes9.data(), n);
                           }
                           return sum;
                         },
                         {}}}});
  return workloads;
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Options> o = ParseFlags(argc, argv);
  if (!o) return 2;
  const Evaluator& ours = Evaluator::Get();
  const omp::HandEvaluator omp_eval;
  const Deals deals(o->hands);
  const size_t n = static_cast<size_t>(o->hands);
  const Agreement same = CompareOrders(ours, omp_eval, deals, n);
  std::vector<Workload> workloads = Workloads(*o, omp_eval, deals, n);
  for (Workload& w : workloads) Measure(w, o->repetitions);

  std::vector<std::string> parts = {
      absl::StrFormat("\"repetitions\": %d", o->repetitions),
      absl::StrFormat("\"random_hands\": %d", o->hands),
      absl::StrFormat("\"random_passes\": %d", o->passes),
      absl::StrFormat("\"omaha_passes\": %d", std::max(1, o->passes / 4))};
  for (const Workload& w : workloads) parts.push_back(Json(w));
  parts.push_back(absl::StrFormat(
      "\"same_order\": {\"hands\": %d, \"ompeval\": %s, \"phevaluator\": %s, "
      "\"phevaluator_omaha\": %s}",
      o->hands, same.omp ? "true" : "false", same.ph ? "true" : "false",
      same.ph_omaha ? "true" : "false"));
  parts.push_back(absl::StrFormat("\"banca_table_bytes\": %d",
                                  banca::cards::EvaluatorTableBytes()));
  std::printf("{%s}\n", absl::StrJoin(parts, ", ").c_str());
  return same.omp && same.ph && same.ph_omaha ? 0 : 1;
}
