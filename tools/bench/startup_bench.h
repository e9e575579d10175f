// `banca bench startup` (issue 22, item 4): how long a wallet takes to
// start when its log holds `events` events and its newest snapshot was
// taken `tail_events` before the end, beside a start that replays the
// whole log (no snapshot). The wallet projection is caught up before
// either start is timed, as on any restart, so both time the wallet's own
// state; the snapshot's pause (the gates closed while the state is
// copied) and its write are measured too.
#ifndef BANCA_TOOLS_BENCH_STARTUP_BENCH_H_
#define BANCA_TOOLS_BENCH_STARTUP_BENCH_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace banca::bench {

struct StartupBenchOptions {
  std::string dir;  // scratch: log/, projections/, snapshots/
  int64_t events = 1'000'000;
  int64_t tail_events = 10'000;
  int players = 10'000;
  // The wallet's answered requests in its answer store on disk (as `banca
  // serve` keeps them) or in memory, copied into each snapshot.
  bool answers_on_disk = true;
};

struct StartupResult {
  int64_t events = 0;
  int64_t snapshot_events = 0;
  // Replayed after the snapshot by the timed start.
  int64_t tail_events = 0;
  double start_seconds = 0;
  int64_t full_replay_events = 0;
  double full_replay_start_seconds = 0;
  // The gates closed for a copy of the whole state (the ledger, and the
  // answered requests when they are in memory), then the encoding and the
  // atomic write of the file.
  double snapshot_pause_ms = 0;
  double snapshot_write_seconds = 0;
  int64_t snapshot_bytes = 0;
  int64_t answered_requests = 0;
};

absl::StatusOr<StartupResult> RunStartupBench(
    const StartupBenchOptions& options);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_STARTUP_BENCH_H_
