// Poker cash-table money as ledger transactions: pure functions from the
// engine's outcomes (libs/games/poker) to balanced v1::LedgerTransactions
// that the caller posts with Ledger::Post. Each names the table (buy-in,
// rebuy, cash-out) or the hand ("<table>.h<number>") in its Reference.
//
// Accounts (DESIGN "Ledger"): player/<id>/cash, table/<id>/seat/<player>
// (the stack; chips on a cash table are euros), table/<id>/pot (a hand's
// bets while it is settled; 0 between hands), house/rake.
//
// Buy-ins are one direct posting cash -> seat (+ house/rake for the HE-17b
// buy-in rake), not a hold and a capture: the table engine has already
// decided the seat when the money moves and the runner is synchronous, so
// there is no window for a hold to protect, and one transaction is atomic
// (the ledger refuses it as a whole when the cash is short) where a hold
// with two captures (seat and rake) would be three events that could stop
// half way. A table service that asks a remote wallet keeps DESIGN's hold.
#ifndef BANCA_LIBS_SETTLEMENT_POKER_SETTLEMENT_H_
#define BANCA_LIBS_SETTLEMENT_POKER_SETTLEMENT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "banca/v1/ledger.pb.h"
#include "libs/games/poker/events.h"
#include "libs/games/poker/hand.h"
#include "libs/games/poker/hand_record.h"

namespace banca::settlement {

inline constexpr std::string_view kRakeAccount = "house/rake";

std::string SeatAccount(std::string_view table_id, std::string_view player);
std::string PotAccount(std::string_view table_id);
// kind TABLE, id = the table id.
v1::Reference TableReference(std::string_view table_id);
// kind HAND, id "<table>.h<number>" (ids allow no '/').
std::string HandId(std::string_view table_id, int64_t hand_number);
v1::Reference HandReference(std::string_view table_id, int64_t hand_number);

// Buy-in or rebuy of `paid` cents, `rake` of it to house/rake (HE-17b):
// cash -paid, seat +(paid - rake), house/rake +rake. Reason BUY_IN.
// INVALID_ARGUMENT unless 0 < paid and 0 <= rake <= paid.
absl::StatusOr<v1::LedgerTransaction> BuyInTransaction(
    std::string_view table_id, std::string_view player, int64_t paid,
    int64_t rake, bool rebuy);

// HE-10: the stack back to cash. Reason TABLE_CASH_OUT. INVALID_ARGUMENT
// unless stack > 0 (a player leaving with nothing moves no money) and
// rake_refund >= 0. A compensated buy-in also gives back its HE-17b rake
// (`rake_refund`, from house/rake): the player never had the seat.
absl::StatusOr<v1::LedgerTransaction> CashOutTransaction(
    std::string_view table_id, std::string_view player, int64_t stack,
    int64_t rake_refund = 0);

// A finished hand, in posting order:
//   1. POT_CONTRIBUTION: each seat's chips that stayed in the hand -> pot
//      (for a void hand, HE-72, every chip it had put in);
//   2. void: VOID_REFUND pot -> each seat, the same amounts;
//      else one POT_AWARD per pot (main first): pot -> winners' seats;
//   3. RAKE: pot -> house/rake, when any rake was taken (HE-17a/18/19).
// Every transaction sums to 0 and together they return the pot to 0.
// `events` are the hand's own events (for the void refunds). INTERNAL when
// the result does not add up (contributions != pots), FAILED_PRECONDITION
// when the hand is not finished.
absl::StatusOr<std::vector<v1::LedgerTransaction>> HandTransactions(
    const games::poker::HandRecord& record,
    const games::poker::HandResult& result,
    absl::Span<const games::poker::Event> events);

}  // namespace banca::settlement

#endif  // BANCA_LIBS_SETTLEMENT_POKER_SETTLEMENT_H_
