// Return to player, simulated: one fixed bet per spin through the engine,
// on a player-triggered individual wheel, the spins drawn uniformly from a
// cards::RandomSource. Pure apart from the source it is given; production
// engines never link this (its own library, banca_roulette_rtp). The
// theoretical values are in docs/rtp.md.
#ifndef BANCA_LIBS_GAMES_ROULETTE_RTP_SIMULATION_H_
#define BANCA_LIBS_GAMES_ROULETTE_RTP_SIMULATION_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/cards/random.h"
#include "libs/games/roulette/bet.h"
#include "libs/games/rtp_tally.h"

namespace banca::games::roulette {

// The bound on one simulation's rounds.
inline constexpr int64_t kMaxSimulatedRounds = 1'000'000'000;

// The default strategy: one straight-up bet of 1 euro on 17 per spin.
BetRequest DefaultRtpBet();

// The strategy of `banca bench rtp` and the CI gate (docs/rtp.md): one bet
// a spin, these eighteen in turn: 1 euro on each chance of RF-7 (straight
// 0 and 17, split 17-20, street 16-18, corner 17-18-20-21, line 13-18,
// dozen 2, column 2, the six simple chances), 2 euros on each 24-number
// chance (dozens 1+2, columns 2+3) and the two call bets every wheel
// offers: 17 and two neighbours, finals 7 (3 euros each). Every bet exists
// on every wheel, so each chance's payout, the zero rules and the call-bet
// layouts all take part; one bet a spin keeps a million spins quick.
std::vector<BetRequest> BenchRtpStrategy();

// Every bet on a single-zero wheel returns 36/37 of its stake on average,
// on a double-zero wheel 36/38 (every winning bet on n numbers returns
// 36/n times its stake). A statistic, never money.
double TheoreticalRtp(WheelKind wheel);

// `rounds` spins with `bet` placed before each. INVALID_ARGUMENT for rounds
// outside 1..kMaxSimulatedRounds or a bet the wheel's table refuses.
absl::StatusOr<RtpTally> SimulateRtp(WheelKind wheel, const BetRequest& bet,
                                     int64_t rounds, cards::RandomSource& rng);
// The same with the bets of `bets` in turn, one before each spin: round r
// places bets[r % bets.size()].
absl::StatusOr<RtpTally> SimulateRtp(WheelKind wheel,
                                     absl::Span<const BetRequest> bets,
                                     int64_t rounds, cards::RandomSource& rng);

}  // namespace banca::games::roulette

#endif  // BANCA_LIBS_GAMES_ROULETTE_RTP_SIMULATION_H_
