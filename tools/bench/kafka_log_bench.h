// `banca bench log --log=kafka://...`: banca's Kafka producer (every append
// in a transaction) beside Kafka's own producer benchmark (ProducerPerformance,
// run through tools/kafka-local) on the same broker, with the same acks,
// idempotence, value size and partitions.
#ifndef BANCA_TOOLS_BENCH_KAFKA_LOG_BENCH_H_
#define BANCA_TOOLS_BENCH_KAFKA_LOG_BENCH_H_

#include <string>

#include "absl/status/statusor.h"
#include "libs/eventlog/log_bench.h"

namespace banca::bench {

struct KafkaLogBenchOptions {
  std::string spec;  // kafka://HOST:PORT[?options]
  // The topic is made fresh for the run (options.topic is replaced).
  eventlog::LogBenchOptions log;
  // The script that runs the broker's tools.
  std::string kafka_local = "tools/kafka-local";
  // false: banca's producer only (no minute of JVM), to compare banca's own
  // settings run after run.
  bool run_tool = true;
};

struct KafkaLogBenchResult {
  eventlog::LogBenchResult ours;
  int producers = 0;               // banca's (the spec's ?producers=)
  double tool_events_per_sec = 0;  // 0 without the tool
};

absl::StatusOr<KafkaLogBenchResult> RunKafkaLogBench(
    KafkaLogBenchOptions options);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_KAFKA_LOG_BENCH_H_
