// The blackjack RTP simulation behind `banca bench rtp --game blackjack`:
// one seat plays basic strategy (basic_strategy.h) through the real Round
// engine, dealt from a shoe shuffled with cards::Shuffle from the caller's
// RandomSource. Pure apart from that source: the caller picks the system
// CSPRNG or a seeded generator.
#ifndef BANCA_LIBS_GAMES_BLACKJACK_RTP_SIMULATION_H_
#define BANCA_LIBS_GAMES_BLACKJACK_RTP_SIMULATION_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "libs/cards/random.h"
#include "libs/games/blackjack/settings.h"
#include "libs/games/rtp_tally.h"

namespace banca::games::blackjack {

inline constexpr int64_t kMaxSimulatedRounds = 10'000'000'000;

struct RtpSimulationOptions {
  TableSettings settings;  // the defaults: docs/rtp.md's theoretical figure
  int64_t rounds = 1'000'000;
  int64_t stake = 1000;  // cents, the main bet of every round
  // The shoe is reshuffled before a round when fewer than this share of
  // its cards (basis points) remain: 2500 = a cut card at 75%.
  int32_t reshuffle_below_bps = 2500;
};

struct RtpSimulation {
  RtpTally tally;              // per round: every stake, everything returned
  int64_t shuffles = 0;        // shoes used
  int64_t prizes = 0;          // BJ-25i special prizes paid
  int64_t prize_returned = 0;  // their cents (inside tally.returned)
};

// INVALID_ARGUMENT for bad settings, rounds outside 1..kMaxSimulatedRounds,
// a stake outside the table limits or a reshuffle point outside 1..5000 bps.
absl::StatusOr<RtpSimulation> SimulateRtp(const RtpSimulationOptions& options,
                                          cards::RandomSource& rng);

}  // namespace banca::games::blackjack

#endif  // BANCA_LIBS_GAMES_BLACKJACK_RTP_SIMULATION_H_
