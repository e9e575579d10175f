// RF-8 call bets laid out as standard chips on the board (digest "Decisions
// for banca" and section 3 gaps 3-4; docs/roulette.md draws them):
//  - voisins du zéro, 9 units: street 0-2-3 ×2, splits 4-7, 12-15, 18-21,
//    19-22, 32-35, corner 25-26-28-29 ×2 (the 17 numbers of RF-8a);
//  - tiers du cylindre, 6 units: splits 5-8, 10-11, 13-16, 23-24, 27-30,
//    33-36 (the 12 numbers of RF-8b);
//  - orphelins, 5 units: straight 1, splits 6-9, 14-17, 17-20, 31-34 (the 8
//    numbers of RF-8c);
//  - a number and 2, 4 or 6 neighbours: that many split evenly on both
//    sides on the wheel, one straight-up each (3, 5 or 7 units);
//  - finals d: a straight-up on every number ending in d (4 units for 0..6,
//    3 for 7..9).
// The first three are sections of the French wheel; the American wheel
// orders its pockets differently, so they are French only. Neighbours
// follow the table's own wheel order (00 included on a double-zero wheel);
// finals 0 is 0, 10, 20, 30 on every wheel (00 is not a number ending in 0).
#ifndef BANCA_LIBS_GAMES_ROULETTE_CALL_BETS_H_
#define BANCA_LIBS_GAMES_ROULETTE_CALL_BETS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "libs/games/roulette/bet.h"

namespace banca::games::roulette {

struct CallBetChip {
  Position position;
  int units = 1;  // the chip's share of the bet, in units
};

// The chips of a call bet request (kind voisins, tiers, orphelins,
// neighbours or finals). INVALID_ARGUMENT for a French-only call bet on an
// American wheel, a neighbours count other than 2, 4, 6, a centre off the
// wheel or a finals digit outside 0..9.
absl::StatusOr<std::vector<CallBetChip>> CallBetLayout(
    WheelKind wheel, const BetRequest& request);

// The sum of the chips' units.
int TotalUnits(const std::vector<CallBetChip>& chips);

}  // namespace banca::games::roulette

#endif  // BANCA_LIBS_GAMES_ROULETTE_CALL_BETS_H_
