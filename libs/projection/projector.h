// A projector turns log records into projection writes; CatchUp and
// ProjectionRunner feed it, committing data and offsets together.
#ifndef BANCA_LIBS_PROJECTION_PROJECTOR_H_
#define BANCA_LIBS_PROJECTION_PROJECTOR_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "libs/eventlog/event_log.h"
#include "libs/projection/projection_store.h"

namespace banca::projection {

class Projector {
 public:
  virtual ~Projector() = default;
  virtual std::vector<std::string> Topics() const = 0;
  // Must be a pure function of the record and the projection's contents, so
  // a rebuild produces the same bytes.
  virtual absl::Status Apply(const eventlog::StoredRecord& record,
                             Txn& txn) = 0;
  // A projector made of parts that keep disjoint keys may apply the
  // records of a bulk catch-up on several threads (lanes), each lane's
  // parts writing into that lane's txn only. 1: no lanes (Apply).
  virtual int Lanes() const { return 1; }
  // Applies `records` (in offset order) as Apply would one by one, lane i's
  // parts into *txns[i] (txns.size() == Lanes()); an error names the
  // record. Only called when Lanes() > 1.
  virtual absl::Status ApplyLanes(
      const std::vector<eventlog::StoredRecord>& records,
      const std::vector<Txn*>& txns);
};

// The error of applying `record`: `s` with the record's place before it.
absl::Status ApplyError(const eventlog::StoredRecord& record,
                        const absl::Status& s);

struct CatchUpOptions {
  // Records per atomic WriteBatch.
  size_t batch_records = 16384;
  // A catch-up at least this far behind (records, all partitions) is a
  // bulk one: it gathers up to `bulk_bytes` of writes in memory
  // (Txn::pending_bytes) and hands each such batch, sorted, to RocksDB as
  // a table file (ProjectionStore::Ingest) instead of inserting it. Same
  // atomicity (data and offsets in one file), same resulting state. 0: never.
  int64_t bulk_min_records = 100'000;
  size_t bulk_bytes = size_t{512} << 20;
  // A bulk catch-up of a projector with lanes (Projector::Lanes) applies
  // each read on that many threads, into a txn per lane, and ingests the
  // lanes' txns as one table file. false: one txn, one thread.
  bool lanes = true;
  // Stop at these offsets (exclusive) instead of the log's end; partitions
  // not named stop at the end.
  const OffsetMap* until = nullptr;
};

// Applies every record after the store's offsets up to the end of the log
// (as it was when each partition was read). Returns how many it applied.
absl::StatusOr<int64_t> CatchUp(eventlog::EventLog& log, ProjectionStore& store,
                                Projector& projector,
                                const CatchUpOptions& options = {});

// A running projection flushes what it applied at least this often, so a
// reader beside the service (`banca audit verify` while it serves: the
// store's writes skip the WAL, and a read-only open sees the last flush)
// finds a recent state to compare with its rebuild.
inline constexpr absl::Duration kRunnerFlushInterval = absl::Seconds(5);

// Keeps a projection caught up in a background thread.
class ProjectionRunner {
 public:
  ProjectionRunner(eventlog::EventLog& log, ProjectionStore& store,
                   Projector& projector);
  ~ProjectionRunner();
  void Start();
  // Applies what is left and stops.
  absl::Status Stop();
  // Wakes the runner now rather than at its next paced pass.
  void Notify();
  // Waits until the store has applied at least `targets` (next offsets).
  absl::Status WaitFor(const OffsetMap& targets, absl::Duration timeout);
  // The error that stopped the runner, if any. UNAVAILABLE and
  // DEADLINE_EXCEEDED from the log do not stop it: it retries with backoff.
  absl::Status status() const;
  // Passes that failed for a transient reason and were retried.
  int64_t transient_errors() const;

 private:
  void Loop();
  eventlog::EventLog& log_;
  ProjectionStore& store_;
  Projector& projector_;
  mutable absl::Mutex mu_;
  absl::CondVar wake_;
  absl::CondVar progress_;
  bool stop_ = false;
  bool notified_ = false;
  absl::Status status_;
  int64_t transient_errors_ = 0;
  std::thread thread_;
};

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_PROJECTOR_H_
