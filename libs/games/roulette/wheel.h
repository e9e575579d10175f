// The wheels' pocket orders (RF-6c, RA-6c) and neighbours on them, which
// the neighbour call bet (RF-8d) follows.
#ifndef BANCA_LIBS_GAMES_ROULETTE_WHEEL_H_
#define BANCA_LIBS_GAMES_ROULETTE_WHEEL_H_

#include <vector>

#include "absl/types/span.h"
#include "libs/games/roulette/pocket.h"

namespace banca::games::roulette {

// Clockwise from 0, as the rules print them (RA-6c with the digest's OCR
// corrections: "36-13-1" and "9-26").
absl::Span<const Pocket> WheelOrder(WheelKind wheel);

// The centre and `per_side` pockets on each side of it on the wheel, in
// clockwise order starting `per_side` pockets anticlockwise of the centre.
// The centre must be on the wheel and per_side in 0..(count-1)/2.
std::vector<Pocket> WheelSection(WheelKind wheel, Pocket centre, int per_side);

}  // namespace banca::games::roulette

#endif  // BANCA_LIBS_GAMES_ROULETTE_WHEEL_H_
