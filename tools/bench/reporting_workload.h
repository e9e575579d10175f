// The log `banca bench reporting` projects: wallet events decided by the
// real ledger (libs/ledger) from the transactions the games' settlements
// build (libs/settlement), encoded by the wallet's codec, in a realistic
// mix: accounts opened on a player's first visit, deposits and
// withdrawals, banked rounds (roulette, blackjack, sem descarte: a stake
// and a settlement per bet), poker cash tables (buy-ins, each hand's
// contributions, award and rake, cash-outs) and tournaments (entries,
// then prizes). Deterministic: the same options write the same records.
#ifndef BANCA_TOOLS_BENCH_REPORTING_WORKLOAD_H_
#define BANCA_TOOLS_BENCH_REPORTING_WORKLOAD_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"

namespace banca::bench {

inline constexpr int64_t kMaxWorkloadEvents = 1'000'000'000;
inline constexpr int kMaxWorkloadPlayers = 10'000'000;

struct ReportingWorkloadOptions {
  int64_t events = 10'000'000;  // at least this many (a tournament's tail
                                // may add a few dozen)
  int players = 100'000;
  uint64_t seed = 1;  // std::mt19937_64
};

// What the workload wrote.
struct ReportingWorkloadCounts {
  int64_t events = 0;
  int64_t accounts = 0;
  int64_t deposits = 0;
  int64_t withdrawals = 0;
  int64_t banked_rounds = 0;
  int64_t banked_bets = 0;
  int64_t poker_hands = 0;
  int64_t poker_buy_ins = 0;
  int64_t poker_cash_outs = 0;
  int64_t tournaments = 0;
  int64_t tournament_entries = 0;
  int64_t tournament_prizes = 0;
  int64_t first_micros = 0;  // the events' clock
  int64_t last_micros = 0;
};

// The workload's player number `index` (0-based): "p<index>".
std::string WorkloadPlayer(int index);

// Appends the workload to the wallet topic of `log` (made if missing).
// INVALID_ARGUMENT for options out of range.
absl::StatusOr<ReportingWorkloadCounts> WriteReportingWorkload(
    eventlog::EventLog& log, const ReportingWorkloadOptions& options);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_REPORTING_WORKLOAD_H_
