#include "libs/projection/close_from_log.h"

#include <filesystem>
#include <memory>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "libs/projection/reporting_projection.h"

namespace banca::projection {

absl::StatusOr<v1::FinanceReport> FinanceReportFromLog(
    eventlog::EventLog& log, const std::string& scratch_dir,
    const FinanceQuery& query) {
  RETURN_IF_ERROR(CheckFinanceQuery(query));
  if (std::filesystem::exists(scratch_dir)) {
    return absl::FailedPreconditionError(
        absl::StrCat(scratch_dir, " exists: the close needs a new one"));
  }
  absl::StatusOr<v1::FinanceReport> report =
      [&]() -> absl::StatusOr<v1::FinanceReport> {
    ASSIGN_OR_RETURN(std::unique_ptr<ProjectionStore> store,
                     ProjectionStore::Open(scratch_dir));
    ReportingProjector projector(&log);
    RETURN_IF_ERROR(CatchUp(log, *store, projector).status());
    return ComputeFinanceReport(*store, query);
  }();
  std::error_code ec;
  std::filesystem::remove_all(scratch_dir, ec);
  return report;
}

}  // namespace banca::projection
