#include "libs/projection/report_export.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/common/status_macros.h"
#include "libs/projection/finance_format.h"
#include "libs/projection/wallet_projection.h"

namespace banca::projection {
namespace {

constexpr size_t kScanRows = 4096;

// Gathers lines and hands them on a chunk at a time.
class Chunker {
 public:
  explicit Chunker(ExportSink sink) : sink_(sink) {}
  std::string* buffer() { return &buffer_; }
  absl::Status LineAdded() {
    ++rows_;
    if (buffer_.size() < kExportChunkBytes) return absl::OkStatus();
    return Flush();
  }
  absl::Status Flush() {
    if (buffer_.empty()) return absl::OkStatus();
    absl::Status s = sink_(buffer_, rows_);
    buffer_.clear();
    rows_ = 0;
    return s;
  }

 private:
  ExportSink sink_;
  std::string buffer_;
  int64_t rows_ = 0;
};

}  // namespace

absl::Status ExportStatement(const ProjectionStore& store,
                             const StatementExport& r, ExportSink sink) {
  Chunker out(sink);
  if (r.format == ExportFormat::kCsv) {
    out.buffer()->append(StatementCsvHeader());
  }
  const std::string prefix = StatementPrefix(r.player_id);
  std::string start = absl::StrFormat("%s%016x", prefix, r.from_micros);
  int64_t rows = 0;
  while (true) {
    ASSIGN_OR_RETURN(auto page, store.Scan(prefix, start, kScanRows));
    for (const auto& [key, value] : page) {
      v1::StatementEntry entry;
      if (!entry.ParseFromString(value)) {
        return absl::DataLossError(
            absl::StrCat("statement row ", key, " does not parse"));
      }
      if (r.to_micros != 0 && entry.occurred_at_micros() >= r.to_micros) {
        return out.Flush();
      }
      if (++rows > kMaxExportRows) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "more than ", kMaxExportRows, " lines: export a shorter range"));
      }
      if (r.format == ExportFormat::kCsv) {
        AppendStatementCsv(r.player_id, r.currency, entry, out.buffer());
      } else {
        AppendStatementJson(r.player_id, r.currency, entry, out.buffer());
      }
      RETURN_IF_ERROR(out.LineAdded());
    }
    if (page.size() < kScanRows) break;
    start = page.back().first + '\0';
  }
  return out.Flush();
}

absl::Status ExportFinance(const ProjectionStore& store,
                           const FinanceQuery& query, ExportFormat format,
                           ExportSink sink) {
  ASSIGN_OR_RETURN(const v1::FinanceReport report,
                   ComputeFinanceReport(store, query));
  Chunker out(sink);
  if (format == ExportFormat::kCsv) out.buffer()->append(DailyCloseCsvHeader());
  for (const v1::DailyClose& close : report.days()) {
    if (format == ExportFormat::kCsv) {
      AppendDailyCloseCsv(close, out.buffer());
    } else {
      absl::StrAppend(out.buffer(), DailyCloseJson(close), "\n");
    }
    RETURN_IF_ERROR(out.LineAdded());
  }
  return out.Flush();
}

}  // namespace banca::projection
