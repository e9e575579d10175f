// banca report ggr: gross gaming revenue per game and day, read from the
// wallet's ledger transactions on the log (libs/ledger/gaming_revenue.h
// defines every column), and the tournaments' per day (fees as revenue,
// the overlay as a cost: tournament_revenue.h), reconciled against the
// ledger it replays, in the wallet's currency. The house accounts the
// report ties to (house/rake, house/tournament_fees, house/overlay) are
// reconciled by their flows (account_flows.h): what the report counts plus
// every other movement, each shown, must be what the account holds.
#ifndef BANCA_SERVICES_AUDIT_GGR_REPORT_H_
#define BANCA_SERVICES_AUDIT_GGR_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/gaming_revenue.h"
#include "services/audit/account_flows.h"
#include "services/audit/audit_problem.h"
#include "services/audit/tournament_revenue.h"

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
  std::string tool_version;
  // The wallet's, as its log names it (wallet_currency.h).
  std::string currency;
  int64_t events = 0;
  std::vector<ledger::GamingRevenueRow> rows;    // within the bounds
  std::vector<ledger::GamingRevenueRow> totals;  // per game, within them
  // Over the whole log: the report's sums against the replayed ledger.
  int64_t open_stakes = 0;         // sum of `open` over every day
  int64_t game_balances = 0;       // what game/* accounts hold
  int64_t rake = 0;                // sum of `rake` over every day
  int64_t house_rake_balance = 0;  // what house/rake holds
  // The tournaments: rows within the bounds and their total.
  std::vector<TournamentRevenueRow> tournament_rows;
  TournamentRevenueRow tournament_total;
  // Over the whole log: fees less refunds against house/tournament_fees,
  // the overlay against what house/overlay paid (−its balance).
  int64_t tournament_fees = 0;
  int64_t tournament_fees_balance = 0;
  int64_t overlay = 0;
  int64_t overlay_paid_balance = 0;
  // Over the whole log: house/rake, house/tournament_fees and
  // house/overlay by their flows.
  std::vector<AccountFlows> accounts;
  // Kind "reconciliation", each naming its account.
  Problems problems;
  bool ok() const { return problems.empty(); }
};

// INVALID_ARGUMENT for a malformed day bound; the log's errors as they are.
absl::StatusOr<GgrReport> BuildGgrReport(eventlog::EventLog& log,
                                         const GgrReportOptions& options);

std::string GgrReportJson(const GgrReport& report);
std::string FormatGgrReport(const GgrReport& report);

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_GGR_REPORT_H_
