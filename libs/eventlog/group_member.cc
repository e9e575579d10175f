#include "libs/eventlog/group_member.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/validation.h"

namespace banca::eventlog {

absl::StatusOr<std::vector<Position>> GroupMember::Append(
    std::vector<Record> records, std::vector<OffsetCommit> commits) {
  return AwaitAppend([&](AppendCallback done) {
    AppendAsync(std::move(records), std::move(commits), std::move(done));
  });
}

absl::Status GroupMember::CheckCommits(const std::vector<OffsetCommit>& commits,
                                       const Assignment& assignment) const {
  if (commits.empty()) {
    // Fencing rides on the offset commit (KIP-447): without one, Kafka
    // would not check the member's generation.
    return absl::InvalidArgumentError(
        "a group member's append must carry an offset commit");
  }
  for (const OffsetCommit& c : commits) {
    RETURN_IF_ERROR(internal::ValidateCommit(c));
    if (c.group != group_ || c.topic != topic_) {
      return absl::InvalidArgumentError(absl::StrCat(
          "member of group ", group_, " on topic ", topic_,
          " cannot commit for group ", c.group, " on topic ", c.topic));
    }
    if (!std::binary_search(assignment.partitions.begin(),
                            assignment.partitions.end(), c.partition)) {
      return absl::FailedPreconditionError(
          absl::StrCat("partition ", c.partition, " of ", topic_,
                       " is not assigned to this member of group ", group_,
                       " (epoch ", assignment.epoch, ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateGroupOptions(const GroupOptions& options) {
  if (options.group.empty() || options.group.size() > kMaxKeyBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("group name must be 1..", kMaxKeyBytes, " bytes"));
  }
  RETURN_IF_ERROR(internal::ValidateTopicName(options.topic));
  if (internal::IsInternalTopic(options.topic)) {
    return absl::InvalidArgumentError(
        absl::StrCat("topic ", options.topic, " belongs to the log"));
  }
  if (options.session_timeout_ms < kMinSessionTimeoutMs ||
      options.session_timeout_ms > kMaxSessionTimeoutMs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "session_timeout_ms must be in [", kMinSessionTimeoutMs, ", ",
        kMaxSessionTimeoutMs, "], got ", options.session_timeout_ms));
  }
  return absl::OkStatus();
}

}  // namespace banca::eventlog
