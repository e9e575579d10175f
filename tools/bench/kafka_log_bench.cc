#include "tools/bench/kafka_log_bench.h"

#include <unistd.h>

#include <cstdio>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/kafka_log.h"
#include "libs/eventlog/log_backend.h"

namespace banca::bench {
namespace {

// Kafka's own producer benchmark on the same broker, record size and acks;
// returns its records/s from the summary line it prints last.
absl::StatusOr<double> RunKafkaProducerPerformance(
    const std::string& kafka_local, const std::string& bootstrap,
    const std::string& topic, int64_t records, size_t record_bytes) {
  const std::string command = absl::StrCat(
      kafka_local, " producer-perf --topic ", topic, " --num-records ", records,
      " --record-size ", record_bytes,
      " --throughput -1 --producer-props bootstrap.servers=", bootstrap,
      " acks=all enable.idempotence=true 2>&1");
  FILE* out = popen(command.c_str(), "r");
  if (out == nullptr) return absl::InternalError("cannot run " + command);
  std::string last, line;
  char buf[1024];
  while (fgets(buf, sizeof(buf), out) != nullptr) {
    line = buf;
    if (line.find("records sent") != std::string::npos) last = line;
  }
  const int rc = pclose(out);
  // "50000 records sent, 123456.7 records/sec (23.55 MB/sec), ..."
  const size_t comma = last.find(", ");
  double per_sec = 0;
  if (rc != 0 || comma == std::string::npos ||
      !absl::SimpleAtod(
          last.substr(comma + 2, last.find(' ', comma + 2) - comma - 2),
          &per_sec)) {
    return absl::UnavailableError(
        absl::StrCat("ProducerPerformance failed (exit ", rc, "): ", line));
  }
  return per_sec;
}

}  // namespace

absl::StatusOr<KafkaLogBenchResult> RunKafkaLogBench(
    KafkaLogBenchOptions options) {
  const std::string& spec = options.spec;
  const std::string bootstrap =
      spec.substr(8, spec.find('?') == std::string::npos ? std::string::npos
                                                         : spec.find('?') - 8);
  const std::string suffix =
      absl::StrCat(getpid(), "-", absl::ToUnixMicros(absl::Now()));
  options.log.topic = absl::StrCat("bench.banca.", suffix);
  KafkaLogBenchResult result;
  ASSIGN_OR_RETURN(const eventlog::KafkaLogOptions kafka,
                   eventlog::ParseKafkaSpec(spec));
  result.producers = kafka.producers;
  ASSIGN_OR_RETURN(auto log, eventlog::OpenLogBackend(spec, ""));
  ASSIGN_OR_RETURN(result.ours, eventlog::RunLogBench(*log, options.log));
  // The tool's topic, created with the same partitions (the local broker
  // does not auto-create topics).
  const std::string tool_topic = absl::StrCat("bench.tool.", suffix);
  RETURN_IF_ERROR(log->EnsureTopic({tool_topic, options.log.partitions}));
  if (options.run_tool) {
    ASSIGN_OR_RETURN(result.tool_events_per_sec,
                     RunKafkaProducerPerformance(options.kafka_local, bootstrap,
                                                 tool_topic, options.log.events,
                                                 options.log.value_bytes));
  }
  return result;
}

}  // namespace banca::bench
