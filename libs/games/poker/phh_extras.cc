#include "libs/games/poker/phh_extras.h"

#include <utility>

namespace banca::games::poker {

PhhExtras PhhExtrasOf(const HandResult& result) {
  PhhExtras extras;
  for (const PlayerResult& p : result.players) {
    extras.finishing_stacks.push_back(p.end_stack);
    extras.winnings.push_back(p.won);
  }
  for (const PotResult& pot : result.pots) {
    PhhPot p{pot.amount, pot.rake, {}};
    for (const SeatAmount& share : pot.shares) {
      p.winner_seats.push_back(share.seat);
    }
    extras.pots.push_back(std::move(p));
  }
  return extras;
}

}  // namespace banca::games::poker
