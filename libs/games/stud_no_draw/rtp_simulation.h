// Return-to-player simulation: one seat playing the fixed strategy
// (strategy.h) through the real round engine, with a deck shuffled from a
// RandomSource. `banca bench rtp --game stud_no_draw` tallies the rounds
// (libs/games/rtp_tally.h) and compares them with the exact figure
// (exact_rtp.h, docs/rtp.md).
#ifndef BANCA_LIBS_GAMES_STUD_NO_DRAW_RTP_SIMULATION_H_
#define BANCA_LIBS_GAMES_STUD_NO_DRAW_RTP_SIMULATION_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "libs/cards/random.h"
#include "libs/games/rtp_tally.h"

namespace banca::games::stud_no_draw {

struct RoundStakes {
  int64_t staked = 0;    // ante, plus the bet when the seat continued
  int64_t returned = 0;  // everything paid back, stakes included
};

// Plays one round at an individual table with `ante` cents (1..1e9):
// ante, deal, the strategy's decision, settlement. INVALID_ARGUMENT for an
// ante out of range.
absl::StatusOr<RoundStakes> SimulateRound(cards::RandomSource& rng,
                                          int64_t ante);

// `rounds` rounds (0..2^40) of SimulateRound with a 100-cent ante, each
// added to `tally`: what `banca bench rtp --game stud_no_draw` runs.
// INVALID_ARGUMENT for a count out of range, before any round.
absl::Status SimulateRounds(int64_t rounds, cards::RandomSource& rng,
                            RtpTally& tally);

}  // namespace banca::games::stud_no_draw

#endif  // BANCA_LIBS_GAMES_STUD_NO_DRAW_RTP_SIMULATION_H_
