#include "tools/banca/rtp_games.h"

#include "libs/games/stud_no_draw/exact_rtp.h"
#include "libs/games/stud_no_draw/rtp_simulation.h"

namespace banca::cli {

const std::vector<RtpGame>& RtpGames() {
  // One entry per banked game, added as each engine lands.
  static const std::vector<RtpGame>* games = new std::vector<RtpGame>{
      {"stud_no_draw",
       "continue with ace-king or better, else fold; ante 1.00 EUR",
       games::stud_no_draw::kTheoreticalRtp,
       games::stud_no_draw::SimulateRounds},
  };
  return *games;
}

}  // namespace banca::cli
