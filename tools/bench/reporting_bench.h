// `banca bench reporting` (docs/performance.md): the reporting service's
// projections (libs/projection/reporting_projection.h) fed from a log on
// disk holding the realistic wallet workload of reporting_workload.h,
// then queried the way players and auditors query them.
//
// Phases, each adding its figures to the bench's one JSON object:
//   1. the workload written to DATA_DIR/log (or reused: a log written
//      with the same events, players and seed, DATA_DIR/workload.json);
//   2. ingest: CatchUp of the whole ReportingProjector from offset 0 into
//      a fresh RocksDB store (DATA_DIR/projection), flushed, timed;
//   3. the measured phases over the full store (ReportingPhases): the
//      recall of a player's last 10 games through ReportingService::
//      ListGames over loopback gRPC, for random players.
// A phase to come (the finance CSV export, the daily close) is one more
// function in ReportingPhases.
#ifndef BANCA_TOOLS_BENCH_REPORTING_BENCH_H_
#define BANCA_TOOLS_BENCH_REPORTING_BENCH_H_

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"
#include "nlohmann/json.hpp"
#include "tools/bench/reporting_workload.h"

namespace banca::bench {

inline constexpr int kMaxReportingQueries = 1'000'000;

struct ReportingBenchOptions {
  std::string dir;  // log/, projection/ and workload.json go in it
  ReportingWorkloadOptions workload;
  int queries = 1'000;  // answered ListGames calls measured
};

// What a measured phase works on: the log, the ingested store's
// directory (closed: the phase opens what it measures) and the workload.
struct ReportingBenchContext {
  const ReportingBenchOptions& options;
  eventlog::EventLog& log;
  std::string projection_dir;
  const ReportingWorkloadCounts& workload;
  std::mt19937_64& rng;
};

using ReportingPhase = std::function<absl::Status(ReportingBenchContext&,
                                                  nlohmann::ordered_json&)>;

// The phases run after the ingest, in order: today the last-10 recall
// (last10_p50_ms, last10_p99_ms, ...).
std::vector<ReportingPhase> ReportingPhases();

// Runs the bench; the JSON object it prints. Leaves `dir` in place (the
// log can be reused); the caller removes a scratch directory.
absl::StatusOr<nlohmann::ordered_json> RunReportingBench(
    const ReportingBenchOptions& options);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_REPORTING_BENCH_H_
