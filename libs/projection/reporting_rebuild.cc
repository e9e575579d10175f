#include "libs/projection/reporting_rebuild.h"

#include <filesystem>
#include <memory>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/projection/projector.h"
#include "libs/projection/reporting_projection.h"

namespace banca::projection {

absl::StatusOr<RebuildResult> RebuildReporting(eventlog::EventLog& log,
                                               const std::string& live_dir,
                                               const std::string& scratch_dir) {
  if (std::filesystem::exists(scratch_dir)) {
    return absl::FailedPreconditionError(
        absl::StrCat(scratch_dir, " exists: the rebuild needs a new one"));
  }
  ASSIGN_OR_RETURN(const ProjectionSnapshot live, SnapshotProjection(live_dir));
  return RebuildReportingFrom(log, live, scratch_dir);
}

absl::StatusOr<RebuildResult> RebuildReportingFrom(
    eventlog::EventLog& log, const ProjectionSnapshot& live,
    const std::string& scratch_dir) {
  if (std::filesystem::exists(scratch_dir)) {
    return absl::FailedPreconditionError(
        absl::StrCat(scratch_dir, " exists: the rebuild needs a new one"));
  }
  RebuildResult result;
  if (live.found) {
    result.live = true;
    result.offsets = live.offsets;
    result.live_hash = live.hash;
  }
  absl::StatusOr<RebuildResult> rebuilt =
      [&]() -> absl::StatusOr<RebuildResult> {
    ASSIGN_OR_RETURN(std::unique_ptr<ProjectionStore> fresh,
                     ProjectionStore::Open(scratch_dir));
    ReportingProjector projector(&log);
    CatchUpOptions options;
    // Partitions the live projections never reached stop at 0.
    OffsetMap bounded = result.offsets;
    for (const std::string& topic : projector.Topics()) {
      for (int p = 0; p < log.PartitionCount(topic).value_or(0); ++p) {
        bounded.try_emplace({topic, p}, 0);
      }
    }
    if (result.live) options.until = &bounded;
    ASSIGN_OR_RETURN(result.records, CatchUp(log, *fresh, projector, options));
    ASSIGN_OR_RETURN(result.rebuilt_hash, fresh->StateHash());
    ASSIGN_OR_RETURN(result.keys, fresh->KeyCount());
    if (!result.live) result.offsets = fresh->Offsets();
    return result;
  }();
  std::error_code ec;
  std::filesystem::remove_all(scratch_dir, ec);
  return rebuilt;
}

}  // namespace banca::projection
