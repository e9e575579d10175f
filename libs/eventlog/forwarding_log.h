// An EventLog that passes every call on to another: the base of the logs
// that watch some calls and pass everything through
// (services/server/metered_log.h, services/wallet/in_flight_log.h).
#ifndef BANCA_LIBS_EVENTLOG_FORWARDING_LOG_H_
#define BANCA_LIBS_EVENTLOG_FORWARDING_LOG_H_

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "libs/eventlog/event_log.h"
#include "libs/eventlog/group_member.h"

namespace banca::eventlog {

class ForwardingLog : public EventLog {
 public:
  explicit ForwardingLog(EventLog& log) : log_(log) {}

  absl::Status EnsureTopic(const TopicConfig& config) override {
    return log_.EnsureTopic(config);
  }
  absl::StatusOr<int> PartitionCount(std::string_view topic) override {
    return log_.PartitionCount(topic);
  }
  void AppendAsync(std::vector<Record> records,
                   std::vector<OffsetCommit> commits,
                   AppendCallback done) override {
    log_.AppendAsync(std::move(records), std::move(commits), std::move(done));
  }
  absl::StatusOr<std::vector<StoredRecord>> Read(std::string_view topic,
                                                 int partition, int64_t offset,
                                                 size_t max_records) override {
    return log_.Read(topic, partition, offset, max_records);
  }
  absl::StatusOr<int64_t> EndOffset(std::string_view topic,
                                    int partition) override {
    return log_.EndOffset(topic, partition);
  }
  absl::Status CommitOffsets(std::vector<OffsetCommit> commits) override {
    return log_.CommitOffsets(std::move(commits));
  }
  absl::StatusOr<int64_t> CommittedOffset(std::string_view group,
                                          std::string_view topic,
                                          int partition) override {
    return log_.CommittedOffset(group, topic, partition);
  }
  absl::StatusOr<std::vector<TopicConfig>> ListTopics() override {
    return log_.ListTopics();
  }
  absl::StatusOr<std::unique_ptr<GroupMember>> JoinGroup(
      const GroupOptions& options) override {
    return log_.JoinGroup(options);
  }

 protected:
  // The log every call goes on to.
  EventLog& forwarded() { return log_; }

 private:
  EventLog& log_;
};

}  // namespace banca::eventlog

#endif  // BANCA_LIBS_EVENTLOG_FORWARDING_LOG_H_
