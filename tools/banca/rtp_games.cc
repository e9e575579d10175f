#include "tools/banca/rtp_games.h"

#include "libs/games/blackjack/rtp_simulation.h"
#include "libs/games/blackjack/theoretical_rtp.h"
#include "libs/games/stud_no_draw/exact_rtp.h"
#include "libs/games/stud_no_draw/rtp_simulation.h"

namespace banca::cli {
namespace {

absl::Status SimulateBlackjack(int64_t rounds, cards::RandomSource& rng,
                               games::RtpTally& tally) {
  games::blackjack::RtpSimulationOptions options;  // the default table
  options.rounds = rounds;
  absl::StatusOr<games::blackjack::RtpSimulation> sim =
      games::blackjack::SimulateRtp(options, rng);
  if (!sim.ok()) return sim.status();
  tally.Merge(sim->tally);
  return absl::OkStatus();
}

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
  };
  return *games;
}

}  // namespace banca::cli
