// Exports of the reporting projections in chunks (ReportingService.
// ExportReport, docs/reporting.md "Exports"): a player's statement lines
// or the finance report's days, as CSV (RFC 4180, a header line first) or
// JSON lines, handed to a sink a chunk of whole lines at a time, so a
// range of millions of lines never sits in memory. `banca bench reporting`
// times these (and ComputeDailyClose, daily_close.h) directly.
#ifndef BANCA_LIBS_PROJECTION_REPORT_EXPORT_H_
#define BANCA_LIBS_PROJECTION_REPORT_EXPORT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "libs/projection/daily_close.h"
#include "libs/projection/projection_store.h"

namespace banca::projection {

enum class ExportFormat { kCsv, kJsonLines };

// Bytes per chunk (a chunk ends at a line's end, so it may pass this by
// one line) and lines per export.
inline constexpr size_t kExportChunkBytes = 256 * 1024;
inline constexpr int64_t kMaxExportRows = 50'000'000;

// Receives each chunk and its number of data lines; an error stops the
// export and is returned (a client gone: CANCELLED).
using ExportSink =
    absl::FunctionRef<absl::Status(std::string_view chunk, int64_t rows)>;

struct StatementExport {
  std::string player_id;
  int64_t from_micros = 0;
  int64_t to_micros = 0;  // 0: no end
  std::string currency;
  ExportFormat format = ExportFormat::kCsv;
};

// The player's statement lines in [from_micros, to_micros), oldest first.
// RESOURCE_EXHAUSTED past kMaxExportRows. The caller checks the request.
absl::Status ExportStatement(const ProjectionStore& store,
                             const StatementExport& request, ExportSink sink);

// The finance report's days (ComputeFinanceReport's errors).
absl::Status ExportFinance(const ProjectionStore& store,
                           const FinanceQuery& query, ExportFormat format,
                           ExportSink sink);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_REPORT_EXPORT_H_
