// `banca bench tournament`: one multi-table tournament played to a winner
// in process. The director (libs/games/tournament) plays every hand with
// the poker engine; machine players (autoplay.h) decide from a seeded
// std::mt19937_64, which is a benchmark's generator, never a production
// draw. Every money move is posted to a real ledger (players' accounts
// opened and funded first), whose balances must sum to 0 at the end.
#ifndef BANCA_TOOLS_BENCH_TOURNAMENT_BENCH_H_
#define BANCA_TOOLS_BENCH_TOURNAMENT_BENCH_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

namespace banca::bench {

// The largest field the bench plays (the director's kMaxEntries is more;
// this keeps a run within minutes).
inline constexpr int kMaxBenchEntrants = 100'000;

struct TournamentBenchOptions {
  int entrants = 10'000;  // 2..kMaxBenchEntrants
  int seats = 9;          // a table's seats, 2..10
  uint64_t seed = 1;
  bool rebuys = false;  // rebuys in levels 1–4, an add-on in level 4
  // Hands (all tables together) a blind level lasts; 0: ten hands a
  // starting table (levels as if timed, every table dealing).
  int64_t hands_per_level = 0;
  // The chance, in percent, that a machine player's decision is all in
  // (autoplay.h); the lower, the longer the tournament.
  int all_in_percent = 0;
};

struct TournamentBenchResult {
  int entrants = 0;
  int tables = 0;  // at the start
  int paid_places = 0;
  int64_t hands = 0;
  int64_t levels = 0;  // levels started after the first
  int64_t rebuys = 0;
  int64_t addons = 0;
  int64_t balancing_moves = 0;
  int64_t ledger_transactions = 0;  // the director's money moves, posted
  bool finished = false;
  int64_t ledger_sum = 0;
  int64_t prize_pool = 0;        // cents, as fixed
  int64_t prize_pool_left = 0;   // in the ledger at the end (0)
  double setup_seconds = 0;      // accounts, deposits, registrations
  double seconds_to_finish = 0;  // the seat draw to the winner, wall
  double cpu_seconds = 0;        // the same span, this process's CPU
  double peak_rss_mb = 0;
};

// The payouts of `places` paid places, best first: shares proportional to
// 1 / place, each at least 1 bps, never rising, summing to 10,000 bps.
// 1 <= places <= 10,000.
std::vector<int32_t> BenchPayouts(int places);

// INVALID_ARGUMENT for options out of range; else the figures, with
// `finished` false if the tournament did not reach a winner (the error
// that stopped it is returned when there is one).
absl::StatusOr<TournamentBenchResult> RunTournamentBench(
    const TournamentBenchOptions& options);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_TOURNAMENT_BENCH_H_
