#include "libs/eventlog/partition_index.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/journal_format.h"

namespace banca::eventlog::internal {

PartitionIndex::PartitionIndex() {
  BANCA_CHECK(AddTopic(kTopicsTopic, 1).ok());
  BANCA_CHECK(AddTopic(kOffsetsTopic, 1).ok());
  BANCA_CHECK(FindTopic(kTopicsTopic)->first_stream == kTopicsStream);
  BANCA_CHECK(FindTopic(kOffsetsTopic)->first_stream == kOffsetsStream);
}

const PartitionIndex::Topic* PartitionIndex::FindTopic(
    std::string_view name) const {
  auto it = topics_.find(ToAbsl(name));
  return it == topics_.end() ? nullptr : &it->second;
}

absl::Status PartitionIndex::AddTopic(std::string_view name, int partitions) {
  if (partitions <= 0 || partitions > kMaxPartitions) {
    return absl::InvalidArgumentError(
        absl::StrCat("partitions must be 1..", kMaxPartitions));
  }
  if (topics_.contains(ToAbsl(name))) {
    return absl::AlreadyExistsError(
        absl::StrCat("topic ", ToAbsl(name), " exists"));
  }
  if (topics_.size() >= kMaxTopics ||
      positions_.size() + static_cast<size_t>(partitions) > kMaxStreams) {
    return absl::ResourceExhaustedError(
        absl::StrCat("too many topics or partitions (limits ", kMaxTopics,
                     " topics, ", kMaxStreams, " partitions)"));
  }
  topics_.emplace(std::string(name),
                  Topic{partitions, static_cast<uint32_t>(positions_.size())});
  positions_.resize(positions_.size() + static_cast<size_t>(partitions));
  return absl::OkStatus();
}

void PartitionIndex::AddRecord(uint32_t stream, int64_t offset, int64_t pos) {
  BANCA_CHECK(stream < positions_.size());
  std::vector<int64_t>& v = positions_[stream];
  BANCA_CHECK(static_cast<int64_t>(v.size()) == offset);
  BANCA_CHECK(v.empty() || v.back() < pos);
  v.push_back(pos);
}

void PartitionIndex::ApplyCommit(const OffsetCommit& c) {
  committed_[std::make_tuple(c.group, c.topic, c.partition)] = c.next_offset;
}

int64_t PartitionIndex::EndOffset(uint32_t stream) const {
  BANCA_CHECK(stream < positions_.size());
  return static_cast<int64_t>(positions_[stream].size());
}

absl::Span<const int64_t> PartitionIndex::Positions(uint32_t stream) const {
  BANCA_CHECK(stream < positions_.size());
  return positions_[stream];
}

int64_t PartitionIndex::Committed(std::string_view group,
                                  std::string_view topic, int partition) const {
  auto it = committed_.find(
      std::make_tuple(std::string(group), std::string(topic), partition));
  return it == committed_.end() ? 0 : it->second;
}

std::vector<TopicConfig> PartitionIndex::Topics() const {
  std::vector<TopicConfig> out;
  out.reserve(topics_.size());
  for (const auto& [name, t] : topics_) {
    out.push_back(TopicConfig{name, t.partitions});
  }
  std::sort(out.begin(), out.end(),
            [](const TopicConfig& a, const TopicConfig& b) {
              return a.name < b.name;
            });
  return out;
}

}  // namespace banca::eventlog::internal
