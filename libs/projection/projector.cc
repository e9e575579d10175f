#include "libs/projection/projector.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/status_macros.h"

namespace banca::projection {
namespace {

constexpr absl::Duration kPassInterval = absl::Milliseconds(10);
constexpr absl::Duration kMaxBackoff = absl::Seconds(1);

// One partition's part of a catch-up: [next, stop).
struct Range {
  std::string topic;
  int partition = 0;
  int64_t next = 0;
  int64_t stop = 0;
};

absl::StatusOr<std::vector<Range>> RangesToApply(
    eventlog::EventLog& log, const ProjectionStore& store,
    const std::vector<std::string>& topics, const OffsetMap* until) {
  std::vector<Range> ranges;
  for (const std::string& topic : topics) {
    auto partitions = log.PartitionCount(topic);
    if (absl::IsNotFound(partitions.status())) continue;  // nothing yet
    if (!partitions.ok()) return partitions.status();
    for (int p = 0; p < *partitions; ++p) {
      ASSIGN_OR_RETURN(const int64_t end, log.EndOffset(topic, p));
      int64_t stop = end;
      if (until != nullptr) {
        auto it = until->find({topic, p});
        if (it != until->end()) stop = std::min(stop, it->second);
      }
      ranges.push_back({topic, p, store.Offset(topic, p), stop});
    }
  }
  return ranges;
}

// Fails when `records` do not follow `next` in increasing offsets (dense
// on the embedded log; on Kafka, transaction markers take offsets no record
// carries).
absl::Status CheckOffsets(const std::vector<eventlog::StoredRecord>& records,
                          const Range& range, int64_t next) {
  for (const eventlog::StoredRecord& record : records) {
    if (record.offset < next) {
      return absl::DataLossError(absl::StrCat(
          "log went backwards in ", range.topic, "/", range.partition,
          ": expected offset ", next, " or later, read ", record.offset));
    }
    next = record.offset + 1;
  }
  return absl::OkStatus();
}

// The pending bytes of every lane's txn.
size_t PendingBytes(const std::vector<std::unique_ptr<Txn>>& txns) {
  size_t bytes = 0;
  for (const auto& txn : txns) bytes += txn->pending_bytes();
  return bytes;
}

}  // namespace

absl::Status ApplyError(const eventlog::StoredRecord& record,
                        const absl::Status& s) {
  return absl::Status(
      s.code(), absl::StrCat("applying ", record.topic, "/", record.partition,
                             "@", record.offset, ": ", s.message()));
}

absl::Status Projector::ApplyLanes(
    const std::vector<eventlog::StoredRecord>& records,
    const std::vector<Txn*>& txns) {
  for (const eventlog::StoredRecord& record : records) {
    if (absl::Status s = Apply(record, *txns[0]); !s.ok()) {
      return ApplyError(record, s);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> CatchUp(eventlog::EventLog& log, ProjectionStore& store,
                                Projector& projector,
                                const CatchUpOptions& options) {
  ASSIGN_OR_RETURN(
      const std::vector<Range> ranges,
      RangesToApply(log, store, projector.Topics(), options.until));
  int64_t behind = 0;
  for (const Range& r : ranges) behind += std::max<int64_t>(0, r.stop - r.next);
  const bool bulk =
      options.bulk_min_records > 0 && behind >= options.bulk_min_records;
  const int lanes = bulk && options.lanes ? projector.Lanes() : 1;
  int64_t applied = 0;
  // One transaction (one per lane) gathers records from every partition
  // and commits when it is full or at the end, so a pass that finds a few
  // records in each of many partitions still makes one write with all
  // their offsets (kept in the first lane's txn).
  std::vector<std::unique_ptr<Txn>> txns;
  std::vector<Txn*> lane_txns;
  for (int i = 0; i < lanes; ++i) {
    txns.push_back(std::make_unique<Txn>(store));
    lane_txns.push_back(txns.back().get());
  }
  Txn& txn = *txns[0];
  size_t in_txn = 0;
  auto full = [&] {
    return bulk ? PendingBytes(txns) >= options.bulk_bytes
                : in_txn >= options.batch_records;
  };
  auto commit = [&]() -> absl::Status {
    if (in_txn == 0) return absl::OkStatus();
    in_txn = 0;
    return bulk ? store.Ingest(lane_txns) : store.Commit(txn);
  };
  for (const Range& range : ranges) {
    const std::string& topic = range.topic;
    const int p = range.partition;
    const int64_t stop = range.stop;
    int64_t next = range.next;
    while (next < stop) {
      const size_t want = static_cast<size_t>(std::min<int64_t>(
          stop - next,
          bulk ? options.batch_records : options.batch_records - in_txn));
      ASSIGN_OR_RETURN(auto records, log.Read(topic, p, next, want));
      // Nothing readable below `stop` (only Kafka transaction markers, or a
      // read that came back early): try again on the next pass rather than
      // skip offsets that might still hold records.
      if (records.empty()) break;
      // `want` bounds how many records come back, not their offsets: on
      // Kafka, markers take offsets, so a read can go on past `stop`.
      // What lies there is left for a later pass (a rebuild that stops
      // at a live projection's offsets must apply nothing beyond them).
      const bool reached_stop = records.back().offset >= stop;
      std::erase_if(records, [stop](const eventlog::StoredRecord& r) {
        return r.offset >= stop;
      });
      RETURN_IF_ERROR(CheckOffsets(records, range, next));
      if (lanes > 1) {
        RETURN_IF_ERROR(projector.ApplyLanes(records, lane_txns));
      } else {
        for (const eventlog::StoredRecord& record : records) {
          if (absl::Status s = projector.Apply(record, txn); !s.ok()) {
            return ApplyError(record, s);
          }
        }
      }
      if (!records.empty()) {
        next = records.back().offset + 1;
        applied += static_cast<int64_t>(records.size());
        in_txn += records.size();
        txn.SetOffset(topic, p, next);
      }
      if (full()) RETURN_IF_ERROR(commit());
      if (reached_stop) break;
    }
  }
  RETURN_IF_ERROR(commit());
  return applied;
}

ProjectionRunner::ProjectionRunner(eventlog::EventLog& log,
                                   ProjectionStore& store, Projector& projector)
    : log_(log), store_(store), projector_(projector) {}

ProjectionRunner::~ProjectionRunner() { (void)Stop(); }

void ProjectionRunner::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void ProjectionRunner::Notify() {
  absl::MutexLock lock(&mu_);
  notified_ = true;
  wake_.Signal();
}

void ProjectionRunner::Loop() {
  absl::Duration backoff = kPassInterval;
  absl::Time last_flush = absl::Now();
  int64_t unflushed = 0;
  while (true) {
    absl::StatusOr<int64_t> applied = CatchUp(log_, store_, projector_);
    if (applied.ok()) {
      unflushed += *applied;
      // Readers beside the service see the store as of its last flush.
      if (unflushed > 0 && absl::Now() - last_flush >= kRunnerFlushInterval) {
        if (absl::Status s = store_.Flush(); !s.ok()) applied = s;
        unflushed = 0;
        last_flush = absl::Now();
      }
    }
    absl::MutexLock lock(&mu_);
    if (!applied.ok()) {
      // A log that is briefly unreachable (a broker restarting) is waited
      // out: a failed pass commits nothing past its last full batch, data
      // and offsets together, so the next pass goes on from the store's
      // offsets. Anything else (a corrupt record, a failing store) stops
      // the projection for good.
      if ((absl::IsUnavailable(applied.status()) ||
           absl::IsDeadlineExceeded(applied.status())) &&
          !stop_) {
        ++transient_errors_;
        wake_.WaitWithTimeout(&mu_, backoff);
        backoff = std::min(backoff * 2, kMaxBackoff);
        continue;
      }
      status_ = applied.status();
      progress_.SignalAll();
      return;
    }
    backoff = kPassInterval;
    progress_.SignalAll();
    if (stop_) return;
    // Passes are paced so each one applies a useful batch instead of waking
    // per event; a reader waiting for its own writes (WaitFor) cuts the wait.
    if (!notified_) wake_.WaitWithTimeout(&mu_, kPassInterval);
    notified_ = false;
  }
}

absl::Status ProjectionRunner::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
    wake_.Signal();
  }
  if (thread_.joinable()) thread_.join();
  absl::MutexLock lock(&mu_);
  if (!status_.ok()) return status_;
  // One last pass so everything appended before Stop is applied.
  RETURN_IF_ERROR(CatchUp(log_, store_, projector_).status());
  return store_.Flush();
}

absl::Status ProjectionRunner::WaitFor(const OffsetMap& targets,
                                       absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  absl::MutexLock lock(&mu_);
  while (true) {
    if (!status_.ok()) return status_;
    bool reached = true;
    for (const auto& [where, next] : targets) {
      if (store_.Offset(where.first, where.second) < next) {
        reached = false;
        break;
      }
    }
    if (reached) return absl::OkStatus();
    notified_ = true;
    wake_.Signal();
    if (progress_.WaitWithDeadline(&mu_, deadline)) {
      return absl::DeadlineExceededError(
          "projection has not caught up with the log in time");
    }
  }
}

int64_t ProjectionRunner::transient_errors() const {
  absl::MutexLock lock(&mu_);
  return transient_errors_;
}

absl::Status ProjectionRunner::status() const {
  absl::MutexLock lock(&mu_);
  return status_;
}

}  // namespace banca::projection
