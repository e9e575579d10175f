// The tournaments' part of `banca report ggr` (ggr_report.h), per day, from
// the ledger transactions alone: a tournament's revenue is its fees
// (house/tournament_fees; TN-18) and its cost the overlay the house pays
// to meet a guarantee (house/overlay; TN-7m). Prize pools, bounties and
// tickets are the players' money and never revenue.
//
// A row per day, over the transactions that reference a tournament
// (REFERENCE_KIND_TOURNAMENT, libs/settlement/tournament_settlement.h):
//   fees          credited to house/tournament_fees (every payment's fee);
//   fee_refunds   debited from it (unregistrations, cancellations, a
//                 payment paid back);
//   overlay       debited from house/overlay, less what a cancellation gave
//                 back to it (so negative on a day that only gives back);
//   ggr           fees − fee_refunds − overlay: the house's net from the
//                 tournaments, i.e. what their transactions moved on house/*;
//   payments      BUY_IN transactions (buy-ins, reentries, rebuys, add-ons).
// Summed over every day, fees − fee_refunds must be what
// house/tournament_fees holds and overlay what house/overlay paid, which
// `banca report ggr` checks against the replayed ledger.
#ifndef BANCA_SERVICES_AUDIT_TOURNAMENT_REVENUE_H_
#define BANCA_SERVICES_AUDIT_TOURNAMENT_REVENUE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "banca/v1/ledger.pb.h"

namespace banca::audit {

struct TournamentRevenueRow {
  std::string day;  // "YYYY-MM-DD" in the tally's time zone; "" in a total
  int64_t fees = 0;
  int64_t fee_refunds = 0;
  int64_t overlay = 0;
  int64_t ggr = 0;
  int64_t payments = 0;
  int64_t transactions = 0;
};

class TournamentRevenueTally {
 public:
  explicit TournamentRevenueTally(absl::TimeZone zone = absl::UTCTimeZone())
      : zone_(zone) {}

  // Counts one posted transaction (nothing for one of no tournament).
  // OUT_OF_RANGE when a sum would overflow (the tally is then unchanged).
  absl::Status Add(const v1::LedgerTransaction& tx, absl::Time occurred_at);

  // Sorted by day.
  std::vector<TournamentRevenueRow> Rows() const;
  // Every day together. OUT_OF_RANGE when a sum overflows.
  absl::StatusOr<TournamentRevenueRow> Total() const;

 private:
  absl::TimeZone zone_;
  std::map<std::string, TournamentRevenueRow> rows_;
};

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_TOURNAMENT_REVENUE_H_
