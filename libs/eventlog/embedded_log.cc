#include "libs/eventlog/embedded_log.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <limits>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/check.h"
#include "libs/common/crc32c.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/file_window.h"
#include "libs/eventlog/group_coordinator.h"
#include "libs/eventlog/group_member.h"
#include "libs/eventlog/journal_format.h"
#include "libs/eventlog/journal_replay.h"
#include "libs/eventlog/journal_scan.h"
#include "libs/eventlog/partition_index.h"
#include "libs/eventlog/validation.h"

namespace banca::eventlog {
namespace {

using ::banca::ToAbsl;

using internal::AppendFrame;
using internal::kFrameHeaderBytes;
using internal::kOffsetsStream;
using internal::kOffsetsTopic;
using internal::kTopicsStream;
using internal::kTopicsTopic;
using internal::PartitionIndex;
using internal::RecordFields;

// The log holds every hand's deck and every balance: its owner's alone,
// whatever the process's umask (docs/security.md).
constexpr mode_t kFileMode = 0600;
constexpr mode_t kDirMode = 0700;

// Appenders block once this much encoded data waits for the writer, so a
// slow disk turns into back-pressure instead of unbounded memory.
constexpr size_t kMaxQueuedBytes = 128 << 20;
constexpr int64_t kMaxSegmentBytes = 1LL << 30;
// The active segment is extended with written zeros this much at a time.
// fdatasync of an overwrite inside the file's size needs no metadata commit,
// which makes it 2-3x cheaper on ext4 than a sync of an append that grows
// the file; the zeros are cut off when the segment is sealed or closed, and
// after a crash they look like (and are removed as) a torn tail.
constexpr int64_t kPreallocBytes = 4 << 20;
// One Read returns at most this many records / about this many bytes (at
// least one record), whatever max_records says.
constexpr size_t kMaxReadRecords = 100'000;
constexpr size_t kMaxReadBytes = 16 << 20;
constexpr size_t kMinReadChunk = 64 << 10;
constexpr size_t kMaxReadChunk = 1 << 20;

absl::Status Errno(std::string_view what, const std::string& path) {
  return absl::ErrnoToStatus(errno, absl::StrCat(ToAbsl(what), " ", path));
}

absl::Status SyncDir(const std::string& dir) {
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Errno("open", dir);
  const int rc = fsync(fd);
  const int err = errno;
  close(fd);
  if (rc != 0) {
    errno = err;
    return Errno("fsync", dir);
  }
  return absl::OkStatus();
}

absl::Status PWriteAll(int fd, const char* p, size_t n, int64_t off,
                       const std::string& path) {
  while (n > 0) {
    const ssize_t w = pwrite(fd, p, n, off);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Errno("write", path);
    }
    BANCA_CHECK(w > 0);
    p += w;
    n -= static_cast<size_t>(w);
    off += w;
  }
  return absl::OkStatus();
}

struct Segment {
  Segment(int64_t b, std::string p, int f)
      : base(b), path(std::move(p)), fd(f) {}
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;
  ~Segment() { close(fd); }
  const int64_t base;
  const std::string path;
  const int fd;
};

// A record waiting for the writer: where its frame sits in the group buffer
// and which partition offset it got.
struct IndexEntry {
  uint32_t stream;
  int64_t offset;
  size_t buf_pos;
};

struct PendingBatch {
  size_t buf_begin = 0;
  size_t buf_end = 0;
  size_t entries_begin = 0;
  size_t entries_end = 0;
  AppendCallback done;
  std::vector<Position> positions;
  std::vector<OffsetCommit> commits;
  std::optional<TopicConfig> new_topic;
  absl::Status status;
  // 1, 2, 3... in queue order (CommittedOffset waits for commits by it).
  int64_t sequence = 0;
};

// Everything appended since the writer last took the queue: the frames of
// all batches back to back, so one group is one write.
struct Group {
  std::string buf;
  std::vector<IndexEntry> entries;
  std::vector<PendingBatch> batches;
  void Clear() {
    buf.clear();
    entries.clear();
    batches.clear();
  }
};

// A batch on its way into the queue: shape-checked and sized before the
// lock (SizeBatch), its partitions resolved under it (ResolveLocked).
struct NewBatch {
  std::vector<Record> records;
  std::vector<OffsetCommit> commits;
  std::vector<std::string> commit_values;  // the commits, encoded
  int64_t now = 0;   // the time of records that carry none
  size_t bytes = 0;  // at least the batch's frames
  absl::InlinedVector<uint32_t, 4> streams;  // per record
  std::vector<Position> positions;           // per record
};

// Checks the batch's shape and bounds its size (records, then commits).
absl::Status SizeBatch(NewBatch& b) {
  if (b.records.size() + b.commits.size() > kMaxBatchRecords) {
    return absl::InvalidArgumentError(
        absl::StrCat("batch of ", b.records.size() + b.commits.size(),
                     " records and commits exceeds ", kMaxBatchRecords));
  }
  for (const Record& r : b.records) {
    RETURN_IF_ERROR(internal::ValidateRecord(r));
    RecordFields f;
    f.topic = r.topic;
    f.partition = kMaxPartitions;
    f.timestamp_micros = r.timestamp_micros == 0 ? b.now : r.timestamp_micros;
    f.key = r.key;
    f.headers = r.headers;
    f.value = r.value;
    b.bytes += kFrameHeaderBytes + internal::MaxBodySize(f);
  }
  b.commit_values.reserve(b.commits.size());
  for (const OffsetCommit& c : b.commits) {
    RETURN_IF_ERROR(internal::ValidateCommit(c));
    b.commit_values.push_back(internal::EncodeCommitValue(c));
    RecordFields f;
    f.topic = kOffsetsTopic;
    f.timestamp_micros = b.now;
    f.key = c.group;
    f.value = b.commit_values.back();
    b.bytes += kFrameHeaderBytes + internal::MaxBodySize(f);
  }
  if (b.bytes > internal::kMaxBatchBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "batch of ~", b.bytes, " bytes exceeds ", internal::kMaxBatchBytes));
  }
  return absl::OkStatus();
}

class EmbeddedLog final : public EventLog {
 public:
  EmbeddedLog(std::string dir, const EmbeddedLogOptions& options, int lock_fd,
              PartitionIndex index,
              std::vector<std::shared_ptr<Segment>> segments,
              int64_t active_size)
      : dir_(std::move(dir)),
        options_(options),
        lock_fd_(lock_fd),
        active_(segments.empty() ? nullptr : segments.back()),
        active_size_(active_size),
        allocated_(active_size),
        index_(std::move(index)),
        segments_(std::move(segments)) {
    for (const TopicConfig& t : index_.Topics()) {
      const PartitionIndex::Topic* it = index_.FindTopic(t.name);
      assign_topics_[t.name] = *it;
    }
    next_offset_.resize(index_.stream_count());
    for (uint32_t s = 0; s < next_offset_.size(); ++s) {
      next_offset_[s] = index_.EndOffset(s);
    }
    writer_ = std::thread([this] { WriterLoop(); });
    completer_ = std::thread([this] { CompleterLoop(); });
  }

  ~EmbeddedLog() override {
    {
      std::lock_guard l(mu_);
      stopping_ = true;
    }
    work_cv_.notify_one();
    room_cv_.notify_all();
    writer_.join();
    {
      std::lock_guard l(done_mu_);
      done_stopping_ = true;
    }
    done_cv_.notify_one();
    completer_.join();
    // Cut the preallocated zeros so a cleanly closed log has no tail.
    if (allocated_ > active_size_ && !options_.read_only) (void)TrimActive();
    if (lock_fd_ >= 0) close(lock_fd_);
  }

  absl::Status EnsureTopic(const TopicConfig& config) override;
  absl::StatusOr<int> PartitionCount(std::string_view topic) override;
  void AppendAsync(std::vector<Record> records,
                   std::vector<OffsetCommit> commits,
                   AppendCallback done) override;
  absl::StatusOr<std::vector<StoredRecord>> Read(std::string_view topic,
                                                 int partition, int64_t offset,
                                                 size_t max_records) override;
  absl::StatusOr<int64_t> EndOffset(std::string_view topic,
                                    int partition) override;
  absl::Status CommitOffsets(std::vector<OffsetCommit> commits) override;
  absl::StatusOr<int64_t> CommittedOffset(std::string_view group,
                                          std::string_view topic,
                                          int partition) override;
  absl::StatusOr<std::vector<TopicConfig>> ListTopics() override;
  absl::StatusOr<std::unique_ptr<GroupMember>> JoinGroup(
      const GroupOptions& options) override;

  // AppendAsync that first asks `fence`, under the lock that orders the
  // log, whether the batch may still be appended (a group member's
  // generation check); its error refuses the batch.
  using Fence = absl::FunctionRef<absl::Status()>;
  void AppendFencedAsync(std::vector<Record> records,
                         std::vector<OffsetCommit> commits, const Fence* fence,
                         AppendCallback done);
  internal::GroupCoordinator& groups() { return groups_; }

 private:
  absl::Status RefuseLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The partition and stream of each record, and each commit's partition
  // checked.
  absl::Status ResolveLocked(NewBatch& b) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Encodes a resolved batch into the queue; true when the writer needs a
  // wake-up.
  bool QueueLocked(NewBatch b, AppendCallback done)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Appends one record's frame to the queue (the body of QueueLocked).
  void EncodeLocked(const RecordFields& r, uint32_t stream)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<uint32_t> StreamLocked(std::string_view topic,
                                        int partition) const
      ABSL_SHARED_LOCKS_REQUIRED(index_mu_);

  void WriterLoop();
  absl::Status WriteGroup(Group& g);
  absl::Status Roll();
  // Makes the active segment at least `bytes` long (zeros, not yet synced).
  absl::Status Preallocate(int64_t bytes);
  // Truncates the active segment to its records and syncs it.
  absl::Status TrimActive();
  void Publish(Group& g, size_t from, size_t to, int64_t delta);
  void Complete(Group& g, size_t from, size_t to, const absl::Status& status);
  void CompleterLoop();

  const std::string dir_;
  const EmbeddedLogOptions options_;
  const int lock_fd_;

  // Append side: offsets are assigned and frames encoded under mu_, so the
  // journal order is the order AppendAsync calls took this lock.
  // Plain std primitives rather than absl::Mutex: Debian's Abseil is not
  // built with TSAN annotations, so ThreadSanitizer could not see through
  // absl::Mutex and this code could not be race-checked.
  std::mutex mu_;
  std::condition_variable work_cv_;  // writer: queue_ not empty / stopping
  std::condition_variable room_cv_;  // appenders: queue_ has room
  absl::flat_hash_map<std::string, PartitionIndex::Topic> assign_topics_
      ABSL_GUARDED_BY(mu_);
  std::vector<int64_t> next_offset_ ABSL_GUARDED_BY(mu_);
  Group queue_ ABSL_GUARDED_BY(mu_);
  // Sticky: after a failed write or fsync nothing is written again (the
  // page cache can no longer be trusted to match the file).
  absl::Status failed_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;

  // Writer thread only.
  std::shared_ptr<Segment> active_;
  // Bytes of records in the active segment.
  int64_t active_size_;
  // File size of the active segment (records plus preallocated zeros).
  int64_t allocated_;
  Group writing_;

  // Durable state, read by readers, extended by the writer after fsync.
  mutable std::shared_mutex index_mu_;
  // EnsureTopic waiting for another caller's topic record to be durable.
  std::condition_variable_any index_cv_;
  PartitionIndex index_ ABSL_GUARDED_BY(index_mu_);
  std::vector<std::shared_ptr<Segment>> segments_ ABSL_GUARDED_BY(index_mu_);
  absl::Status index_failed_ ABSL_GUARDED_BY(index_mu_);

  // Callbacks run on their own thread so the writer can start the next
  // write while they run.
  std::mutex done_mu_;
  std::condition_variable done_cv_;
  std::deque<std::vector<PendingBatch>> done_queue_ ABSL_GUARDED_BY(done_mu_);
  bool done_stopping_ ABSL_GUARDED_BY(done_mu_) = false;

  // Offset commits are stable for readers once every batch queued before
  // the read that carries commits is complete.
  int64_t queued_batches_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t last_commit_batch_ ABSL_GUARDED_BY(mu_) = 0;
  std::mutex completed_mu_;
  std::condition_variable completed_cv_;
  int64_t completed_batches_ ABSL_GUARDED_BY(completed_mu_) = 0;

  internal::GroupCoordinator groups_;

  std::thread writer_;
  std::thread completer_;
};

int64_t NowMicros() { return absl::ToUnixMicros(absl::Now()); }

// A member of one of the embedded log's consumer groups.
class EmbeddedGroupMember final : public GroupMember {
 public:
  EmbeddedGroupMember(EmbeddedLog& log, const GroupOptions& options, int64_t id)
      : GroupMember(options.group, options.topic), log_(log), id_(id) {}
  ~EmbeddedGroupMember() override {
    log_.groups().Leave(group(), id_, NowMicros());
  }

  absl::StatusOr<Assignment> Poll() override {
    Assignment a = log_.groups().Poll(group(), id_, NowMicros());
    std::lock_guard l(mu_);
    assignment_ = a;
    return a;
  }

  void AppendAsync(std::vector<Record> records,
                   std::vector<OffsetCommit> commits,
                   AppendCallback done) override {
    int64_t epoch = 0;
    {
      std::lock_guard l(mu_);
      if (absl::Status s = CheckCommits(commits, assignment_); !s.ok()) {
        done(std::move(s), {});
        return;
      }
      epoch = assignment_.epoch;
    }
    auto check = [&] {
      return log_.groups().CheckFence(group(), id_, epoch, NowMicros());
    };
    const EmbeddedLog::Fence fence(check);
    log_.AppendFencedAsync(std::move(records), std::move(commits), &fence,
                           std::move(done));
  }

 private:
  EmbeddedLog& log_;
  const int64_t id_;
  std::mutex mu_;
  Assignment assignment_ ABSL_GUARDED_BY(mu_);
};

absl::Status EmbeddedLog::RefuseLocked() const {
  if (options_.read_only) {
    return absl::FailedPreconditionError(
        absl::StrCat("event log ", dir_, " is open read-only"));
  }
  RETURN_IF_ERROR(Prefixed(failed_, "event log failed: "));
  if (stopping_) return absl::FailedPreconditionError("event log is closing");
  return absl::OkStatus();
}

void EmbeddedLog::EncodeLocked(const RecordFields& r, uint32_t stream) {
  queue_.entries.push_back(IndexEntry{stream, r.offset, queue_.buf.size()});
  AppendFrame(r, &queue_.buf);
}

absl::Status EmbeddedLog::EnsureTopic(const TopicConfig& config) {
  RETURN_IF_ERROR(internal::ValidateTopicName(config.name));
  if (internal::IsInternalTopic(config.name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("topic ", config.name, " is internal to the log"));
  }
  if (config.partitions <= 0 || config.partitions > kMaxPartitions) {
    return absl::InvalidArgumentError(
        absl::StrCat("partitions must be 1..", kMaxPartitions));
  }
  std::mutex created_mu;
  std::condition_variable created_cv;
  bool created = false;
  absl::Status result;
  bool queued = false;
  {
    std::lock_guard l(mu_);
    RETURN_IF_ERROR(RefuseLocked());
    auto it = assign_topics_.find(config.name);
    if (it != assign_topics_.end()) {
      if (it->second.partitions != config.partitions) {
        return absl::FailedPreconditionError(
            absl::StrCat("topic ", config.name, " has ", it->second.partitions,
                         " partitions, not ", config.partitions));
      }
    } else {
      if (assign_topics_.size() >= internal::kMaxTopics ||
          next_offset_.size() + static_cast<size_t>(config.partitions) >
              internal::kMaxStreams) {
        return absl::ResourceExhaustedError("too many topics or partitions");
      }
      const auto first = static_cast<uint32_t>(next_offset_.size());
      next_offset_.resize(next_offset_.size() + config.partitions, 0);
      assign_topics_[config.name] = {config.partitions, first};
      PendingBatch b;
      b.buf_begin = queue_.buf.size();
      b.entries_begin = queue_.entries.size();
      const std::string value = internal::EncodeTopicValue(config.partitions);
      RecordFields f;
      f.flags = internal::kFlagEndOfBatch;
      f.topic = kTopicsTopic;
      f.offset = next_offset_[kTopicsStream]++;
      f.timestamp_micros = absl::ToUnixMicros(absl::Now());
      f.key = config.name;
      f.value = value;
      EncodeLocked(f, kTopicsStream);
      b.buf_end = queue_.buf.size();
      b.entries_end = queue_.entries.size();
      b.new_topic = config;
      b.sequence = ++queued_batches_;
      b.done = [&](absl::Status s, std::vector<Position>) {
        std::lock_guard cl(created_mu);
        result = std::move(s);
        created = true;
        created_cv.notify_one();
      };
      queue_.batches.push_back(std::move(b));
      queued = true;
    }
  }
  if (queued) {
    work_cv_.notify_one();
    std::unique_lock cl(created_mu);
    created_cv.wait(cl, [&] { return created; });
    return result;
  }
  // Another caller created the topic; its record may not be durable yet.
  const std::string& name = config.name;
  std::shared_lock l(index_mu_);
  index_cv_.wait(l, [&]() ABSL_SHARED_LOCKS_REQUIRED(index_mu_) {
    return index_.FindTopic(name) != nullptr || !index_failed_.ok();
  });
  if (index_.FindTopic(name) != nullptr) return absl::OkStatus();
  return absl::Status(
      index_failed_.code(),
      absl::StrCat("event log failed: ", index_failed_.message()));
}

absl::StatusOr<int> EmbeddedLog::PartitionCount(std::string_view topic) {
  std::shared_lock l(index_mu_);
  const PartitionIndex::Topic* t = index_.FindTopic(topic);
  if (t == nullptr) {
    return absl::NotFoundError(absl::StrCat("no topic ", ToAbsl(topic)));
  }
  return t->partitions;
}

void EmbeddedLog::AppendAsync(std::vector<Record> records,
                              std::vector<OffsetCommit> commits,
                              AppendCallback done) {
  AppendFencedAsync(std::move(records), std::move(commits), nullptr,
                    std::move(done));
}

void EmbeddedLog::AppendFencedAsync(std::vector<Record> records,
                                    std::vector<OffsetCommit> commits,
                                    const Fence* fence, AppendCallback done) {
  BANCA_CHECK(done != nullptr);
  if (records.empty() && commits.empty()) {
    done(absl::OkStatus(), {});
    return;
  }
  NewBatch b;
  b.records = std::move(records);
  b.commits = std::move(commits);
  b.now = absl::ToUnixMicros(absl::Now());
  // Shape checks and sizes need no lock.
  if (absl::Status s = SizeBatch(b); !s.ok()) {
    done(std::move(s), {});
    return;
  }
  b.streams.resize(b.records.size());
  b.positions.resize(b.records.size());
  absl::Status refused;
  {
    std::unique_lock l(mu_);
    room_cv_.wait(l,
                  [this, bytes = b.bytes]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
                    return queue_.buf.empty() ||
                           queue_.buf.size() + bytes <= kMaxQueuedBytes ||
                           !failed_.ok() || stopping_;
                  });
    refused = RefuseLocked();
    if (refused.ok() && fence != nullptr) refused = (*fence)();
    if (refused.ok()) refused = ResolveLocked(b);
    if (refused.ok()) {
      const bool wake = QueueLocked(std::move(b), std::move(done));
      l.unlock();
      if (wake) work_cv_.notify_one();
      return;
    }
  }
  done(std::move(refused), {});
}

absl::Status EmbeddedLog::ResolveLocked(NewBatch& b) const {
  // Every record before any state changes, so a bad record in the middle
  // of a batch leaves nothing behind.
  for (size_t i = 0; i < b.records.size(); ++i) {
    const Record& r = b.records[i];
    auto it = assign_topics_.find(r.topic);
    if (it == assign_topics_.end()) {
      return absl::NotFoundError(absl::StrCat("no topic ", r.topic));
    }
    const int partitions = it->second.partitions;
    int p = r.partition;
    if (p == -1) p = PartitionForKey(r.key, partitions);
    if (p >= partitions) {
      return absl::InvalidArgumentError(
          absl::StrCat("partition ", p, " of topic ", r.topic, " with ",
                       partitions, " partitions"));
    }
    b.streams[i] = it->second.first_stream + static_cast<uint32_t>(p);
    b.positions[i].partition = p;
  }
  for (const OffsetCommit& c : b.commits) {
    auto it = assign_topics_.find(c.topic);
    if (it == assign_topics_.end()) {
      return absl::NotFoundError(absl::StrCat("no topic ", c.topic));
    }
    if (c.partition >= it->second.partitions) {
      return absl::InvalidArgumentError(absl::StrCat(
          "commit for partition ", c.partition, " of topic ", c.topic, " with ",
          it->second.partitions, " partitions"));
    }
  }
  return absl::OkStatus();
}

bool EmbeddedLog::QueueLocked(NewBatch b, AppendCallback done) {
  PendingBatch q;
  q.buf_begin = queue_.buf.size();
  q.entries_begin = queue_.entries.size();
  const size_t total = b.records.size() + b.commits.size();
  for (size_t i = 0; i < b.records.size(); ++i) {
    const Record& r = b.records[i];
    RecordFields f;
    f.flags = i + 1 == total ? internal::kFlagEndOfBatch : 0;
    f.topic = r.topic;
    f.partition = b.positions[i].partition;
    f.offset = next_offset_[b.streams[i]]++;
    f.timestamp_micros = r.timestamp_micros == 0 ? b.now : r.timestamp_micros;
    f.key = r.key;
    f.headers = r.headers;
    f.value = r.value;
    EncodeLocked(f, b.streams[i]);
    b.positions[i].offset = f.offset;
  }
  for (size_t i = 0; i < b.commits.size(); ++i) {
    RecordFields f;
    f.flags = b.records.size() + i + 1 == total ? internal::kFlagEndOfBatch : 0;
    f.topic = kOffsetsTopic;
    f.offset = next_offset_[kOffsetsStream]++;
    f.timestamp_micros = b.now;
    f.key = b.commits[i].group;
    f.value = b.commit_values[i];
    EncodeLocked(f, kOffsetsStream);
  }
  q.buf_end = queue_.buf.size();
  q.entries_end = queue_.entries.size();
  BANCA_CHECK(q.entries_end - q.entries_begin == total);
  BANCA_CHECK(q.buf_end - q.buf_begin <= b.bytes);
  for (size_t i = 0; i < b.records.size(); ++i) {
    b.positions[i].topic = std::move(b.records[i].topic);
  }
  q.positions = std::move(b.positions);
  q.sequence = ++queued_batches_;
  if (!b.commits.empty()) last_commit_batch_ = q.sequence;
  q.commits = std::move(b.commits);
  q.done = std::move(done);
  const bool was_empty = queue_.batches.empty();
  queue_.batches.push_back(std::move(q));
  // The writer sleeps on an empty queue, or waits for a group to fill.
  return was_empty || queue_.batches.size() == options_.group_commit_batches;
}

void EmbeddedLog::WriterLoop() {
  for (;;) {
    absl::Status failed;
    writing_.Clear();
    {
      std::unique_lock l(mu_);
      work_cv_.wait(l, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return !queue_.batches.empty() || stopping_;
      });
      if (queue_.batches.empty()) return;  // stopping, and drained
      if (options_.group_commit_delay_micros > 0 &&
          queue_.batches.size() < options_.group_commit_batches) {
        work_cv_.wait_for(
            l, std::chrono::microseconds(options_.group_commit_delay_micros),
            [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
              return queue_.batches.size() >= options_.group_commit_batches ||
                     stopping_;
            });
      }
      std::swap(queue_, writing_);
      failed = failed_;
    }
    room_cv_.notify_all();
    if (!failed.ok()) {
      Complete(writing_, 0, writing_.batches.size(),
               Prefixed(failed, "event log failed: "));
      continue;
    }
    if (absl::Status s = WriteGroup(writing_); !s.ok()) {
      {
        std::lock_guard l(mu_);
        failed_ = s;
      }
      room_cv_.notify_all();
      {
        std::lock_guard l(index_mu_);
        index_failed_ = s;
      }
      index_cv_.notify_all();
    }
  }
}

absl::Status EmbeddedLog::TrimActive() {
  if (ftruncate(active_->fd, active_size_) != 0) {
    return Errno("truncate", active_->path);
  }
  if (options_.fsync && fdatasync(active_->fd) != 0) {
    return Errno("fdatasync", active_->path);
  }
  allocated_ = active_size_;
  return absl::OkStatus();
}

absl::Status EmbeddedLog::Preallocate(int64_t bytes) {
  if (bytes <= allocated_) return absl::OkStatus();
  const int64_t target = std::max(
      bytes, std::min(allocated_ + kPreallocBytes, options_.segment_bytes));
  static const std::string* const zeros = new std::string(1 << 20, '\0');
  for (int64_t at = allocated_; at < target;) {
    const size_t n = static_cast<size_t>(
        std::min<int64_t>(target - at, static_cast<int64_t>(zeros->size())));
    RETURN_IF_ERROR(
        PWriteAll(active_->fd, zeros->data(), n, at, active_->path));
    at += static_cast<int64_t>(n);
  }
  allocated_ = target;
  return absl::OkStatus();
}

absl::Status EmbeddedLog::Roll() {
  // Sealed segments hold records only, so their sizes chain into the next
  // segment's name and only the last segment can have a tail.
  RETURN_IF_ERROR(TrimActive());
  const int64_t base = active_->base + active_size_;
  const std::string path = dir_ + "/" + internal::SegmentFileName(base);
  const int fd =
      open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, kFileMode);
  if (fd < 0) return Errno("create", path);
  auto seg = std::make_shared<Segment>(base, path, fd);
  // The new name must be durable before anything in it is acknowledged.
  if (options_.fsync) {
    RETURN_IF_ERROR(SyncDir(dir_));
  }
  {
    std::lock_guard l(index_mu_);
    segments_.push_back(seg);
  }
  active_ = std::move(seg);
  active_size_ = 0;
  allocated_ = 0;
  return absl::OkStatus();
}

absl::Status EmbeddedLog::WriteGroup(Group& g) {
  const size_t n = g.batches.size();
  size_t i = 0;
  while (i < n) {
    auto size_of = [&](size_t k) {
      return static_cast<int64_t>(g.batches[k].buf_end -
                                  g.batches[k].buf_begin);
    };
    // A batch never spans segments, so on open only the last segment can
    // hold a torn tail; an oversized batch gets a segment of its own.
    if (active_size_ > 0 &&
        active_size_ + size_of(i) > options_.segment_bytes) {
      if (absl::Status s = Roll(); !s.ok()) {
        Complete(g, i, n, s);
        return s;
      }
    }
    size_t j = i + 1;
    int64_t run = size_of(i);
    while (j < n && active_size_ + run + size_of(j) <= options_.segment_bytes) {
      BANCA_CHECK(g.batches[j].buf_begin == g.batches[j - 1].buf_end);
      run += size_of(j);
      ++j;
    }
    const size_t begin = g.batches[i].buf_begin;
    absl::Status s = Preallocate(active_size_ + run);
    if (s.ok())
      s = PWriteAll(active_->fd, g.buf.data() + begin, static_cast<size_t>(run),
                    active_size_, active_->path);
    if (s.ok() && options_.fsync && fdatasync(active_->fd) != 0) {
      s = Errno("fdatasync", active_->path);
    }
    if (!s.ok()) {
      // Best effort: cut what may have reached the page cache so a reopen
      // without a crash does not see it. The log stays failed regardless.
      (void)!ftruncate(active_->fd, active_size_);
      allocated_ = active_size_;
      Complete(g, i, n, s);
      return s;
    }
    const int64_t delta =
        active_->base + active_size_ - static_cast<int64_t>(begin);
    active_size_ += run;
    Publish(g, i, j, delta);
    Complete(g, i, j, absl::OkStatus());
    i = j;
  }
  return absl::OkStatus();
}

void EmbeddedLog::Publish(Group& g, size_t from, size_t to, int64_t delta) {
  bool new_topics = false;
  std::lock_guard l(index_mu_);
  for (size_t k = from; k < to; ++k) {
    const PendingBatch& b = g.batches[k];
    for (size_t e = b.entries_begin; e < b.entries_end; ++e) {
      const IndexEntry& entry = g.entries[e];
      index_.AddRecord(entry.stream, entry.offset,
                       static_cast<int64_t>(entry.buf_pos) + delta);
    }
    if (b.new_topic.has_value()) {
      BANCA_CHECK(
          index_.AddTopic(b.new_topic->name, b.new_topic->partitions).ok());
      new_topics = true;
    }
    for (const OffsetCommit& c : b.commits) index_.ApplyCommit(c);
  }
  if (new_topics) index_cv_.notify_all();
}

void EmbeddedLog::Complete(Group& g, size_t from, size_t to,
                           const absl::Status& status) {
  if (from == to) return;
  std::vector<PendingBatch> done;
  done.reserve(to - from);
  for (size_t k = from; k < to; ++k) {
    g.batches[k].status = status;
    if (!status.ok()) g.batches[k].positions.clear();
    done.push_back(std::move(g.batches[k]));
  }
  {
    // Batches complete in queue order.
    std::lock_guard l(completed_mu_);
    completed_batches_ = done.back().sequence;
  }
  completed_cv_.notify_all();
  {
    std::lock_guard l(done_mu_);
    done_queue_.push_back(std::move(done));
  }
  done_cv_.notify_one();
}

void EmbeddedLog::CompleterLoop() {
  for (;;) {
    std::vector<PendingBatch> batch;
    {
      std::unique_lock l(done_mu_);
      done_cv_.wait(l, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(done_mu_) {
        return !done_queue_.empty() || done_stopping_;
      });
      if (done_queue_.empty()) return;
      batch = std::move(done_queue_.front());
      done_queue_.pop_front();
    }
    for (PendingBatch& b : batch) {
      b.done(std::move(b.status), std::move(b.positions));
    }
  }
}

absl::StatusOr<uint32_t> EmbeddedLog::StreamLocked(std::string_view topic,
                                                   int partition) const {
  const PartitionIndex::Topic* t = index_.FindTopic(topic);
  if (t == nullptr)
    return absl::NotFoundError(absl::StrCat("no topic ", ToAbsl(topic)));
  if (partition < 0 || partition >= t->partitions) {
    return absl::InvalidArgumentError(
        absl::StrCat("partition ", partition, " of topic ", ToAbsl(topic),
                     " with ", t->partitions, " partitions"));
  }
  return t->first_stream + static_cast<uint32_t>(partition);
}

absl::StatusOr<std::vector<StoredRecord>> EmbeddedLog::Read(
    std::string_view topic, int partition, int64_t offset, size_t max_records) {
  if (offset < 0) return absl::InvalidArgumentError("negative offset");
  std::vector<int64_t> positions;
  std::vector<std::shared_ptr<Segment>> segs;
  {
    std::shared_lock l(index_mu_);
    ASSIGN_OR_RETURN(uint32_t stream, StreamLocked(topic, partition));
    const absl::Span<const int64_t> all = index_.Positions(stream);
    const auto end = static_cast<int64_t>(all.size());
    if (offset > end) {
      return absl::OutOfRangeError(absl::StrCat("offset ", offset, " past end ",
                                                end, " of ", ToAbsl(topic), "/",
                                                partition));
    }
    const size_t n = std::min(
        {max_records, kMaxReadRecords, static_cast<size_t>(end - offset)});
    if (n == 0) return std::vector<StoredRecord>{};
    positions.assign(all.begin() + offset, all.begin() + offset + n);
    auto seg_of = [&](int64_t pos) {
      auto it =
          std::upper_bound(segments_.begin(), segments_.end(), pos,
                           [](int64_t p, const std::shared_ptr<Segment>& s) {
                             return p < s->base;
                           });
      BANCA_CHECK(it != segments_.begin());
      return it - 1;
    };
    segs.assign(seg_of(positions.front()), seg_of(positions.back()) + 1);
  }
  std::vector<StoredRecord> out;
  out.reserve(positions.size());
  size_t bytes = 0;
  size_t si = 0;
  std::optional<internal::FileWindow> window;
  internal::RecordView view;
  for (size_t k = 0; k < positions.size() && bytes < kMaxReadBytes; ++k) {
    const int64_t pos = positions[k];
    while (si + 1 < segs.size() && segs[si + 1]->base <= pos) {
      ++si;
      window.reset();
    }
    const Segment& seg = *segs[si];
    if (!window.has_value()) {
      // Read roughly the span we need: big enough to amortize the system
      // call, small enough not to drag in a whole segment for a few records.
      const int64_t span = positions.back() - pos + 4096;
      const size_t chunk = static_cast<size_t>(
          std::clamp<int64_t>(span, kMinReadChunk, kMaxReadChunk));
      // Durable records never extend past the durable size, so the file's
      // current length is enough as a bound.
      window.emplace(seg.fd, std::numeric_limits<int64_t>::max(), chunk);
    }
    const int64_t at = pos - seg.base;
    ASSIGN_OR_RETURN(std::string_view head, window->Get(at, kFrameHeaderBytes));
    const uint32_t len = internal::LoadU32(head.data());
    if (len > internal::kMaxBodyBytes) {
      return absl::DataLossError(
          absl::StrCat("bad frame length at journal position ", pos));
    }
    const uint32_t crc = internal::LoadU32(head.data() + 4);
    ASSIGN_OR_RETURN(std::string_view frame,
                     window->Get(at, kFrameHeaderBytes + len));
    const std::string_view body = frame.substr(kFrameHeaderBytes);
    const int64_t expected = offset + static_cast<int64_t>(k);
    if (Crc32c(body.data(), body.size()) != crc ||
        !internal::DecodeBody(body, &view) || view.topic != topic ||
        view.partition != partition || view.offset != expected) {
      // The record was verified on open or written by us: it changed since.
      return absl::DataLossError(absl::StrCat("corrupt record ", ToAbsl(topic),
                                              "/", partition, "@", expected,
                                              " at journal position ", pos));
    }
    StoredRecord& r = out.emplace_back();
    r.topic = std::string(view.topic);
    r.partition = view.partition;
    r.offset = view.offset;
    r.timestamp_micros = view.timestamp_micros;
    r.key = std::string(view.key);
    if (!internal::DecodeHeaders(view, &r.headers)) {
      return absl::DataLossError(
          absl::StrCat("corrupt headers at journal position ", pos));
    }
    r.value = std::string(view.value);
    bytes += body.size();
  }
  return out;
}

absl::StatusOr<int64_t> EmbeddedLog::EndOffset(std::string_view topic,
                                               int partition) {
  std::shared_lock l(index_mu_);
  ASSIGN_OR_RETURN(uint32_t stream, StreamLocked(topic, partition));
  return index_.EndOffset(stream);
}

absl::Status EmbeddedLog::CommitOffsets(std::vector<OffsetCommit> commits) {
  return Append({}, std::move(commits)).status();
}

absl::StatusOr<int64_t> EmbeddedLog::CommittedOffset(std::string_view group,
                                                     std::string_view topic,
                                                     int partition) {
  if (group.empty() || group.size() > kMaxKeyBytes) {
    return absl::InvalidArgumentError("bad group name");
  }
  // Stable offsets (Kafka's require_stable): a commit queued before this
  // call counts, so a member taking a partition over never resumes before
  // the last record its predecessor's fenced append processed.
  int64_t wait_for = 0;
  {
    std::lock_guard l(mu_);
    wait_for = last_commit_batch_;
  }
  {
    std::unique_lock l(completed_mu_);
    completed_cv_.wait(l, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(completed_mu_) {
      return completed_batches_ >= wait_for;
    });
  }
  std::shared_lock l(index_mu_);
  // NOT_FOUND for a partition the log does not have.
  RETURN_IF_ERROR(StreamLocked(topic, partition).status());
  return index_.Committed(group, topic, partition);
}

absl::StatusOr<std::unique_ptr<GroupMember>> EmbeddedLog::JoinGroup(
    const GroupOptions& options) {
  RETURN_IF_ERROR(ValidateGroupOptions(options));
  ASSIGN_OR_RETURN(int partitions, PartitionCount(options.topic));
  ASSIGN_OR_RETURN(int64_t id, groups_.Join(options, partitions, NowMicros()));
  return std::make_unique<EmbeddedGroupMember>(*this, options, id);
}

absl::StatusOr<std::vector<TopicConfig>> EmbeddedLog::ListTopics() {
  std::vector<TopicConfig> all;
  {
    std::shared_lock l(index_mu_);
    all = index_.Topics();
  }
  std::erase_if(all, [](const TopicConfig& t) {
    return internal::IsInternalTopic(t.name);
  });
  return all;
}

// Creates the log's directory (and syncs its parent) when it is new.
absl::Status MakeLogDir(const std::string& dir,
                        const EmbeddedLogOptions& options) {
  if (mkdir(dir.c_str(), kDirMode) == 0) {
    if (options.fsync) {
      const size_t slash = dir.find_last_of('/');
      const std::string parent =
          slash == std::string::npos
              ? "."
              : (slash == 0 ? "/" : dir.substr(0, slash));
      RETURN_IF_ERROR(SyncDir(parent));
    }
  } else if (errno != EEXIST) {
    return Errno("mkdir", dir);
  }
  return absl::OkStatus();
}

// One process per directory: two writers would interleave journals, and a
// reader would see a writer's batches half written. A writer creates the
// lock file and locks it exclusively; a read-only reader locks it shared
// when there is one (a copy of a log may have none: -1, no lock).
absl::StatusOr<int> LockLogDir(const std::string& dir, bool read_only) {
  const std::string lock_path = dir + "/LOCK";
  const int lock_fd = read_only ? open(lock_path.c_str(), O_RDONLY | O_CLOEXEC)
                                : open(lock_path.c_str(),
                                       O_RDWR | O_CREAT | O_CLOEXEC, kFileMode);
  if (lock_fd < 0 && read_only && errno == ENOENT) return -1;
  if (lock_fd < 0) return Errno("open", lock_path);
  if (flock(lock_fd, (read_only ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) {
    const int err = errno;
    close(lock_fd);
    if (err == EWOULDBLOCK) {
      return absl::FailedPreconditionError(
          absl::StrCat("event log ", dir, " is open elsewhere"));
    }
    errno = err;
    return Errno("flock", lock_path);
  }
  return lock_fd;
}

// Replays `dir` into `index`. Corruption is DATA_LOSS here; ScanJournal
// reports it instead.
absl::StatusOr<internal::ScanOutcome> Replay(
    const std::vector<internal::SegmentFile>& segments, PartitionIndex* index) {
  internal::ReplayVisitor visitor(index);
  return internal::ScanSegments(segments, &visitor);
}

// Lists and replays the journal once.
absl::Status ListAndReplayOnce(const std::string& dir,
                               std::vector<internal::SegmentFile>* files,
                               PartitionIndex* index,
                               internal::ScanOutcome* scan) {
  ASSIGN_OR_RETURN(*files, internal::ListSegments(dir));
  *index = PartitionIndex();
  ASSIGN_OR_RETURN(*scan, Replay(*files, index));
  return absl::OkStatus();
}

// Lists and replays the journal; beside a running writer, a scan that
// found corruption or failed to read (a segment the writer cut to its
// records while it was read, as it rolls to the next) is taken again
// (EmbeddedLogOptions::beside_writer) with a new index, until one is clean
// or kMaxLiveScans have all failed.
absl::Status ListAndReplay(const std::string& dir, bool beside_writer,
                           std::vector<internal::SegmentFile>* files,
                           PartitionIndex* index, internal::ScanOutcome* scan) {
  const int attempts = beside_writer ? kMaxLiveScans : 1;
  for (int attempt = 1;; ++attempt) {
    const absl::Status s = ListAndReplayOnce(dir, files, index, scan);
    if (attempt >= attempts) return s;
    if (s.ok() && scan->report.ok) return s;
    absl::SleepFor(absl::Milliseconds(kLiveRescanMillis));
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<EventLog>> OpenEmbeddedLog(
    const std::string& dir, const EmbeddedLogOptions& options,
    JournalScanReport* scan_report) {
  if (options.segment_bytes <= 0 || options.segment_bytes > kMaxSegmentBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("segment_bytes must be 1..", kMaxSegmentBytes));
  }
  if (options.beside_writer && !options.read_only) {
    return absl::InvalidArgumentError("beside_writer needs read_only");
  }
  if (options.read_only) {
    struct stat st;
    if (stat(dir.c_str(), &st) != 0) return Errno("stat", dir);
  } else {
    RETURN_IF_ERROR(MakeLogDir(dir, options));
  }
  // Beside a writer: no lock (the writer holds it exclusively).
  int lock_fd = -1;
  if (!options.beside_writer) {
    ASSIGN_OR_RETURN(lock_fd, LockLogDir(dir, options.read_only));
  }
  auto fail = [&](absl::Status s) {
    if (lock_fd >= 0) close(lock_fd);
    return s;
  };

  std::vector<internal::SegmentFile> files;
  PartitionIndex index;
  internal::ScanOutcome scan;
  if (absl::Status s =
          ListAndReplay(dir, options.beside_writer, &files, &index, &scan);
      !s.ok()) {
    return fail(s);
  }
  if (scan_report != nullptr) *scan_report = scan.report;
  if (!scan.report.ok) {
    return fail(absl::DataLossError(
        absl::StrCat("event log ", dir, " is corrupt: ", scan.report.error)));
  }

  std::vector<std::shared_ptr<Segment>> segments;
  for (size_t i = 0; i < files.size(); ++i) {
    const bool last = i + 1 == files.size() && !options.read_only;
    const internal::SegmentFile& f = files[i];
    const int fd = open(f.path.c_str(), (last ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    if (fd < 0) return fail(Errno("open", f.path));
    segments.push_back(std::make_shared<Segment>(f.base, f.path, fd));
  }
  int64_t active_size = 0;
  if (options.read_only) {
    // Nothing is written: a torn tail stays, past the records served.
    if (!segments.empty()) active_size = scan.last_segment_keep;
  } else if (segments.empty()) {
    const std::string path = dir + "/" + internal::SegmentFileName(0);
    const int fd =
        open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, kFileMode);
    if (fd < 0) return fail(Errno("create", path));
    segments.push_back(std::make_shared<Segment>(0, path, fd));
    if (options.fsync) {
      if (absl::Status s = SyncDir(dir); !s.ok()) return fail(s);
    }
  } else {
    active_size = scan.last_segment_keep;
    if (scan.report.torn_tail_bytes > 0) {
      const Segment& last = *segments.back();
      if (ftruncate(last.fd, active_size) != 0) {
        return fail(Errno("truncate torn tail of", last.path));
      }
      if (options.fsync && fsync(last.fd) != 0) {
        return fail(Errno("fsync", last.path));
      }
    }
  }
  BANCA_CHECK(segments.empty() ||
              segments.back()->base + active_size == scan.end);
  return std::unique_ptr<EventLog>(
      new EmbeddedLog(dir, options, lock_fd, std::move(index),
                      std::move(segments), active_size));
}

absl::StatusOr<JournalScanReport> ScanJournal(const std::string& dir) {
  ASSIGN_OR_RETURN(std::vector<internal::SegmentFile> files,
                   internal::ListSegments(dir));
  PartitionIndex index;
  ASSIGN_OR_RETURN(internal::ScanOutcome scan, Replay(files, &index));
  return scan.report;
}

}  // namespace banca::eventlog
