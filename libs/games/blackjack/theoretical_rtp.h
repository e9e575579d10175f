// The theoretical RTP of blackjack under basic strategy (docs/rtp.md):
//  - the base game (every rule but the BJ-25i prize) by an exact
//    infinite-deck calculation: each card is 2..9 or an ace with
//    probability 1/13 and ten-valued with 4/13, whatever was dealt; the
//    dealer's outcome is computed per up card (given no blackjack after a
//    peek) and every hand is played by BasicStrategyByTotal, splits and
//    re-splits up to the table's limit included;
//  - the BJ-25i special prize exactly for the first round off a full
//    shoe of `decks` decks (cards removed as dealt), and by infinite deck.
// RTP is returned / staked, the quantity RtpTally measures: doubles and
// splits count as stakes. Every figure here is a dimensionless expectation
// in units of one main bet (a probability-weighted multiple), never an
// amount of money; money stays int64 cents in the engine and the ledger.
#ifndef BANCA_LIBS_GAMES_BLACKJACK_THEORETICAL_RTP_H_
#define BANCA_LIBS_GAMES_BLACKJACK_THEORETICAL_RTP_H_

#include "absl/status/statusor.h"
#include "libs/games/blackjack/settings.h"

namespace banca::games::blackjack {

struct TheoreticalRtp {
  // Dimensionless expectations in units of the main bet (ratios, not
  // money: the ledger never sees these), infinite deck.
  // Expected result of the base game (< 0: the house wins).
  double base_edge = 0;
  // Expected exposure: the main bet, doubles and splits, in main bets.
  double exposure = 0;
  // BJ-25i: expected special prize, in units of the main bet.
  double special_full_shoe = 0;  // exact, first round off a full shoe
  double special_infinite = 0;   // infinite deck
  double base_rtp() const { return 1 + base_edge / exposure; }
  double rtp() const { return 1 + (base_edge + special_full_shoe) / exposure; }
};

// INVALID_ARGUMENT for bad settings.
absl::StatusOr<TheoreticalRtp> ComputeTheoreticalRtp(
    const TableSettings& settings);

// The published house edge per initial bet of the default game (six decks,
// dealer stands on soft 17, double any two cards and after splits, no
// surrender, one card to split aces, 3:2): 0.42%, from the standard rule
// table (single deck -0.02%, six decks -0.53%, DAS +0.13%; docs/rtp.md).
// The infinite-deck calculation gives 0.51%; the difference is the
// well-known effect of a finite shoe.
inline constexpr double kDefaultGameHouseEdge = 0.0042;

// The RTP that `banca bench rtp --game blackjack` checks: the default
// game's published edge, the BJ-25i prize exact for a full six-deck shoe,
// over the expected stake per round (doubles and splits included).
double DefaultGameTheoreticalRtp();

}  // namespace banca::games::blackjack

#endif  // BANCA_LIBS_GAMES_BLACKJACK_THEORETICAL_RTP_H_
