#include "libs/eventlog/validation.h"

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"

namespace banca::eventlog::internal {

absl::Status ValidateTopicName(std::string_view name) {
  if (name.empty() || name.size() > kMaxTopicNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("topic name must have 1..", kMaxTopicNameBytes,
                     " bytes, got ", name.size()));
  }
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!ok) {
      return absl::InvalidArgumentError(
          "topic name may only contain [A-Za-z0-9._-]");
    }
  }
  return absl::OkStatus();
}

bool IsInternalTopic(std::string_view name) { return name.starts_with("__"); }

absl::Status ValidateRecord(const Record& r) {
  RETURN_IF_ERROR(ValidateTopicName(r.topic));
  if (IsInternalTopic(r.topic)) {
    return absl::InvalidArgumentError(
        absl::StrCat("topic ", r.topic, " is internal to the log"));
  }
  if (r.partition < -1 || r.partition >= kMaxPartitions) {
    return absl::InvalidArgumentError(
        absl::StrCat("partition ", r.partition, " out of range"));
  }
  if (r.timestamp_micros < 0) {
    return absl::InvalidArgumentError("negative timestamp");
  }
  if (r.key.size() > kMaxKeyBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("key of ", r.key.size(), " bytes exceeds ", kMaxKeyBytes));
  }
  if (r.headers.size() > kMaxHeaders) {
    return absl::InvalidArgumentError(absl::StrCat(
        r.headers.size(), " headers exceed the limit of ", kMaxHeaders));
  }
  // The record's size is everything the caller supplied: key, value and
  // headers, so headers cannot be used to smuggle past the limit.
  size_t bytes = r.key.size() + r.value.size();
  for (const Header& h : r.headers) {
    if (h.key.size() > kMaxKeyBytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          "header key of ", h.key.size(), " bytes exceeds ", kMaxKeyBytes));
    }
    bytes += h.key.size() + h.value.size();
  }
  if (bytes > kMaxRecordBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("record of ", bytes, " bytes exceeds ", kMaxRecordBytes));
  }
  return absl::OkStatus();
}

absl::Status ValidateCommit(const OffsetCommit& c) {
  if (c.group.empty() || c.group.size() > kMaxKeyBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("group name must have 1..", kMaxKeyBytes, " bytes"));
  }
  RETURN_IF_ERROR(ValidateTopicName(c.topic));
  if (c.partition < 0 || c.partition >= kMaxPartitions) {
    return absl::InvalidArgumentError(
        absl::StrCat("partition ", c.partition, " out of range"));
  }
  if (c.next_offset < 0) {
    return absl::InvalidArgumentError("negative next_offset");
  }
  return absl::OkStatus();
}

}  // namespace banca::eventlog::internal
