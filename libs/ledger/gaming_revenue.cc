#include "libs/ledger/gaming_revenue.h"

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/ledger/account.h"
#include "libs/money/money.h"

namespace banca::ledger {
namespace {

// Adds `delta` to `field` of `row`, reporting overflow instead of wrapping.
absl::Status Accumulate(int64_t& field, int64_t delta) {
  ASSIGN_OR_RETURN(int64_t sum, money::Add(field, delta));
  field = sum;
  return absl::OkStatus();
}

absl::Status AddRow(GamingRevenueRow& into, const GamingRevenueRow& row) {
  GamingRevenueRow next = into;
  for (auto [field, delta] : {std::pair{&next.stakes, row.stakes},
                              {&next.returned, row.returned},
                              {&next.void_refunds, row.void_refunds},
                              {&next.rake, row.rake},
                              {&next.ggr, row.ggr},
                              {&next.open, row.open},
                              {&next.bets, row.bets},
                              {&next.transactions, row.transactions}}) {
    if (absl::Status s = Accumulate(*field, delta); !s.ok()) {
      return absl::OutOfRangeError(absl::StrCat(
          "GGR overflows adding ", row.game, " ", row.day, ": ", s.message()));
    }
  }
  into = next;
  return absl::OkStatus();
}

}  // namespace

absl::Status GamingRevenueTally::Add(const v1::LedgerTransaction& tx,
                                     absl::Time occurred_at) {
  std::string game = tx.game();
  if (game.empty()) {
    if (tx.reason() != v1::POSTING_REASON_RAKE) return absl::OkStatus();
    game = kCashTablesGame;
  }
  // One transaction's contribution, checked before it touches the tally.
  GamingRevenueRow delta;
  delta.transactions = 1;
  for (const v1::Posting& p : tx.postings()) {
    ASSIGN_OR_RETURN(AccountInfo info, ParseAccount(p.account()));
    const int64_t amount = p.amount_minor();
    absl::Status s;
    switch (info.account_class) {
      case AccountClass::kPlayer:
        if (amount > 0) {
          s = Accumulate(delta.returned, amount);
          if (s.ok() && tx.reason() == v1::POSTING_REASON_VOID_REFUND) {
            s = Accumulate(delta.void_refunds, amount);
          }
        }
        break;
      case AccountClass::kGame:
        if (tx.reason() == v1::POSTING_REASON_BET && amount > 0) {
          s = Accumulate(delta.stakes, amount);
        }
        break;
      case AccountClass::kHouse:
        s = Accumulate(delta.ggr, amount);
        if (s.ok() && tx.reason() == v1::POSTING_REASON_RAKE) {
          s = Accumulate(delta.rake, amount);
        }
        break;
      default:
        break;
    }
    if (!s.ok()) return absl::OutOfRangeError(s.message());
  }
  if (tx.reason() == v1::POSTING_REASON_BET) delta.bets = 1;
  // open = stakes - returned - (ggr - rake), all checked.
  absl::StatusOr<int64_t> bank = money::Sub(delta.ggr, delta.rake);
  absl::StatusOr<int64_t> kept =
      bank.ok() ? money::Sub(delta.stakes, delta.returned) : bank.status();
  absl::StatusOr<int64_t> open = kept.ok() ? money::Sub(*kept, *bank) : kept;
  if (!open.ok()) return absl::OutOfRangeError(open.status().message());
  delta.open = *open;

  std::string day = absl::FormatTime("%Y-%m-%d", occurred_at, zone_);
  GamingRevenueRow& row = rows_[{day, game}];
  if (row.game.empty()) {
    row.day = std::move(day);
    row.game = std::move(game);
  }
  return AddRow(row, delta);
}

std::vector<GamingRevenueRow> GamingRevenueTally::Rows() const {
  std::vector<GamingRevenueRow> rows;
  rows.reserve(rows_.size());
  for (const auto& [key, row] : rows_) rows.push_back(row);
  return rows;
}

absl::StatusOr<std::vector<GamingRevenueRow>> GamingRevenueTally::TotalsByGame()
    const {
  std::map<std::string, GamingRevenueRow> by_game;
  for (const auto& [key, row] : rows_) {
    GamingRevenueRow& total = by_game[row.game];
    total.game = row.game;
    RETURN_IF_ERROR(AddRow(total, row));
  }
  std::vector<GamingRevenueRow> totals;
  for (auto& [game, row] : by_game) totals.push_back(std::move(row));
  return totals;
}

absl::StatusOr<GamingRevenueRow> GamingRevenueTally::Total() const {
  GamingRevenueRow total;
  for (const auto& [key, row] : rows_) {
    RETURN_IF_ERROR(AddRow(total, row));
  }
  return total;
}

}  // namespace banca::ledger
