// The embedded event log: the single-machine default backend.
//
// Layout on disk (under `dir`): one journal of segment files shared by every
// topic and partition ("<20-digit base position>.seg"), so a batch that spans
// partitions or topics is one contiguous write and one fdatasync. Each record
// is framed as [u32 length][u32 CRC32C of the body][body]; a batch's last
// record carries an end-of-batch flag, so a torn tail (a partial record, or
// whole records of an unfinished batch) is truncated on open and never served.
// Partitions are logical streams with dense offsets; an in-memory index maps
// (topic, partition, offset) to a journal position and is rebuilt on open.
// Consumer offsets are records in the internal topic "__consumer_offsets".
#ifndef BANCA_LIBS_EVENTLOG_EMBEDDED_LOG_H_
#define BANCA_LIBS_EVENTLOG_EMBEDDED_LOG_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"

namespace banca::eventlog {

struct EmbeddedLogOptions {
  // A new segment starts when the current one would pass this size.
  int64_t segment_bytes = 64LL << 20;
  // false only for benchmarks that measure the cost of durability itself.
  bool fsync = true;
  // Group commit: when the writer wakes to fewer than `group_commit_batches`
  // queued batches, it waits up to `group_commit_delay` for more before it
  // writes and syncs. A sync costs the same for one batch or a hundred (and,
  // in a virtual machine, a lot of CPU), so a short wait under moderate load
  // buys throughput for a fraction of a millisecond of latency. 0 disables it.
  int64_t group_commit_delay_micros = 200;
  size_t group_commit_batches = 64;
  // For readers of a stopped server's log or of a read-only snapshot of it
  // (`banca audit verify`, the reports): nothing in `dir` is created or
  // changed (no directory, lock file or segment; a torn tail is left in
  // place and not served), and every append, new topic and offset commit
  // is FAILED_PRECONDITION. A writer holding the log keeps a reader out
  // (and the reverse), as between two writers.
  bool read_only = false;
  // With read_only, for a reader beside a running writer (`banca audit
  // verify` while `banca serve` holds the log): no lock is taken, and the
  // reader serves the prefix of complete batches the journal held when it
  // opened. That prefix is a consistent cut of every topic (a batch is all
  // in or all out, and so is everything appended after it). The bytes the
  // writer is still writing look like a torn tail and are not served. A
  // reader may see a write's later pages before its earlier ones, which
  // looks like a bad frame followed by valid ones: the journal is read
  // again (up to kMaxLiveScans times, kLiveRescanMillis apart) before that
  // is corruption (DATA_LOSS). Records seen this way were written but may
  // not be durable yet (the writer syncs them before it acknowledges).
  bool beside_writer = false;
};

// Reads of a live journal, before a bad frame is taken for corruption.
inline constexpr int kMaxLiveScans = 5;
inline constexpr int kLiveRescanMillis = 100;

// What OpenEmbeddedLog found, for `banca audit verify` and `banca log stats`.
struct JournalScanReport {
  int64_t segments = 0;
  int64_t records = 0;
  int64_t batches = 0;
  int64_t bytes = 0;
  // Bytes after the last complete batch (a torn tail).
  int64_t torn_tail_bytes = 0;
  // First corrupt record before the tail, if any (then `ok` is false).
  bool ok = true;
  std::string error;
};

// Opens (creating if needed, unless read-only) the log in `dir`. Truncates
// a torn tail; a corrupt record anywhere before the tail is DATA_LOSS (the
// log refuses to open rather than serve or drop it).
// `scan`, when given, receives what the scan of the journal found (for a
// read-only reader: the records it serves, and the torn tail left).
absl::StatusOr<std::unique_ptr<EventLog>> OpenEmbeddedLog(
    const std::string& dir, const EmbeddedLogOptions& options = {},
    JournalScanReport* scan = nullptr);

// Reads every segment in `dir` and checks every record's length and CRC
// without modifying anything.
absl::StatusOr<JournalScanReport> ScanJournal(const std::string& dir);

}  // namespace banca::eventlog

#endif  // BANCA_LIBS_EVENTLOG_EMBEDDED_LOG_H_
