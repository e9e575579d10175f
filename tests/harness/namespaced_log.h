// An event log seen through a name prefix, for tests that share one Kafka
// broker: every topic and consumer group the services name ("banca.
// tournament.events", "wallet.tournament-requests") is "<prefix><name>" on
// the broker, and comes back without the prefix. A run with a prefix of
// its own starts on empty topics and groups, whatever earlier runs (or
// other suites on the same broker) left there, and never disturbs them.
//
// Only names change: records, offsets (with Kafka's gaps), transactions,
// fencing and group membership are the wrapped log's own.
#ifndef BANCA_TESTS_HARNESS_NAMESPACED_LOG_H_
#define BANCA_TESTS_HARNESS_NAMESPACED_LOG_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/event_log.h"
#include "libs/eventlog/group_member.h"

namespace banca::testing {

class NamespacedLog final : public eventlog::EventLog {
 public:
  NamespacedLog(std::unique_ptr<eventlog::EventLog> inner, std::string prefix)
      : inner_(std::move(inner)), prefix_(std::move(prefix)) {}

  absl::Status EnsureTopic(const eventlog::TopicConfig& config) override {
    eventlog::TopicConfig named = config;
    named.name = Named(config.name);
    return inner_->EnsureTopic(named);
  }
  absl::StatusOr<int> PartitionCount(std::string_view topic) override {
    return inner_->PartitionCount(Named(topic));
  }
  void AppendAsync(std::vector<eventlog::Record> records,
                   std::vector<eventlog::OffsetCommit> commits,
                   eventlog::AppendCallback done) override {
    Name(records, commits);
    inner_->AppendAsync(std::move(records), std::move(commits),
                        Unnamed(std::move(done)));
  }
  absl::StatusOr<std::vector<eventlog::StoredRecord>> Read(
      std::string_view topic, int partition, int64_t offset,
      size_t max_records) override {
    ASSIGN_OR_RETURN(
        std::vector<eventlog::StoredRecord> records,
        inner_->Read(Named(topic), partition, offset, max_records));
    for (eventlog::StoredRecord& r : records) r.topic = std::string(topic);
    return records;
  }
  absl::StatusOr<int64_t> EndOffset(std::string_view topic,
                                    int partition) override {
    return inner_->EndOffset(Named(topic), partition);
  }
  absl::Status CommitOffsets(
      std::vector<eventlog::OffsetCommit> commits) override {
    std::vector<eventlog::Record> none;
    Name(none, commits);
    return inner_->CommitOffsets(std::move(commits));
  }
  absl::StatusOr<int64_t> CommittedOffset(std::string_view group,
                                          std::string_view topic,
                                          int partition) override {
    return inner_->CommittedOffset(Named(group), Named(topic), partition);
  }
  // This prefix's topics only.
  absl::StatusOr<std::vector<eventlog::TopicConfig>> ListTopics() override {
    ASSIGN_OR_RETURN(std::vector<eventlog::TopicConfig> all,
                     inner_->ListTopics());
    std::vector<eventlog::TopicConfig> ours;
    for (eventlog::TopicConfig& t : all) {
      if (!t.name.starts_with(prefix_)) continue;
      t.name.erase(0, prefix_.size());
      ours.push_back(std::move(t));
    }
    return ours;
  }
  absl::StatusOr<std::unique_ptr<eventlog::GroupMember>> JoinGroup(
      const eventlog::GroupOptions& options) override {
    eventlog::GroupOptions named = options;
    named.group = Named(options.group);
    named.topic = Named(options.topic);
    ASSIGN_OR_RETURN(std::unique_ptr<eventlog::GroupMember> member,
                     inner_->JoinGroup(named));
    return std::unique_ptr<eventlog::GroupMember>(
        new Member(*this, options, std::move(member)));
  }

 private:
  // A member of the prefixed group, answering to the names without it.
  class Member final : public eventlog::GroupMember {
   public:
    Member(NamespacedLog& log, const eventlog::GroupOptions& options,
           std::unique_ptr<eventlog::GroupMember> inner)
        : GroupMember(options.group, options.topic),
          log_(log),
          inner_(std::move(inner)) {}
    absl::StatusOr<eventlog::Assignment> Poll() override {
      return inner_->Poll();
    }
    void AppendAsync(std::vector<eventlog::Record> records,
                     std::vector<eventlog::OffsetCommit> commits,
                     eventlog::AppendCallback done) override {
      log_.Name(records, commits);
      inner_->AppendAsync(std::move(records), std::move(commits),
                          log_.Unnamed(std::move(done)));
    }

   private:
    NamespacedLog& log_;
    std::unique_ptr<eventlog::GroupMember> inner_;
  };

  std::string Named(std::string_view name) const {
    std::string named = prefix_;
    named.append(name);
    return named;
  }
  void Name(std::vector<eventlog::Record>& records,
            std::vector<eventlog::OffsetCommit>& commits) const {
    for (eventlog::Record& r : records) r.topic = Named(r.topic);
    for (eventlog::OffsetCommit& c : commits) {
      c.group = Named(c.group);
      c.topic = Named(c.topic);
    }
  }
  // `done`, given the positions without the prefix.
  eventlog::AppendCallback Unnamed(eventlog::AppendCallback done) const {
    return [this, done = std::move(done)](
               absl::Status status, std::vector<eventlog::Position> positions) {
      for (eventlog::Position& p : positions) {
        if (p.topic.starts_with(prefix_)) p.topic.erase(0, prefix_.size());
      }
      done(std::move(status), std::move(positions));
    };
  }

  const std::unique_ptr<eventlog::EventLog> inner_;
  const std::string prefix_;
};

}  // namespace banca::testing

#endif  // BANCA_TESTS_HARNESS_NAMESPACED_LOG_H_
