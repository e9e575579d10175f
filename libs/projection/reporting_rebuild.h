// `banca reporting rebuild`: the reporting projections made again from
// offset 0 into a scratch directory, up to the offsets the live ones hold
// (the whole log when there are none), and the two state hashes compared:
// equal hashes prove the live projections are exactly what the log says.
// The live store is opened read-only and not changed: as of its last
// flush (which a stop makes) when the service still runs.
#ifndef BANCA_LIBS_PROJECTION_REPORTING_REBUILD_H_
#define BANCA_LIBS_PROJECTION_REPORTING_REBUILD_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"
#include "libs/projection/projection_snapshot.h"
#include "libs/projection/projection_store.h"

namespace banca::projection {

struct RebuildResult {
  bool live = false;  // live projections were found
  std::string live_hash;
  std::string rebuilt_hash;
  OffsetMap offsets;    // what both hold
  int64_t records = 0;  // applied by the rebuild
  int64_t keys = 0;
  bool equal() const { return !live || live_hash == rebuilt_hash; }
};

// `live_dir`: DATA_DIR/projections/reporting; `scratch_dir` must not
// exist (it is made, and removed afterwards).
absl::StatusOr<RebuildResult> RebuildReporting(eventlog::EventLog& log,
                                               const std::string& live_dir,
                                               const std::string& scratch_dir);

// As RebuildReporting, against live projections read before (a live
// audit reads them before it opens the log: projection_snapshot.h).
absl::StatusOr<RebuildResult> RebuildReportingFrom(
    eventlog::EventLog& log, const ProjectionSnapshot& live,
    const std::string& scratch_dir);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_REPORTING_REBUILD_H_
