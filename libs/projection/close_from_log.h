// The finance report of a log, for `banca report close`: the reporting
// projections rebuilt from offset 0 into a scratch directory (the data
// directory is only read, so a stopped server's or a read-only snapshot's
// can be closed), the report computed from them (daily_close.h), the
// scratch removed.
#ifndef BANCA_LIBS_PROJECTION_CLOSE_FROM_LOG_H_
#define BANCA_LIBS_PROJECTION_CLOSE_FROM_LOG_H_

#include <string>

#include "absl/status/statusor.h"
#include "banca/v1/reporting.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/projection/daily_close.h"

namespace banca::projection {

// `scratch_dir` must not exist. The query is checked before the rebuild
// (CheckFinanceQuery).
absl::StatusOr<v1::FinanceReport> FinanceReportFromLog(
    eventlog::EventLog& log, const std::string& scratch_dir,
    const FinanceQuery& query);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_CLOSE_FROM_LOG_H_
