// The banked games `banca bench rtp` can simulate: each drives its real
// engine (libs/games/<game>) with a fixed strategy, one round at a time,
// and knows its theoretical RTP under that strategy (derived in
// docs/rtp.md).
#ifndef BANCA_LIBS_GAMES_RTP_GAMES_H_
#define BANCA_LIBS_GAMES_RTP_GAMES_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "libs/cards/random.h"
#include "libs/games/rtp_tally.h"

namespace banca::games {

struct RtpGame {
  std::string_view name;      // the scenario game name, e.g. "blackjack"
  std::string_view strategy;  // what the simulated player does, one line
  double theoretical = 0;     // RTP under that strategy, docs/rtp.md
  // Plays `rounds` rounds, adding each to `tally`.
  absl::Status (*simulate)(int64_t rounds, cards::RandomSource& rng,
                           games::RtpTally& tally) = nullptr;
};

const std::vector<RtpGame>& RtpGames();

}  // namespace banca::games

#endif  // BANCA_LIBS_GAMES_RTP_GAMES_H_
