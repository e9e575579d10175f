// `banca bench rebuild`: an embedded log filled with wallet events decided
// by the real ledger (accounts, deposits, holds, captures to table seats),
// then the wallet projection rebuilt from offset 0 and timed. TimeRebuild
// is also the last part of `banca bench wallet`.
#ifndef BANCA_TOOLS_BENCH_REBUILD_BENCH_H_
#define BANCA_TOOLS_BENCH_REBUILD_BENCH_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"

namespace banca::bench {

struct RebuildBenchOptions {
  std::string dir;  // scratch directory: log/ and projection/ go in it
  int64_t events = 300'000;
  int players = 10'000;
};

struct RebuildResult {
  int64_t events = 0;  // applied by the rebuild
  double seconds = 0;
};

// The wallet projection rebuilt from offset 0 of `log` into a new store at
// `store_dir`, timed.
absl::StatusOr<RebuildResult> TimeRebuild(eventlog::EventLog& log,
                                          const std::string& store_dir);

absl::StatusOr<RebuildResult> RunRebuildBench(
    const RebuildBenchOptions& options);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_REBUILD_BENCH_H_
