// The tables of a multi-table tournament as the play functions see them
// (seat_draw.h, balancing.h): who sits where, and at each table who is due
// the big blind next. Chips, the button and the hand in play are the table
// host's; the director passes in only this.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_TABLES_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_TABLES_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace banca::games::tournament {

struct TournamentTable {
  int number = 0;  // 1..kMaxTables, distinct
  // seats[s] is the player in seat s + 1, "" when the seat is empty; the
  // same kMinSeatsPerTable..kMaxSeatsPerTable seats at every table.
  // Clockwise is increasing seat number, from the last seat back to 1.
  std::vector<std::string> seats;
  // The seat (1-based) of the player due the big blind next, occupied; 0
  // at an empty table, and after the draw (seat_draw.h) until the director
  // places the first button (TN-40).
  int next_big_blind_seat = 0;

  int Players() const;
  bool operator==(const TournamentTable&) const = default;
};

// INVALID_ARGUMENT naming `tables` unless there are 1..kMaxTables tables
// with distinct numbers in 1..kMaxTables, the same number of seats each
// (kMinSeatsPerTable..kMaxSeatsPerTable), valid player ids seated at most
// once in the whole tournament, at least one player, and at each table
// with players a next_big_blind_seat that is occupied (0 at an empty one).
absl::Status CheckTables(absl::Span<const TournamentTable> tables);

// The occupied seat after `seat` clockwise (`seat` itself when it is the
// only one); 0 when the table is empty.
int NextOccupiedSeat(const TournamentTable& table, int seat);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_TABLES_H_
