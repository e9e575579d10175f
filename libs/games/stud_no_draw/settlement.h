// How one seat's two stakes (ante and bet) settle at the end of a round:
// pure functions from the stakes and the cards to the amounts the ledger
// posts. Each stake settles to (stake, returned): returned is everything
// paid back to the player for it, so 0 = lost, stake = push or returned,
// more than the stake = won (stake + winnings, digest gap 4).
#ifndef BANCA_LIBS_GAMES_STUD_NO_DRAW_SETTLEMENT_H_
#define BANCA_LIBS_GAMES_STUD_NO_DRAW_SETTLEMENT_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/cards/card.h"
#include "libs/cards/showdown.h"

namespace banca::games::stud_no_draw {

enum class Outcome : uint8_t {
  kFolded,          // SD-22, SD-32, SD-35: the ante is lost.
  kBankNotQualify,  // SD-26: the ante pays 1:1, the bet comes back (gap 3).
  kWon,             // SD-28: bet per SD-12, ante 1:1.
  kLost,            // SD-29: both stakes lost.
  kPush,            // Digest gap 1: an exact tie returns both stakes.
  kVoid,            // SD-33: the round is void; every stake comes back.
};
// "folded", "bank_not_qualified", "won", "lost", "push", "void".
std::string_view OutcomeName(Outcome outcome);

struct BetSettlement {
  int64_t stake = 0;
  int64_t returned = 0;
  int64_t net() const { return returned - stake; }  // the player's gain
  bool operator==(const BetSettlement&) const = default;
};

struct SeatSettlement {
  Outcome outcome = Outcome::kFolded;
  BetSettlement ante;
  BetSettlement bet;         // stake 0 when no second bet was placed
  int64_t multiplier = 0;    // SD-12 winnings per unit of bet, when won
  cards::Showdown showdown;  // SD-27 comparison, when the bank qualified
  int64_t staked() const { return ante.stake + bet.stake; }
  int64_t returned() const { return ante.returned + bet.returned; }
};

// SD-22/32/35: the player gave up (or was deemed to) before the bet.
SeatSettlement SettleFolded(int64_t ante);
// SD-33: a void round returns the ante and, if placed, the bet.
SeatSettlement SettleVoid(int64_t ante, int64_t bet);
// A player who placed the bet (2 × ante), against the bank's five cards:
// SD-25/26 (qualification), SD-27/28/29 with SD-12/13 and SD-9, gap 1.
// INVALID_ARGUMENT for a non-positive ante or one whose best payout would
// not be a valid amount, or cards that are not five each, all distinct.
absl::StatusOr<SeatSettlement> SettleContinued(
    int64_t ante, absl::Span<const cards::Card> player,
    absl::Span<const cards::Card> bank);

}  // namespace banca::games::stud_no_draw

#endif  // BANCA_LIBS_GAMES_STUD_NO_DRAW_SETTLEMENT_H_
