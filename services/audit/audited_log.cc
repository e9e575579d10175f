#include "services/audit/audited_log.h"

#include <algorithm>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/group_member.h"
#include "libs/wire/topics.h"

namespace banca::audit {
namespace {

absl::Status ReadOnly() {
  return absl::FailedPreconditionError(
      "the audit reads the log and never writes it");
}

// The request topics whose readers' positions the audit takes.
constexpr const wire::TableTopics* kRequestTopics[] = {
    &wire::kPokerTableTopics,
    &wire::kBankedTableTopics,
    &wire::kTournamentTopics,
};

}  // namespace

absl::StatusOr<std::unique_ptr<AuditedLog>> AuditedLog::Open(
    std::unique_ptr<eventlog::EventLog> inner, AuditProgress* progress) {
  std::unique_ptr<AuditedLog> log(new AuditedLog(std::move(inner), progress));
  ASSIGN_OR_RETURN(log->topics_, log->inner_->ListTopics());
  // A Kafka cluster's own topics ("__consumer_offsets", ...) are not
  // banca's.
  std::erase_if(log->topics_, [](const eventlog::TopicConfig& t) {
    return t.name.starts_with("__");
  });
  // Positions first, then the ends: the range holds what they promise.
  RETURN_IF_ERROR(log->TakeCommitted());
  RETURN_IF_ERROR(log->TakeEnds());
  return log;
}

absl::Status AuditedLog::TakeCommitted() {
  auto partitions = [&](std::string_view topic) {
    return inner_->PartitionCount(topic).value_or(0);
  };
  const int wallet_partitions = partitions(wire::kWalletTopic);
  for (const wire::TableTopics* t : kRequestTopics) {
    const int n = partitions(t->requests_topic);
    // ReaderPositions: "<group>", and "<group>.<p>" per wallet partition.
    std::vector<std::string> groups = {std::string(t->requests_group)};
    for (int w = 0; w < wallet_partitions; ++w) {
      groups.push_back(absl::StrCat(ToAbsl(t->requests_group), ".", w));
    }
    for (const std::string& group : groups) {
      for (int p = 0; p < n; ++p) {
        ASSIGN_OR_RETURN(int64_t at,
                         inner_->CommittedOffset(group, t->requests_topic, p));
        committed_[{group, std::string(t->requests_topic), p}] = at;
      }
    }
  }
  return absl::OkStatus();
}

absl::Status AuditedLog::TakeEnds() {
  for (const eventlog::TopicConfig& t : topics_) {
    for (int p = 0; p < t.partitions; ++p) {
      if (ends_.size() >= kMaxAuditedPartitions) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "more than ", kMaxAuditedPartitions, " partitions to audit"));
      }
      ASSIGN_OR_RETURN(int64_t end, inner_->EndOffset(t.name, p));
      ends_[{t.name, p}] = end;
    }
  }
  return absl::OkStatus();
}

absl::Status AuditedLog::EnsureTopic(const eventlog::TopicConfig&) {
  return ReadOnly();
}

absl::StatusOr<int> AuditedLog::PartitionCount(std::string_view topic) {
  for (const eventlog::TopicConfig& t : topics_) {
    if (t.name == topic) return t.partitions;
  }
  return absl::NotFoundError(
      absl::StrCat("no topic ", ToAbsl(topic), " in the audited range"));
}

void AuditedLog::AppendAsync(std::vector<eventlog::Record>,
                             std::vector<eventlog::OffsetCommit>,
                             eventlog::AppendCallback done) {
  done(ReadOnly(), {});
}

absl::StatusOr<std::vector<eventlog::StoredRecord>> AuditedLog::Read(
    std::string_view topic, int partition, int64_t offset, size_t max_records) {
  ASSIGN_OR_RETURN(const int64_t end, EndOffset(topic, partition));
  if (offset > end) {
    return absl::OutOfRangeError(
        absl::StrCat("offset ", offset, " past the audited end ", end, " of ",
                     ToAbsl(topic), "/", partition));
  }
  if (offset == end) return std::vector<eventlog::StoredRecord>{};
  const size_t room = static_cast<size_t>(end - offset);
  ASSIGN_OR_RETURN(
      std::vector<eventlog::StoredRecord> records,
      inner_->Read(topic, partition, offset, std::min(max_records, room)));
  std::erase_if(records, [end](const eventlog::StoredRecord& r) {
    return r.offset >= end;
  });
  if (progress_ != nullptr) {
    progress_->Add(static_cast<int64_t>(records.size()));
  }
  return records;
}

absl::StatusOr<int64_t> AuditedLog::EndOffset(std::string_view topic,
                                              int partition) {
  auto it = ends_.find({std::string(topic), partition});
  if (it == ends_.end()) {
    return absl::NotFoundError(absl::StrCat("no partition ", ToAbsl(topic), "/",
                                            partition,
                                            " in the audited range"));
  }
  return it->second;
}

absl::Status AuditedLog::CommitOffsets(std::vector<eventlog::OffsetCommit>) {
  return ReadOnly();
}

absl::StatusOr<int64_t> AuditedLog::CommittedOffset(std::string_view group,
                                                    std::string_view topic,
                                                    int partition) {
  auto it =
      committed_.find({std::string(group), std::string(topic), partition});
  if (it != committed_.end()) return it->second;
  // A position the audit did not take first: bounded by the range.
  ASSIGN_OR_RETURN(int64_t at,
                   inner_->CommittedOffset(group, topic, partition));
  ASSIGN_OR_RETURN(const int64_t end, EndOffset(topic, partition));
  return std::min(at, end);
}

absl::StatusOr<std::vector<eventlog::TopicConfig>> AuditedLog::ListTopics() {
  return topics_;
}

absl::StatusOr<std::unique_ptr<eventlog::GroupMember>> AuditedLog::JoinGroup(
    const eventlog::GroupOptions&) {
  return ReadOnly();
}

}  // namespace banca::audit
