// Banked-game money as ledger transactions: pure functions from a bet and
// its outcome to balanced v1::LedgerTransactions that the caller posts with
// Ledger::Post. Roulette, blackjack and póquer sem descarte all settle this
// way; every player bets against the house.
//
// Accounts (DESIGN "Ledger"): player/<id>/cash, game/<table>/wagers (stakes
// in flight: a round's stakes while it is played, 0 between rounds) and
// house/bank (the house's side; negative when the house has lost).
//
// A bet's life: StakeTransaction when it is placed (cash -> wagers), then
// exactly one of SettleTransaction (the round ended) or VoidRefundTransaction
// (the round is void, or the bet was withdrawn). Each transaction names the
// round (reference kind ROUND, "<table>.r<number>"), the bet (bet_id) and the
// game, so that every payout posting says what it pays and finance reads
// gross gaming revenue per game and day from the ledger alone:
//   GGR = the bank's credits (BET_LOST) - its debits (PAYOUT).
#ifndef BANCA_LIBS_SETTLEMENT_BANKED_SETTLEMENT_H_
#define BANCA_LIBS_SETTLEMENT_BANKED_SETTLEMENT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "banca/v1/ledger.pb.h"

namespace banca::settlement {

inline constexpr std::string_view kBankAccount = "house/bank";

// game/<table>/wagers.
std::string WagersAccount(std::string_view table_id);
// "<table>.r<number>" (ids allow no '/').
std::string RoundId(std::string_view table_id, int64_t round_number);
v1::Reference RoundReference(std::string_view table_id, int64_t round_number);

// One stake on one spot of one round.
struct BankedBet {
  std::string game;      // "roulette_french", "blackjack", "stud_no_draw"...
  std::string table_id;  // a valid ledger id
  int64_t round = 0;     // >= 1
  std::string player;    // a valid ledger id
  std::string bet_id;    // unique within the round, e.g. "ana.main.2"
  int64_t stake = 0;     // cents, > 0
};

// INVALID_ARGUMENT naming the field when `bet` cannot be posted.
absl::Status ValidateBankedBet(const BankedBet& bet);

// The stake placed: player/<id>/cash -stake, wagers +stake. Reason BET.
absl::StatusOr<v1::LedgerTransaction> StakeTransaction(const BankedBet& bet);

// The bet settled, `returned` being everything the player gets back for it
// (stake included):
//   returned == 0           lost:     wagers -stake, bank +stake (BET_LOST)
//   0 < returned < stake    part lost (a surrender): wagers -stake,
//                           player +returned, bank +(stake - returned)
//                           (BET_LOST)
//   returned == stake       push:     wagers -stake, player +stake
//                           (BET_RETURNED)
//   returned > stake        won:      wagers -stake, bank -(returned - stake),
//                           player +returned (PAYOUT)
// INVALID_ARGUMENT when `returned` is negative or the bet is invalid.
absl::StatusOr<v1::LedgerTransaction> SettleTransaction(const BankedBet& bet,
                                                        int64_t returned);

// A void round (a failure of the gaming system) or a bet withdrawn before
// the launch: the stake back whole, wagers -> player. Reason VOID_REFUND
// when `withdrawn` is false, else BET_RETURNED.
absl::StatusOr<v1::LedgerTransaction> VoidRefundTransaction(
    const BankedBet& bet, bool withdrawn = false);

}  // namespace banca::settlement

#endif  // BANCA_LIBS_SETTLEMENT_BANKED_SETTLEMENT_H_
