#include "libs/eventlog/kafka_topic_check.h"

#include <cstdint>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"

namespace banca::eventlog {
namespace {

absl::Status Refused(std::string_view topic, std::string_view what) {
  return absl::FailedPreconditionError(
      absl::StrCat("kafka topic ", ToAbsl(topic), " exists but ", ToAbsl(what),
                   ": banca keeps every event forever (docs/eventlog.md, "
                   "\"Retention\"); fix the topic or name another"));
}

// The value of `key`, or nullptr when the broker did not report it.
const std::string* ValueOf(const TopicSettings& settings,
                           const std::string& key) {
  auto it = settings.configs.find(key);
  return it == settings.configs.end() ? nullptr : &it->second;
}

absl::Status MustBeForever(std::string_view topic,
                           const TopicSettings& settings,
                           const std::string& key) {
  const std::string* v = ValueOf(settings, key);
  if (v == nullptr) {
    return Refused(topic, absl::StrCat("its ", key, " is not reported"));
  }
  int64_t n = 0;
  if (!absl::SimpleAtoi(*v, &n) || n != -1) {
    return Refused(topic, absl::StrCat("has ", key, "=", *v,
                                       " (it must be -1: events expire)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckTopicSettings(std::string_view topic,
                                const TopicSettings& settings,
                                const TopicRequirements& want) {
  if (absl::Status s = MustBeForever(topic, settings, "retention.ms");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = MustBeForever(topic, settings, "retention.bytes");
      !s.ok()) {
    return s;
  }
  const std::string* policy = ValueOf(settings, "cleanup.policy");
  if (policy == nullptr || policy->find("compact") != std::string::npos) {
    return Refused(topic,
                   absl::StrCat("has cleanup.policy=",
                                policy == nullptr ? "(not reported)" : *policy,
                                " (it must be delete: compaction keeps only "
                                "the last event of each key)"));
  }
  if (want.replication_factor > 0 &&
      settings.min_replicas < want.replication_factor) {
    return Refused(topic,
                   absl::StrCat("has partitions on ", settings.min_replicas,
                                " replicas (replication_factor=",
                                want.replication_factor, " asked)"));
  }
  if (want.min_insync_replicas > 0) {
    const std::string* v = ValueOf(settings, "min.insync.replicas");
    int n = 0;
    if (v == nullptr || !absl::SimpleAtoi(*v, &n) ||
        n < want.min_insync_replicas) {
      return Refused(
          topic,
          absl::StrCat(
              "has min.insync.replicas=", v == nullptr ? "(not reported)" : *v,
              " (min_insync_replicas=", want.min_insync_replicas, " asked)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace banca::eventlog
