// The betting board (RF-6d, RFD-6f, RA-6d): which sets of numbers form a
// legal bet on each chance. Numbers 1..36 sit in twelve rows of three
// (row r holds 3r+1, 3r+2, 3r+3; columns are headed by 34, 35 and 36), the
// zero (and 00) above the first row.
//
// Bets that include zeros (digest section 3 gap 7, RFD-21; RA gap 5):
//  - single-zero boards (French, American 37): splits 0-1, 0-2, 0-3;
//    streets 0-1-2 and 0-2-3; the corner 0-1-2-3;
//  - the double-zero board: 0 borders 1 and 2, 00 borders 2 and 3:
//    splits 0-1, 0-2, 00-2, 00-3 and 0-00; streets 0-1-2, 0-00-2, 00-2-3;
//    no corner with a zero (the five-number bet is not offered).
// A line is two adjacent rows (1-6 … 31-36), never with a zero.
#ifndef BANCA_LIBS_GAMES_ROULETTE_BOARD_H_
#define BANCA_LIBS_GAMES_ROULETTE_BOARD_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/games/roulette/chance.h"
#include "libs/games/roulette/pocket.h"

namespace banca::games::roulette {

// One place on the board: a chance and the numbers it covers. Two bets on
// the same position add up against that chance's maximum (gap 9).
struct Position {
  Chance chance = Chance::kStraight;
  NumberSet numbers;
  auto operator<=>(const Position&) const = default;
};

// Inside chances (straight, split, street, corner, line) from the covered
// numbers, in any order. INVALID_ARGUMENT for a wrong count, a number off
// the wheel, a repeated number or numbers that do not border each other
// as the chance needs.
absl::StatusOr<Position> InsidePosition(WheelKind wheel, Chance chance,
                                        absl::Span<const Pocket> numbers);

// Dozen / column `index` 1, 2 or 3 (column 1 is headed by 34).
absl::StatusOr<Position> DozenPosition(int index);
absl::StatusOr<Position> ColumnPosition(int index);
// Two adjacent dozens / columns, in either order: {1,2} or {2,3}.
absl::StatusOr<Position> DozenSplitPosition(absl::Span<const int> indexes);
absl::StatusOr<Position> ColumnSplitPosition(absl::Span<const int> indexes);
// Even, odd, low, high, red or black.
Position SimplePosition(Chance chance);

// Every legal position of an inside chance on this wheel's board
// (straight 37 or 38, split 60/62, street 14/15, corner 23/22, line 11).
std::vector<Position> LegalInsidePositions(WheelKind wheel, Chance chance);

// RFD-20/21: does the position win on this result? (Zeros are covered only
// by inside positions that name them, so simple chances, dozens and columns
// lose on 0 and 00.)
inline bool Wins(const Position& position, Pocket result) {
  return position.numbers.Contains(result);
}

}  // namespace banca::games::roulette

#endif  // BANCA_LIBS_GAMES_ROULETTE_BOARD_H_
