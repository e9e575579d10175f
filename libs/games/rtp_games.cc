#include "libs/games/rtp_games.h"

#include "libs/common/status_macros.h"
#include "libs/games/blackjack/rtp_simulation.h"
#include "libs/games/blackjack/theoretical_rtp.h"
#include "libs/games/roulette/rtp_simulation.h"
#include "libs/games/stud_no_draw/exact_rtp.h"
#include "libs/games/stud_no_draw/rtp_simulation.h"

namespace banca::games {
namespace {

absl::Status SimulateBlackjack(int64_t rounds, cards::RandomSource& rng,
                               games::RtpTally& tally) {
  games::blackjack::RtpSimulationOptions options;  // the default table
  options.rounds = rounds;
  ASSIGN_OR_RETURN(games::blackjack::RtpSimulation sim,
                   games::blackjack::SimulateRtp(options, rng));
  tally.Merge(sim.tally);
  return absl::OkStatus();
}

// BenchRtpStrategy() on the given wheel: one bet a spin, in turn.
template <games::roulette::WheelKind kWheel>
absl::Status SimulateRoulette(int64_t rounds, cards::RandomSource& rng,
                              games::RtpTally& tally) {
  ASSIGN_OR_RETURN(
      games::RtpTally sim,
      games::roulette::SimulateRtp(kWheel, games::roulette::BenchRtpStrategy(),
                                   rounds, rng));
  tally.Merge(sim);
  return absl::OkStatus();
}

constexpr std::string_view kRouletteStrategy =
    "one bet a spin, 18 in turn: 1.00 EUR on straight 0, straight 17, split "
    "17-20, street 16-18, corner 17-21, line 13-18, dozen 2, column 2 and "
    "each simple chance; 2.00 on dozens 1+2 and columns 2+3; 3.00 on 17 and "
    "two neighbours and on finals 7";

}  // namespace

const std::vector<RtpGame>& RtpGames() {
  // One entry per banked game, added as each engine lands.
  static const std::vector<RtpGame>* games = new std::vector<RtpGame>{
      {"blackjack",
       "basic strategy (multi-deck chart), never insurance; default table: 6 "
       "decks, S17, DAS, split to 4, no surrender, peek, 3:2",
       games::blackjack::DefaultGameTheoreticalRtp(), &SimulateBlackjack},
      {"stud_no_draw",
       "continue with ace-king or better, else fold; ante 1.00 EUR",
       games::stud_no_draw::kTheoreticalRtp,
       games::stud_no_draw::SimulateRounds},
      // Appended after the others so that their CI seeds stay the same.
      {"roulette_french", kRouletteStrategy,
       games::roulette::TheoreticalRtp(games::roulette::WheelKind::kFrench),
       &SimulateRoulette<games::roulette::WheelKind::kFrench>},
      {"roulette_american", kRouletteStrategy,
       games::roulette::TheoreticalRtp(
           games::roulette::WheelKind::kAmericanDoubleZero),
       &SimulateRoulette<games::roulette::WheelKind::kAmericanDoubleZero>},
      {"roulette_american_37", kRouletteStrategy,
       games::roulette::TheoreticalRtp(
           games::roulette::WheelKind::kAmericanSingleZero),
       &SimulateRoulette<games::roulette::WheelKind::kAmericanSingleZero>},
  };
  return *games;
}

}  // namespace banca::games
