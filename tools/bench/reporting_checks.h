// After the game bots have played (game_bots.h), what the reporting
// service says about them, checked over gRPC against the services that
// made the money move (issue 20, "Done when"):
// - every game is in the histories: each banked round a bot played (the
//   histories of its game, summed over the bots, are its tally's rounds),
//   every hand of the cash table, the sit and go with its hands;
// - every statement line is the wallet's: each bot's GetStatement is its
//   ListTransactions, line for line (transaction, account, amount, balance
//   after), and ends at its balance;
// - each bot has sessions of its game (HE-67, BJ-33, SD-39, RFD-29);
// - today's daily close (Europe/Lisbon) is reconciled, and its balances
//   at the close (player, table, game, tournament, house, external) and
//   open holds are the wallet's ledger summary's, to the cent.
// Each check that fails is a line in `failures`.
#ifndef BANCA_TOOLS_BENCH_REPORTING_CHECKS_H_
#define BANCA_TOOLS_BENCH_REPORTING_CHECKS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tools/bench/game_bots_env.h"

namespace banca::bench {

// The reporting service's figures the checks read, for the summary line.
struct ReportingTally {
  int64_t histories = 0;
  int64_t statement_lines = 0;
  int64_t sessions = 0;
  std::string close_date;
  std::string close_sha256;
  int64_t close_events = 0;
};

// An error when a call fails (the service unreachable, an answer refused);
// failed checks are added to `failures`.
absl::Status CheckReporting(GameBotsEnv& env,
                            const std::vector<GamePlay>& plays,
                            ReportingTally& tally,
                            std::vector<std::string>& failures);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_REPORTING_CHECKS_H_
