// The in-memory index of the embedded log: topics, the journal position of
// every record of every partition, and committed consumer offsets. It holds
// only durable state; the log rebuilds it from the journal on open and
// extends it after each fdatasync.
//
// Memory: 8 bytes per record (one int64 journal position per offset), plus
// small per-topic and per-commit entries. 100 million records cost ~800 MB;
// a sparse index (one position per N offsets and a forward scan) is the fix
// if that ever matters.
#ifndef BANCA_LIBS_EVENTLOG_PARTITION_INDEX_H_
#define BANCA_LIBS_EVENTLOG_PARTITION_INDEX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "libs/eventlog/event_log.h"

namespace banca::eventlog::internal {

// Bounds the index's fixed overhead (every partition of every topic is a
// stream with its own position vector).
inline constexpr size_t kMaxTopics = 10'000;
inline constexpr size_t kMaxStreams = 200'000;

inline constexpr uint32_t kTopicsStream = 0;
inline constexpr uint32_t kOffsetsStream = 1;

class PartitionIndex {
 public:
  struct Topic {
    int partitions = 0;
    // Stream id of partition 0; partition p is first_stream + p.
    uint32_t first_stream = 0;
  };

  // Starts with the internal topics (one partition each).
  PartitionIndex();

  const Topic* FindTopic(std::string_view name) const;
  // Fails if the topic exists or a limit would be passed.
  absl::Status AddTopic(std::string_view name, int partitions);
  // Records that `offset` of `stream` is at journal position `pos`; offsets
  // arrive densely and in order.
  void AddRecord(uint32_t stream, int64_t offset, int64_t pos);
  void ApplyCommit(const OffsetCommit& c);

  size_t stream_count() const { return positions_.size(); }
  int64_t EndOffset(uint32_t stream) const;
  absl::Span<const int64_t> Positions(uint32_t stream) const;
  int64_t Committed(std::string_view group, std::string_view topic,
                    int partition) const;
  // Every topic, internal ones included, sorted by name.
  std::vector<TopicConfig> Topics() const;

 private:
  absl::flat_hash_map<std::string, Topic> topics_;
  std::vector<std::vector<int64_t>> positions_;
  absl::flat_hash_map<std::tuple<std::string, std::string, int>, int64_t>
      committed_;
};

}  // namespace banca::eventlog::internal

#endif  // BANCA_LIBS_EVENTLOG_PARTITION_INDEX_H_
