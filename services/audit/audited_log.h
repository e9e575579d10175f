// The log as `banca audit verify` reads it beside a running system: a
// fixed range of every topic, read and never written.
//
// On opening it takes, in this order, the committed positions of the
// wallet's readers of the request topics (request_audit.h
// ReaderPositions), then the end of every partition of every topic; reads
// stop at those ends, and CommittedOffset answers those positions. The
// wallet commits a position in the same atomic append as what it did for
// the requests before it, so the range holds everything the positions
// promise. On the embedded log the reader already serves a fixed prefix
// of the journal (EmbeddedLogOptions::beside_writer), a consistent cut of
// every topic, and the ends are its ends. On Kafka the ends are taken one
// partition after another while producers commit: a transaction that
// commits in between can be in the range on one topic and not on another.
// Appends, commits, new topics and group joins are FAILED_PRECONDITION.
// Every record read is counted to the progress line (audit_progress.h).
#ifndef BANCA_SERVICES_AUDIT_AUDITED_LOG_H_
#define BANCA_SERVICES_AUDIT_AUDITED_LOG_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"
#include "services/audit/audit_progress.h"

namespace banca::audit {

// At most this many partitions in the audited range.
inline constexpr size_t kMaxAuditedPartitions = 16'384;

class AuditedLog final : public eventlog::EventLog {
 public:
  // `progress` may be null; it must outlive the log.
  static absl::StatusOr<std::unique_ptr<AuditedLog>> Open(
      std::unique_ptr<eventlog::EventLog> inner, AuditProgress* progress);

  // (topic, partition) → the end of the audited range.
  const std::map<std::pair<std::string, int>, int64_t>& ends() const {
    return ends_;
  }

  absl::Status EnsureTopic(const eventlog::TopicConfig& config) override;
  absl::StatusOr<int> PartitionCount(std::string_view topic) override;
  void AppendAsync(std::vector<eventlog::Record> records,
                   std::vector<eventlog::OffsetCommit> commits,
                   eventlog::AppendCallback done) override;
  absl::StatusOr<std::vector<eventlog::StoredRecord>> Read(
      std::string_view topic, int partition, int64_t offset,
      size_t max_records) override;
  absl::StatusOr<int64_t> EndOffset(std::string_view topic,
                                    int partition) override;
  absl::Status CommitOffsets(
      std::vector<eventlog::OffsetCommit> commits) override;
  absl::StatusOr<int64_t> CommittedOffset(std::string_view group,
                                          std::string_view topic,
                                          int partition) override;
  absl::StatusOr<std::vector<eventlog::TopicConfig>> ListTopics() override;
  absl::StatusOr<std::unique_ptr<eventlog::GroupMember>> JoinGroup(
      const eventlog::GroupOptions& options) override;

 private:
  AuditedLog(std::unique_ptr<eventlog::EventLog> inner, AuditProgress* progress)
      : inner_(std::move(inner)), progress_(progress) {}
  absl::Status TakeCommitted();
  absl::Status TakeEnds();

  const std::unique_ptr<eventlog::EventLog> inner_;
  AuditProgress* const progress_;
  std::vector<eventlog::TopicConfig> topics_;
  std::map<std::pair<std::string, int>, int64_t> ends_;
  // (group, topic, partition) → committed position.
  std::map<std::tuple<std::string, std::string, int>, int64_t> committed_;
};

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_AUDITED_LOG_H_
