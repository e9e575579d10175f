// What the tournament director asks the wallet to do: each money movement
// as a balanced set of postings on named accounts, with why it happens and
// whose entry it concerns. The director decides; the service (or the
// scenario runner) posts each move as one ledger transaction, and refuses
// the command whole when the ledger refuses a move (cash short).
//
// Accounts (libs/ledger/account.h):
//   player/<id>/cash                      entries paid, prizes and refunds
//   tournament/<id>/prize_pool            prize parts (TN-20), overlay
//   tournament/<id>/bounties              bounties set aside (TN-7p)
//   tournament/<target>/tickets/<player>  entries won (TN-16, TN-28–30)
//   house/tournament_fees                 the fee (rake) of each payment
//   house/overlay                         what the house adds (TN-7m)
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_MONEY_MOVE_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_MONEY_MOVE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace banca::games::tournament {

inline constexpr std::string_view kFeesAccount = "house/tournament_fees";
inline constexpr std::string_view kOverlayAccount = "house/overlay";

std::string PrizePoolAccount(std::string_view tournament);
std::string BountiesAccount(std::string_view tournament);
// Entries won, held for `player`, usable only by them in `tournament`.
std::string TicketAccount(std::string_view tournament, std::string_view player);
std::string CashAccount(std::string_view player);

enum class MoveKind {
  kBuyIn,          // TN-14, TN-22
  kReentry,        // TN-2k
  kRebuy,          // TN-2j
  kAddOn,          // TN-2a
  kUnregister,     // TN-24/25: the buy-in back in full
  kCancelRefund,   // TN-36–38
  kOverlay,        // TN-7m: house → pool when the prizes are fixed
  kPrize,          // TN-54: pool → a player (cash or ticket)
  kBounty,         // TN-7p: bounties → the eliminating pot's winners
  kTicketCashOut,  // TN-29: an entry won, held as a ticket → cash
};

std::string_view MoveKindName(MoveKind kind);

struct Posting {
  std::string account;
  int64_t amount = 0;  // signed cents, never 0; a move's postings sum to 0
  bool operator==(const Posting&) const = default;
};

struct MoneyMove {
  MoveKind kind = MoveKind::kBuyIn;
  std::string player;  // whose entry or prize; "" for the overlay
  int entry = 0;       // the entry's number in the tournament (1-based), or 0
  std::vector<Posting> postings;
  std::string memo;  // for statements: "buy-in 1000 = 900 prize + 100 fee"
  bool operator==(const MoneyMove&) const = default;
};

// Adds `amount` to the move's posting on `account` (one per account, as
// the ledger wants); a posting that comes to 0 is dropped.
void AddPosting(MoneyMove& move, std::string account, int64_t amount);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_MONEY_MOVE_H_
