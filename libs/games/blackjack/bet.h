// The separate stakes of a blackjack round and what each returns. Every
// stake is its own bet for the ledger: the main bet, each hand a split
// creates, each double, and the insurance. `returned` is the total paid
// back for that bet: 0 lost, == stake push (or void), > stake won, between
// for a surrender.
#ifndef BANCA_LIBS_GAMES_BLACKJACK_BET_H_
#define BANCA_LIBS_GAMES_BLACKJACK_BET_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace banca::games::blackjack {

enum class BetKind : uint8_t {
  kMain,       // hand 1's stake, placed before the deal
  kSplit,      // the stake of hand 2..4, created by a split
  kDouble,     // the extra stake of a doubled hand
  kInsurance,  // BJ-25f/g
};

enum class Outcome : uint8_t {
  kLost,
  kPush,  // BJ-25h: the stake stays the player's
  kWon,   // BJ-26: stake back plus the winnings
  kBlackjack,
  kSurrendered,
  kVoid,  // BJ-27/28: returned
};

std::string_view BetKindName(BetKind kind);
std::string_view OutcomeName(Outcome outcome);

// "main", "split2", "double1", "insurance": unique within a seat's round.
// `hand` is the hand's number (1 = the main hand, 2..4 in the order splits
// created them); ignored for the main and insurance bets.
std::string BetId(BetKind kind, int hand);

struct BetResult {
  int seat = 0;
  BetKind kind = BetKind::kMain;
  int hand = 1;  // 0 for insurance
  int64_t stake = 0;
  int64_t returned = 0;
  Outcome outcome = Outcome::kLost;
  // BJ-25i: the special prize included in `returned` (3 x this stake).
  int64_t prize = 0;
  bool operator==(const BetResult&) const = default;
};

}  // namespace banca::games::blackjack

#endif  // BANCA_LIBS_GAMES_BLACKJACK_BET_H_
