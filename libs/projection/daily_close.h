// The daily close and the finance report (docs/reporting.md, "Finance
// reports"), computed from the finance part of the reporting projections
// (finance_projection.h): a day in an IANA time zone is the 15-minute
// buckets in [its first instant, the next day's), so any zone's day is an
// exact sum of buckets. For each day: the figures by game, table and
// tournament, the payments, the net movements and the balances at the
// close (player liabilities, open holds, prize pools, tickets, bounties),
// the count and SHA-256 of the day's events, and a reconciliation:
//   ledger_sums_to_zero   the balances at the close and the day's
//                         movements each sum to zero (double entry);
//   house_by_flows        the day's house/* movement = the games' GGR +
//                         house movements of no game (adjustments);
//   deposits_vs_external  deposits the wallet credited to players = what
//                         external/* paid in by DEPOSIT;
//   withdrawals_vs_external  withdrawals debited from players = what
//                         external/* received by WITHDRAWAL;
//   external_by_flows     the day's external/* movement = withdrawals −
//                         deposits + its other movements.
// The day's SHA-256 is SHA-256 over, for each bucket of the day in time
// order and each (topic, partition) with records in it in byte order of
// the topic then partition: u64le |topic| | topic | u32le partition |
// u64le count | the 32-byte chain (finance_projection.h); the SHA-256 of
// nothing for a day without events.
#ifndef BANCA_LIBS_PROJECTION_DAILY_CLOSE_H_
#define BANCA_LIBS_PROJECTION_DAILY_CLOSE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "banca/v1/reporting.pb.h"
#include "libs/projection/projection_store.h"

namespace banca::projection {

inline constexpr std::string_view kDefaultCloseTimeZone = "Europe/Lisbon";
// Days in one finance report (a leap year).
inline constexpr int kMaxFinanceReportDays = 366;
// Projection rows one report may read.
inline constexpr size_t kMaxFinanceRows = 50'000'000;

// The zone named (empty: Europe/Lisbon). INVALID_ARGUMENT for a name that
// is not a valid IANA zone name or that the zone database does not hold.
absl::StatusOr<absl::TimeZone> LoadCloseZone(std::string_view name);
// "YYYY-MM-DD", INVALID_ARGUMENT otherwise.
absl::StatusOr<absl::CivilDay> ParseCloseDate(std::string_view date);

struct FinanceQuery {
  std::string from_date;  // inclusive
  std::string to_date;    // inclusive (a day's close: from_date)
  std::string time_zone;  // empty: Europe/Lisbon
  // "game", "table", "tournament" (only that breakdown), "" all.
  std::string group_by;
  std::string currency;  // the wallet's, copied into each close
};

// INVALID_ARGUMENT for what ComputeFinanceReport would refuse, checked
// without reading anything: for a service to refuse bad input first.
absl::Status CheckFinanceQuery(const FinanceQuery& query);

// The closes of the days asked. INVALID_ARGUMENT for a bad date, zone or
// group_by, a reversed range or one of more than kMaxFinanceReportDays;
// RESOURCE_EXHAUSTED past kMaxFinanceRows.
absl::StatusOr<v1::FinanceReport> ComputeFinanceReport(
    const ProjectionStore& store, const FinanceQuery& query);

// One day's close (FinanceQuery with from_date = to_date = date).
absl::StatusOr<v1::DailyClose> ComputeDailyClose(const ProjectionStore& store,
                                                 std::string_view date,
                                                 std::string_view time_zone,
                                                 std::string_view currency);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_DAILY_CLOSE_H_
