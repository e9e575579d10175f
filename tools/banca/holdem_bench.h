// `banca bench holdem`, the service part: the wallet and the table service
// in this process on an embedded log in a scratch directory, served over
// gRPC on loopback; `tables` 6-max no-limit Hold'em tables, each with six
// bot players (their own tokens and cash), all played at once by an
// asynchronous client (two threads): for each table it sends a random legal
// action for the player to act, taken from the last answer's to_act_legal
// (one Act per action; a fresh view only when nobody is to act). Measures
// settled hands per second and each Act RPC's latency. Figures are measured
// here, never typed in.
#ifndef BANCA_TOOLS_BANCA_HOLDEM_BENCH_H_
#define BANCA_TOOLS_BANCA_HOLDEM_BENCH_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace banca::cli {

struct HoldemBenchOptions {
  std::string dir;  // scratch directory (emptied)
  int tables = 100;
  int players = 6;  // per table
  absl::Duration warmup = absl::Seconds(2);
  absl::Duration duration = absl::Seconds(10);
  // The embedded log's fsync (false only to measure durability's cost).
  bool fsync = true;
  // Before each Act, ask the actor for its own view (two RPCs per action,
  // the client before to_act_legal existed).
  bool view_per_action = false;
  uint64_t seed = 1;
};

struct HoldemBenchResult {
  double seconds = 0;  // the measured window (wall clock)
  int64_t hands = 0;   // settled in the window (TableInfo, all tables)
  int64_t actions = 0;
  int64_t rejected = 0;  // Act calls the service refused (a bot bug)
  int64_t rebuys = 0;
  int64_t views = 0;   // GetTableView calls in the window
  int64_t pauses = 0;  // 1 ms waits with nobody to act, in the window
  double hands_per_sec = 0;
  double actions_per_sec = 0;
  double p50_action_ms = 0;
  double p99_action_ms = 0;
  double max_action_ms = 0;
  double setup_seconds = 0;  // tables, accounts, deposits, buy-ins
  // CPU seconds of the whole process (server and clients) per hand.
  double cpu_ms_per_hand = 0;
};

absl::StatusOr<HoldemBenchResult> RunHoldemServiceBench(
    const HoldemBenchOptions& options);

}  // namespace banca::cli

#endif  // BANCA_TOOLS_BANCA_HOLDEM_BENCH_H_
