// banca report ggr: gross gaming revenue per game and day, read from the
// wallet's ledger transactions on the log (libs/ledger/gaming_revenue.h
// defines every column), reconciled against the ledger it replays.
#ifndef BANCA_SERVICES_AUDIT_GGR_REPORT_H_
#define BANCA_SERVICES_AUDIT_GGR_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/gaming_revenue.h"

namespace banca::audit {

struct GgrReportOptions {
  absl::TimeZone zone = absl::UTCTimeZone();
  std::string zone_name = "UTC";
  // Inclusive "YYYY-MM-DD" bounds on the rows shown; empty: unbounded.
  std::string from_day;
  std::string to_day;
};

struct GgrReport {
  GgrReportOptions options;
  std::string currency;
  int64_t events = 0;
  std::vector<ledger::GamingRevenueRow> rows;    // within the bounds
  std::vector<ledger::GamingRevenueRow> totals;  // per game, within them
  // Over the whole log: the report's sums against the replayed ledger.
  int64_t open_stakes = 0;         // sum of `open` over every day
  int64_t game_balances = 0;       // what game/* accounts hold
  int64_t rake = 0;                // sum of `rake` over every day
  int64_t house_rake_balance = 0;  // what house/rake holds
  std::vector<std::string> problems;
  bool ok() const { return problems.empty(); }
};

// INVALID_ARGUMENT for a malformed day bound; the log's errors as they are.
absl::StatusOr<GgrReport> BuildGgrReport(eventlog::EventLog& log,
                                         const GgrReportOptions& options);

std::string GgrReportJson(const GgrReport& report);
std::string FormatGgrReport(const GgrReport& report);

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_GGR_REPORT_H_
