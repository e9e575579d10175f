#include "tools/banca/rtp_games.h"

namespace banca::cli {

const std::vector<RtpGame>& RtpGames() {
  // One entry per banked game, added as each engine lands.
  static const std::vector<RtpGame>* games = new std::vector<RtpGame>{};
  return *games;
}

}  // namespace banca::cli
