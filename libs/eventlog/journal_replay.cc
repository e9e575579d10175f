#include "libs/eventlog/journal_replay.h"

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/validation.h"

namespace banca::eventlog::internal {

absl::Status ReplayVisitor::OnRecord(int64_t pos, const RecordView& r) {
  const PartitionIndex::Topic* t = index_->FindTopic(r.topic);
  if (t == nullptr) {
    return absl::DataLossError(
        absl::StrCat("record of unknown topic ", ToAbsl(r.topic)));
  }
  if (r.partition >= t->partitions) {
    return absl::DataLossError(absl::StrCat("record of ", ToAbsl(r.topic),
                                            " has partition ", r.partition,
                                            " of ", t->partitions));
  }
  const uint32_t stream = t->first_stream + static_cast<uint32_t>(r.partition);
  auto [it, inserted] = next_offset_.try_emplace(stream, 0);
  if (inserted) it->second = index_->EndOffset(stream);
  if (r.offset != it->second) {
    return absl::DataLossError(
        absl::StrCat("record ", ToAbsl(r.topic), "/", r.partition,
                     " has offset ", r.offset, ", expected ", it->second));
  }
  ++it->second;
  if (stream == kTopicsStream) {
    PendingTopic topic{std::string(r.key), 0};
    if (!ValidateTopicName(topic.name).ok() ||
        !DecodeTopicValue(r.value, &topic.partitions)) {
      return absl::DataLossError("malformed topic record");
    }
    topics_.push_back(std::move(topic));
  } else if (stream == kOffsetsStream) {
    OffsetCommit c;
    if (!DecodeCommitValue(r.value, &c)) {
      return absl::DataLossError("malformed consumer offset record");
    }
    commits_.push_back(std::move(c));
  }
  records_.push_back(Pending{stream, r.offset, pos});
  return absl::OkStatus();
}

absl::Status ReplayVisitor::OnBatchEnd() {
  for (const Pending& p : records_)
    index_->AddRecord(p.stream, p.offset, p.pos);
  for (const PendingTopic& t : topics_) {
    if (absl::Status s = index_->AddTopic(t.name, t.partitions); !s.ok()) {
      return absl::DataLossError(
          absl::StrCat("topic record rejected: ", s.message()));
    }
  }
  for (const OffsetCommit& c : commits_) {
    const PartitionIndex::Topic* t = index_->FindTopic(c.topic);
    if (t == nullptr || c.partition >= t->partitions) {
      return absl::DataLossError(absl::StrCat(
          "offset commit for unknown partition ", c.topic, "/", c.partition));
    }
    index_->ApplyCommit(c);
  }
  records_.clear();
  next_offset_.clear();
  topics_.clear();
  commits_.clear();
  return absl::OkStatus();
}

}  // namespace banca::eventlog::internal
