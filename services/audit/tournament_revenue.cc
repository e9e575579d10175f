#include "services/audit/tournament_revenue.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/games/tournament/money_move.h"
#include "libs/money/money.h"

namespace banca::audit {
namespace {

namespace tn = games::tournament;

absl::Status Accumulate(int64_t& field, int64_t delta) {
  ASSIGN_OR_RETURN(int64_t sum, money::Add(field, delta));
  field = sum;
  return absl::OkStatus();
}

// `into` + `row`, field by field; unchanged on overflow.
absl::Status AddRow(TournamentRevenueRow& into,
                    const TournamentRevenueRow& row) {
  TournamentRevenueRow next = into;
  for (auto [field, delta] : {std::pair{&next.fees, row.fees},
                              {&next.fee_refunds, row.fee_refunds},
                              {&next.overlay, row.overlay},
                              {&next.ggr, row.ggr},
                              {&next.payments, row.payments},
                              {&next.transactions, row.transactions}}) {
    if (absl::Status s = Accumulate(*field, delta); !s.ok()) {
      return absl::OutOfRangeError(absl::StrCat(
          "tournament GGR overflows adding ", row.day, ": ", s.message()));
    }
  }
  into = next;
  return absl::OkStatus();
}

// One transaction's row: its fees and overlay.
absl::StatusOr<TournamentRevenueRow> RowOf(const v1::LedgerTransaction& tx) {
  TournamentRevenueRow row;
  row.transactions = 1;
  row.payments = tx.reason() == v1::POSTING_REASON_BUY_IN ? 1 : 0;
  for (const v1::Posting& p : tx.postings()) {
    const int64_t amount = p.amount_minor();
    if (amount == INT64_MIN) {
      return absl::OutOfRangeError("a posting of INT64_MIN");
    }
    if (p.account() == tn::kFeesAccount) {
      RETURN_IF_ERROR(amount > 0 ? Accumulate(row.fees, amount)
                                 : Accumulate(row.fee_refunds, -amount));
      RETURN_IF_ERROR(Accumulate(row.ggr, amount));
    } else if (p.account() == tn::kOverlayAccount) {
      RETURN_IF_ERROR(Accumulate(row.overlay, -amount));
      RETURN_IF_ERROR(Accumulate(row.ggr, amount));
    }
  }
  return row;
}

}  // namespace

absl::Status TournamentRevenueTally::Add(const v1::LedgerTransaction& tx,
                                         absl::Time occurred_at) {
  if (tx.reference().kind() != v1::REFERENCE_KIND_TOURNAMENT) {
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(TournamentRevenueRow delta, RowOf(tx));
  delta.day = absl::FormatTime("%Y-%m-%d", occurred_at, zone_);
  auto it = rows_.find(delta.day);
  TournamentRevenueRow row =
      it == rows_.end() ? TournamentRevenueRow{.day = delta.day} : it->second;
  RETURN_IF_ERROR(AddRow(row, delta));
  rows_[row.day] = std::move(row);
  return absl::OkStatus();
}

std::vector<TournamentRevenueRow> TournamentRevenueTally::Rows() const {
  std::vector<TournamentRevenueRow> rows;
  rows.reserve(rows_.size());
  for (const auto& [day, row] : rows_) rows.push_back(row);
  return rows;
}

absl::StatusOr<TournamentRevenueRow> TournamentRevenueTally::Total() const {
  TournamentRevenueRow total;
  for (const auto& [day, row] : rows_) RETURN_IF_ERROR(AddRow(total, row));
  return total;
}

}  // namespace banca::audit
