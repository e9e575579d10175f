// The tournament director's money moves (libs/games/tournament/
// money_move.h) as balanced ledger transactions: one transaction per move,
// referencing the tournament, its reason named for finance (an entry paid
// is a BUY_IN, a refund a REFUND, a prize, a bounty or the overlay (the
// house funding the prizes) a PRIZE).
#ifndef BANCA_LIBS_SETTLEMENT_TOURNAMENT_SETTLEMENT_H_
#define BANCA_LIBS_SETTLEMENT_TOURNAMENT_SETTLEMENT_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "banca/v1/ledger.pb.h"
#include "libs/games/tournament/money_move.h"

namespace banca::settlement {

// INVALID_ARGUMENT for a move without postings or whose postings do not
// sum to 0 (a bug upstream: the ledger would refuse it too).
absl::StatusOr<v1::LedgerTransaction> TournamentTransaction(
    std::string_view tournament, const games::tournament::MoneyMove& move);

// The wallet stream a move is posted on: the paying player's for a
// payment, the tournament's otherwise.
std::string TournamentStreamOwner(std::string_view tournament,
                                  const games::tournament::MoneyMove& move);

}  // namespace banca::settlement

#endif  // BANCA_LIBS_SETTLEMENT_TOURNAMENT_SETTLEMENT_H_
