// Gross gaming revenue (GGR) per game and day, read from ledger transactions
// alone: what finance reconciles and what the regulator's returns are built
// from. Pure: the caller feeds every posted transaction with the time it
// occurred (the event envelope's clock) and picks the time zone of the day
// boundaries.
//
// A row per (day, game):
//   stakes       placed on the game (reason BET, the amount credited to
//                game/<table>/wagers);
//   returned     everything the game credited to players: winnings with
//                their stakes, pushes, withdrawn bets and void refunds;
//   void_refunds the part of `returned` that voided rounds gave back
//                (reason VOID_REFUND: failures of the gaming system);
//   rake         cash-table rake (reason RAKE, credited to house/*);
//   ggr          the house's net from the game: credits minus debits of
//                house/* accounts (BET_LOST and PAYOUT move house/bank;
//                rake moves house/rake);
//   open         stakes - returned - (ggr - rake): stakes still in wagers
//                (rounds not settled by the end of the day; negative on the
//                day such rounds settle). Summed over all days it equals
//                the game/* balances, which `banca report ggr` checks.
// Cash-table transactions carry no game name; their rake is reported under
// the game "poker". Transactions of no game (deposits, holds, buy-ins,
// withdrawals) are not revenue and are skipped.
#ifndef BANCA_LIBS_LEDGER_GAMING_REVENUE_H_
#define BANCA_LIBS_LEDGER_GAMING_REVENUE_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "banca/v1/ledger.pb.h"

namespace banca::ledger {

inline constexpr char kCashTablesGame[] = "poker";

struct GamingRevenueRow {
  std::string day;   // "YYYY-MM-DD" in the tally's time zone
  std::string game;  // "roulette_french", "blackjack", "poker", ...
  int64_t stakes = 0;
  int64_t returned = 0;
  int64_t void_refunds = 0;
  int64_t rake = 0;
  int64_t ggr = 0;
  int64_t open = 0;
  int64_t bets = 0;          // BET transactions
  int64_t transactions = 0;  // every transaction counted in the row
};

class GamingRevenueTally {
 public:
  explicit GamingRevenueTally(absl::TimeZone zone = absl::UTCTimeZone())
      : zone_(zone) {}

  // Counts one posted transaction. OUT_OF_RANGE when a sum would overflow
  // (the tally is then unchanged).
  absl::Status Add(const v1::LedgerTransaction& tx, absl::Time occurred_at);

  // Sorted by day, then game.
  std::vector<GamingRevenueRow> Rows() const;
  // One row per game over every day (`day` empty), sorted by game.
  // OUT_OF_RANGE when a sum over days overflows.
  absl::StatusOr<std::vector<GamingRevenueRow>> TotalsByGame() const;
  // Everything (`day` and `game` empty).
  absl::StatusOr<GamingRevenueRow> Total() const;

 private:
  absl::TimeZone zone_;
  std::map<std::pair<std::string, std::string>, GamingRevenueRow> rows_;
};

}  // namespace banca::ledger

#endif  // BANCA_LIBS_LEDGER_GAMING_REVENUE_H_
