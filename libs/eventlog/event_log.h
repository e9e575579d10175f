// The event log: the one source of truth every projection is rebuilt from.
//
// Semantics are Kafka's, so the embedded backend and the Kafka backend are
// interchangeable:
//  - a topic has a fixed number of partitions; a record goes to partition
//    PartitionForKey(key, partitions) unless the caller names one;
//  - offsets are per partition, strictly increasing, starting at 0; dense
//    on the embedded backend, with gaps on Kafka (transaction markers take
//    offsets), so readers go on from the last record's offset + 1;
//  - Append(batch) is atomic across the whole batch (all of it is stored, or
//    none of it) and durable before its callback runs;
//  - records of one partition are read back in offset order; appends that a
//    caller issued in some order land in that order within each partition;
//  - consumer groups commit offsets durably; an offset commit may ride in the
//    same atomic batch as records (consume-transform-produce exactly once);
//  - a consumer group's members share a topic's partitions, and their
//    appends are fenced when the group has moved on (group_member.h).
#ifndef BANCA_LIBS_EVENTLOG_EVENT_LOG_H_
#define BANCA_LIBS_EVENTLOG_EVENT_LOG_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace banca::eventlog {

// Limits on everything (they are checked, and the check is an error, not a
// crash): a record larger than this is INVALID_ARGUMENT.
inline constexpr size_t kMaxRecordBytes = 1 << 20;  // 1 MiB
inline constexpr size_t kMaxBatchRecords = 10'000;
inline constexpr size_t kMaxKeyBytes = 256;
inline constexpr size_t kMaxHeaders = 32;
inline constexpr size_t kMaxTopicNameBytes = 200;
inline constexpr int kMaxPartitions = 1024;

struct Header {
  std::string key;
  std::string value;
  bool operator==(const Header&) const = default;
};

// A record to append.
struct Record {
  std::string topic;
  std::string key;
  std::vector<Header> headers;
  std::string value;
  // -1: choose by PartitionForKey(key, partitions).
  int partition = -1;
  // Producer timestamp, microseconds since the Unix epoch. 0: the log stamps
  // it with its own clock when it appends.
  int64_t timestamp_micros = 0;
};

// A record as stored.
struct StoredRecord {
  std::string topic;
  int partition = 0;
  int64_t offset = 0;
  int64_t timestamp_micros = 0;
  std::string key;
  std::vector<Header> headers;
  std::string value;
};

struct Position {
  std::string topic;
  int partition = 0;
  int64_t offset = 0;
  bool operator==(const Position&) const = default;
};

// A consumer group's committed position: `next_offset` is the first offset
// the group has not yet processed.
struct OffsetCommit {
  std::string group;
  std::string topic;
  int partition = 0;
  int64_t next_offset = 0;
};

struct TopicConfig {
  std::string name;
  int partitions = 1;
};

// Called exactly once per AppendAsync, from a log thread, after the batch is
// durable (status OK, positions in batch order) or has definitely failed.
using AppendCallback =
    std::function<void(absl::Status, std::vector<Position> positions)>;

// Murmur2 as Kafka's default partitioner uses it, so a key lands in the same
// partition number on both backends.
int PartitionForKey(std::string_view key, int partitions);

class GroupMember;    // group_member.h
struct GroupOptions;  // group_member.h

class EventLog {
 public:
  virtual ~EventLog() = default;

  // Creates the topic, or checks an existing one has `partitions` partitions
  // (FAILED_PRECONDITION if not). Idempotent.
  virtual absl::Status EnsureTopic(const TopicConfig& config) = 0;
  // NOT_FOUND if the topic does not exist.
  virtual absl::StatusOr<int> PartitionCount(std::string_view topic) = 0;

  // Appends atomically and durably. Callers that issue AppendAsync calls one
  // after another (even from different threads, ordered by a lock of theirs)
  // get that order within every partition. The callback may run before
  // AppendAsync returns. Invalid input (unknown topic, partition out of
  // range, limits exceeded) fails the callback with INVALID_ARGUMENT or
  // NOT_FOUND and stores nothing; `commits` are stored atomically with
  // `records`.
  virtual void AppendAsync(std::vector<Record> records,
                           std::vector<OffsetCommit> commits,
                           AppendCallback done) = 0;

  // Blocking convenience over AppendAsync.
  absl::StatusOr<std::vector<Position>> Append(
      std::vector<Record> records, std::vector<OffsetCommit> commits = {});

  // Up to `max_records` records of one partition starting at `offset`
  // (fewer, possibly none, at the end). Only durable records are visible.
  // OUT_OF_RANGE if offset > EndOffset.
  virtual absl::StatusOr<std::vector<StoredRecord>> Read(
      std::string_view topic, int partition, int64_t offset,
      size_t max_records) = 0;

  // One past the last durable offset of the partition.
  virtual absl::StatusOr<int64_t> EndOffset(std::string_view topic,
                                            int partition) = 0;

  // Commits without records. Durable on return.
  virtual absl::Status CommitOffsets(std::vector<OffsetCommit> commits) = 0;
  // 0 when the group never committed for that partition.
  virtual absl::StatusOr<int64_t> CommittedOffset(std::string_view group,
                                                  std::string_view topic,
                                                  int partition) = 0;

  // Topics that exist, for tools (`banca log stats`).
  virtual absl::StatusOr<std::vector<TopicConfig>> ListTopics() = 0;

  // Joins a consumer group sharing `options.topic` (group_member.h).
  // NOT_FOUND if the topic does not exist; INVALID_ARGUMENT for bad
  // options; UNIMPLEMENTED on a log that has no groups.
  virtual absl::StatusOr<std::unique_ptr<GroupMember>> JoinGroup(
      const GroupOptions& options);
};

// Runs `start` with a callback and blocks until the callback has run; the
// blocking form of any AppendAsync.
absl::StatusOr<std::vector<Position>> AwaitAppend(
    absl::FunctionRef<void(AppendCallback)> start);

// Replays and reports read a partition from some offset to the end it had
// when the call began: `visit` sees every record in offset order, `batch`
// records per Read. Stops at the first error, the log's or `visit`'s, and
// returns it. Returns the offset after the last record read (`from` when
// there were none), where a later call goes on.
using RecordVisitor = absl::FunctionRef<absl::Status(const StoredRecord&)>;
absl::StatusOr<int64_t> ReadPartitionToEnd(EventLog& log,
                                           std::string_view topic,
                                           int partition, int64_t from,
                                           RecordVisitor visit,
                                           size_t batch = 8192);

}  // namespace banca::eventlog

#endif  // BANCA_LIBS_EVENTLOG_EVENT_LOG_H_
