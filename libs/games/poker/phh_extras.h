// The PHH extras (phh.h) that come from the engine's result: finishing
// stacks, winnings and the pots with their rake and winners. Every writer
// of banca's PHH (the hands export, the reporting service's histories, the
// oracle's hands) starts from these and adds its own labels.
#ifndef BANCA_LIBS_GAMES_POKER_PHH_EXTRAS_H_
#define BANCA_LIBS_GAMES_POKER_PHH_EXTRAS_H_

#include "libs/games/poker/hand.h"
#include "libs/games/poker/phh.h"

namespace banca::games::poker {

PhhExtras PhhExtrasOf(const HandResult& result);

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_PHH_EXTRAS_H_
