// What an existing Kafka topic must be for banca to use it: the log is the
// ledger's source of truth, so a topic someone else created (or changed)
// with a finite retention, compaction, or fewer replicas than the
// operator asked for would lose events that acknowledged money depends
// on. KafkaLog::EnsureTopic refuses such a topic with the reason instead
// of appending to it.
#ifndef BANCA_LIBS_EVENTLOG_KAFKA_TOPIC_CHECK_H_
#define BANCA_LIBS_EVENTLOG_KAFKA_TOPIC_CHECK_H_

#include <map>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace banca::eventlog {

// What the operator asked for (KafkaLogOptions; -1: the broker's default,
// not checked).
struct TopicRequirements {
  int replication_factor = -1;
  int min_insync_replicas = -1;
};

// What the broker says of the topic: its configuration (DescribeConfigs,
// name → value) and the fewest replicas any of its partitions has.
struct TopicSettings {
  std::map<std::string, std::string> configs;
  int min_replicas = 0;
};

// OK when `settings` keep every event forever (retention.ms and
// retention.bytes -1, cleanup.policy without "compact") and meet `want`;
// else FAILED_PRECONDITION naming the topic, the setting, its value and
// what it must be. A setting the broker did not report counts as wrong.
absl::Status CheckTopicSettings(std::string_view topic,
                                const TopicSettings& settings,
                                const TopicRequirements& want);

}  // namespace banca::eventlog

#endif  // BANCA_LIBS_EVENTLOG_KAFKA_TOPIC_CHECK_H_
