// The seat draw at the start (TN-39): players are assigned to tables and
// seats at random, and may not swap. The service draws a permutation of the
// entrants from its CSPRNG; this spreads them over the fewest tables, whose
// sizes differ by at most one (TN-47: "the same number of players, or as
// close as possible").
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_SEAT_DRAW_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_SEAT_DRAW_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/games/tournament/tables.h"

namespace banca::games::tournament {

// ceil(entrants / seats_per_table) tables numbered 1, 2, …; the first
// `entrants % tables` of them get one player more. The drawn order is
// entrants[permutation[0]], entrants[permutation[1]], …: table 1 takes the
// first of them in seats 1, 2, …, table 2 the next, and so on; the seats
// left empty are the last of each table. next_big_blind_seat is 0: the
// director places the first button (TN-40).
// INVALID_ARGUMENT naming the field: 2..kMaxEntries valid, distinct
// entrants not given, seats_per_table outside 2..10 (TN-6), or a
// permutation that is not one of 0..entrants − 1.
absl::StatusOr<std::vector<TournamentTable>> DrawSeats(
    absl::Span<const std::string> entrants, int seats_per_table,
    absl::Span<const int> permutation);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_SEAT_DRAW_H_
