// `banca bench ledger`: the in-process ledger alone. Transfers between
// players with a house/rake leg, so every transaction also touches the hot
// account, posted by `threads` threads for `duration`.
#ifndef BANCA_TOOLS_BENCH_LEDGER_BENCH_H_
#define BANCA_TOOLS_BENCH_LEDGER_BENCH_H_

#include "absl/time/time.h"

namespace banca::bench {

struct LedgerBenchOptions {
  int threads = 2;
  int players = 10'000;  // at least 2
  absl::Duration duration = absl::Seconds(3);
  int stripes = 16;  // the ledger's lock stripes
};

struct LedgerBenchResult {
  double postings_per_sec = 0;
  double transactions_per_sec = 0;
};

// Three postings per transaction.
inline constexpr int kLedgerBenchPostings = 3;

LedgerBenchResult RunLedgerBench(const LedgerBenchOptions& options);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_LEDGER_BENCH_H_
