// Reading the journal back: listing segments and checking every frame.
//
// Torn tail versus corruption. Writes only ever append, a batch never spans
// two segments, and a segment is fdatasync'ed before the next one is
// created, so bytes that were never acknowledged can only sit at the end of
// the LAST segment. A crash during a write may leave there any mix of a
// prefix of the write, zeros (blocks allocated but not written) and pages
// written out of order. Hence:
//  - Every segment but the last must consist of valid frames only and end
//    with an end-of-batch record; anything else is corruption (DATA_LOSS).
//  - In the last segment, at the first bad frame (short header, length out of
//    range, frame running past end of file, CRC mismatch): if a valid frame
//    (sane length, fits in the file, CRC matches, body decodes) starts at ANY
//    byte after the bad frame's first byte, acknowledged data may follow the
//    damage, so it is corruption (DATA_LOSS): we refuse to guess. Otherwise
//    the bad frame and everything after it is a torn tail.
//  - Complete records after the last end-of-batch flag belong to a batch that
//    was never acknowledged and are part of the torn tail too.
//  - A frame whose CRC matches but whose body does not decode, or that breaks
//    the index's rules (unknown topic, offsets not dense), cannot come from a
//    torn write and is always corruption.
// What cannot be told apart: damage to the very last acknowledged record of
// the last segment looks exactly like a torn write of it; that batch is
// dropped. Every earlier record is protected.
#ifndef BANCA_LIBS_EVENTLOG_JOURNAL_SCAN_H_
#define BANCA_LIBS_EVENTLOG_JOURNAL_SCAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/journal_format.h"

namespace banca::eventlog::internal {

// Segment files are named after the journal byte position they start at, so
// sorting names sorts segments and a gap between segments is visible.
std::string SegmentFileName(int64_t base);

struct SegmentFile {
  int64_t base = 0;
  std::string path;
};

// The segments in `dir`, sorted by base. Files with other names are ignored.
absl::StatusOr<std::vector<SegmentFile>> ListSegments(const std::string& dir);

// Receives every valid record in journal order. A non-OK status marks the
// journal corrupt at that record.
class JournalVisitor {
 public:
  virtual ~JournalVisitor() = default;
  virtual absl::Status OnRecord(int64_t pos, const RecordView& record) = 0;
  // The last record passed to OnRecord ended its batch.
  virtual absl::Status OnBatchEnd() = 0;
};

struct ScanOutcome {
  JournalScanReport report;
  // Journal position right after the last complete batch: where the next
  // append goes once the torn tail is cut off.
  int64_t end = 0;
  // The last segment's size after cutting the torn tail (0 if no segments).
  int64_t last_segment_keep = 0;
};

// Checks every frame of `segments`. Corruption is reported in
// `report.ok`/`report.error`, not as a status; errors are I/O failures.
absl::StatusOr<ScanOutcome> ScanSegments(
    const std::vector<SegmentFile>& segments, JournalVisitor* visitor);

}  // namespace banca::eventlog::internal

#endif  // BANCA_LIBS_EVENTLOG_JOURNAL_SCAN_H_
