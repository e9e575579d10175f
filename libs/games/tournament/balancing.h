// Balancing and breaking tables (TN-47, TN-48, digest gap 10 and the
// "Decisions for banca" → Tournaments → Play): as players are eliminated
// the tables are reorganised so that they differ by at most one player, and
// a table is broken as soon as the players left fit in one table fewer.
//
// - Which tables break (the regulation does not say): those with the fewest
//   players, ties the highest-numbered, so the fewest players move and the
//   low numbers play on to the final table. An empty table always breaks.
// - Who moves from a table that stays (the regulation does not say; banca's
//   decision): the player due the big blind next there; a second one is the
//   next due after them, clockwise. A broken table's players all move, in
//   that same order from the big blind.
// - Where to (TN-48: "placed at tables and seats by draw"): a player moves
//   to a table with the fewest players; the table and seat are drawn
//   together, as an index into the free seats of every such table, listed
//   by table number then seat number. The draw is the caller's (the
//   service's CSPRNG); this function has no RNG.
// - Tables are balanced by moving from a table with the most players (the
//   lowest-numbered of them) to one with the fewest, until they are within
//   one of each other.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_BALANCING_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_BALANCING_H_

#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/games/tournament/tables.h"

namespace banca::games::tournament {

struct TableMove {
  std::string player;
  int from_table = 0;
  int to_table = 0;
  int to_seat = 0;  // 1-based
  bool operator==(const TableMove&) const = default;
};

struct Rebalancing {
  // In the order they are made; each move's draw saw the moves before it.
  std::vector<TableMove> moves;
  // The tables closed, in the order they were chosen.
  std::vector<int> broken_tables;
  // The tables still in play after the moves, by number. A table that lost
  // its player due the big blind has the next one clockwise due instead.
  std::vector<TournamentTable> tables;
};

// Returns an index in 0..n − 1 (n ≥ 1).
using DrawIndex = absl::FunctionRef<int(int n)>;

// The moves that leave ceil(players / seats) tables within one player of
// each other. Asserted on the result: no player lost or seated twice, no
// table over its seats, the tables within one of each other.
// INVALID_ARGUMENT naming the field: tables failing CheckTables, or a draw
// outside 0..n − 1 ("draw").
absl::StatusOr<Rebalancing> Rebalance(absl::Span<const TournamentTable> tables,
                                      DrawIndex draw);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_BALANCING_H_
