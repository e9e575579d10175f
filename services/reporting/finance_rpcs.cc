// The reporting service's finance RPCs (reporting.proto): the daily close,
// the finance report and the exports, computed by libs/projection
// (daily_close.h, report_export.h) from the service's projections.
#include <string>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/projection/daily_close.h"
#include "libs/projection/report_export.h"
#include "services/common/bearer_auth.h"
#include "services/reporting/reporting_roles.h"
#include "services/reporting/reporting_service.h"
#include "services/reporting/statement_range.h"

namespace banca::reporting {
namespace {

// An answer a client's default limit (4 MiB) still takes; a larger report
// is for ExportReport, or for group_by.
constexpr size_t kMaxFinanceReportBytes = 4 << 20;

// The currency asked for: empty or the wallet's (`held`).
absl::Status CheckCurrency(const std::string& asked, const std::string& held) {
  if (asked.empty() || asked == held) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("the system holds ", held, ", not \"",
                   absl::CEscape(asked.substr(0, 16)), "\""));
}

absl::StatusOr<projection::ExportFormat> FormatOf(v1::ExportFormat f) {
  switch (f) {
    case v1::EXPORT_FORMAT_CSV:
      return projection::ExportFormat::kCsv;
    case v1::EXPORT_FORMAT_JSON_LINES:
      return projection::ExportFormat::kJsonLines;
    default:
      return absl::InvalidArgumentError("format must be CSV or JSON_LINES");
  }
}

}  // namespace

absl::StatusOr<v1::FinanceReport> ReportingService::Finance(
    grpc::ServerContext* context, const projection::FinanceQuery& query) {
  ASSIGN_OR_RETURN(const auth::Claims caller, Caller(context));
  RETURN_IF_ERROR(MayReadFinance(caller));
  // Checked before waiting for the log: bad input costs nothing.
  RETURN_IF_ERROR(projection::CheckFinanceQuery(query));
  RETURN_IF_ERROR(CatchUpWithTheLog());
  ASSIGN_OR_RETURN(v1::FinanceReport report,
                   projection::ComputeFinanceReport(*store_, query));
  if (report.ByteSizeLong() > kMaxFinanceReportBytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the report is over ", kMaxFinanceReportBytes,
                     " bytes: ask for fewer days, a group_by, or use "
                     "ExportReport"));
  }
  return report;
}

grpc::Status ReportingService::GetDailyClose(
    grpc::ServerContext* context, const v1::DailyCloseRequest* request,
    v1::DailyClose* response) {
  absl::StatusOr<v1::FinanceReport> report =
      Finance(context, {request->date(), request->date(), request->time_zone(),
                        "", options_.currency});
  if (!report.ok()) return edge::ToGrpcStatus(report.status());
  *response = std::move(*report->mutable_days(0));
  return grpc::Status::OK;
}

grpc::Status ReportingService::GetFinanceReport(
    grpc::ServerContext* context, const v1::FinanceReportRequest* request,
    v1::FinanceReport* response) {
  absl::StatusOr<v1::FinanceReport> report = Finance(
      context, {request->from_date(), request->to_date(), request->time_zone(),
                request->group_by(), options_.currency});
  if (!report.ok()) return edge::ToGrpcStatus(report.status());
  *response = *std::move(report);
  return grpc::Status::OK;
}

absl::Status ReportingService::Export(
    grpc::ServerContext* context, const v1::ExportRequest& r,
    grpc::ServerWriter<v1::ExportChunk>* writer) {
  ASSIGN_OR_RETURN(const projection::ExportFormat format, FormatOf(r.format()));
  RETURN_IF_ERROR(CheckCurrency(r.currency(), options_.currency));
  auto sink = [&](std::string_view data, int64_t rows) -> absl::Status {
    if (context->IsCancelled()) return absl::CancelledError("client gone");
    v1::ExportChunk chunk;
    chunk.set_data(std::string(data));
    chunk.set_rows(rows);
    if (!writer->Write(chunk)) return absl::CancelledError("client gone");
    return absl::OkStatus();
  };
  if (r.kind() == v1::EXPORT_KIND_STATEMENT) {
    RETURN_IF_ERROR(
        CheckStatementRange(r.player_id(), r.from_micros(), r.to_micros()));
    RETURN_IF_ERROR(CatchUpWithTheLog());
    RETURN_IF_ERROR(CheckPlayerKnown(r.player_id()));
    projection::StatementExport request{r.player_id(), r.from_micros(),
                                        r.to_micros(), options_.currency,
                                        format};
    RETURN_IF_ERROR(projection::ExportStatement(*store_, request, sink));
  } else {
    projection::FinanceQuery query{r.from_date(), r.to_date(), r.time_zone(),
                                   "", options_.currency};
    RETURN_IF_ERROR(projection::CheckFinanceQuery(query));
    RETURN_IF_ERROR(CatchUpWithTheLog());
    RETURN_IF_ERROR(projection::ExportFinance(*store_, query, format, sink));
  }
  v1::ExportChunk last;
  last.set_last(true);
  if (!writer->Write(last)) return absl::CancelledError("client gone");
  return absl::OkStatus();
}

grpc::Status ReportingService::ExportReport(
    grpc::ServerContext* context, const v1::ExportRequest* request,
    grpc::ServerWriter<v1::ExportChunk>* writer) {
  absl::StatusOr<auth::Claims> caller = Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  absl::Status allowed;
  switch (request->kind()) {
    case v1::EXPORT_KIND_STATEMENT:
      allowed = MayReadPlayer(*caller, request->player_id());
      break;
    case v1::EXPORT_KIND_FINANCE:
      allowed = MayReadFinance(*caller);
      break;
    default:
      allowed = absl::InvalidArgumentError("kind must be STATEMENT or FINANCE");
  }
  if (!allowed.ok()) return edge::ToGrpcStatus(allowed);
  return edge::ToGrpcStatus(Export(context, *request, writer));
}

}  // namespace banca::reporting
