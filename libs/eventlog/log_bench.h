// Throughput benchmarks of an EventLog, for `banca bench log`.
#ifndef BANCA_LIBS_EVENTLOG_LOG_BENCH_H_
#define BANCA_LIBS_EVENTLOG_LOG_BENCH_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"

namespace banca::eventlog {

struct LogBenchOptions {
  // `dir` and `fsync` are for the caller that opens the log (RunLogBench
  // takes an open log); they are here so one struct describes a run.
  std::string dir;
  int writers = 16;
  int64_t events = 200000;
  size_t value_bytes = 200;
  int partitions = 8;
  bool fsync = true;
  // Appends each writer keeps in flight.
  int in_flight_per_writer = 64;
  std::string topic = "bench.events";
};

struct LogBenchResult {
  int64_t events = 0;
  double seconds = 0;
  double events_per_sec = 0;
  // Append latency, AppendAsync call to durable callback (zero for reads).
  double p50_ms = 0;
  double p99_ms = 0;
  // Payload (value) bytes per second.
  double mb_per_sec = 0;
};

// `writers` threads append `events` single-record batches in total to
// `topic` (created with `partitions` partitions), each with at most
// `in_flight_per_writer` appends not yet durable.
absl::StatusOr<LogBenchResult> RunLogBench(EventLog& log,
                                           const LogBenchOptions& options);

// Reads every partition of `topic` from offset 0 to its end (a replay).
absl::StatusOr<LogBenchResult> RunReadBench(EventLog& log,
                                            const LogBenchOptions& options);

}  // namespace banca::eventlog

#endif  // BANCA_LIBS_EVENTLOG_LOG_BENCH_H_
