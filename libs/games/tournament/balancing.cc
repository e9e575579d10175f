#include "libs/games/tournament/balancing.h"

#include <algorithm>
#include <deque>
#include <optional>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/games/tournament/limits.h"

namespace banca::games::tournament {
namespace {

struct Leaving {
  std::string player;
  int from_table = 0;
};

// The tables to break: the fewest players first, ties the highest number.
std::vector<size_t> ToBreak(const std::vector<TournamentTable>& tables,
                            size_t keep) {
  std::vector<size_t> order(tables.size());
  std::vector<int> players(tables.size());
  for (size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
    players[i] = tables[i].Players();
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (players[a] != players[b]) return players[a] < players[b];
    return tables[a].number > tables[b].number;
  });
  order.resize(tables.size() - keep);
  return order;
}

// Takes the player due the big blind next off `table`; the next one
// clockwise is then due.
Leaving TakeNextBigBlind(TournamentTable& table) {
  const int seat = table.next_big_blind_seat;
  BANCA_CHECK(seat >= 1 && !table.seats[seat - 1].empty());
  Leaving out{table.seats[seat - 1], table.number};
  table.seats[seat - 1].clear();
  table.next_big_blind_seat = NextOccupiedSeat(table, seat);
  return out;
}

// Seats `who` at a drawn free seat of a table with the fewest players.
// `count[i]`: the players at kept[i].
absl::StatusOr<TableMove> Seat(std::vector<TournamentTable>& kept,
                               std::vector<int>& count, const Leaving& who,
                               DrawIndex draw) {
  int fewest = kMaxSeatsPerTable;
  for (int c : count) fewest = std::min(fewest, c);
  std::vector<std::pair<size_t, int>> free;  // (table index, seat)
  for (size_t i = 0; i < kept.size(); ++i) {
    if (count[i] != fewest) continue;
    for (size_t s = 0; s < kept[i].seats.size(); ++s) {
      if (kept[i].seats[s].empty())
        free.push_back({i, static_cast<int>(s + 1)});
    }
  }
  BANCA_CHECK(!free.empty());
  const int n = static_cast<int>(free.size());
  const int k = draw(n);
  if (k < 0 || k >= n) {
    return absl::InvalidArgumentError(
        absl::StrCat("draw: ", k, " is outside 0..", n - 1));
  }
  TournamentTable& to = kept[free[k].first];
  BANCA_CHECK(to.seats[free[k].second - 1].empty());
  to.seats[free[k].second - 1] = who.player;
  ++count[free[k].first];
  if (to.next_big_blind_seat == 0) to.next_big_blind_seat = free[k].second;
  return TableMove{who.player, who.from_table, to.number, free[k].second};
}

// The index of the lowest-numbered table with the most players (`count`,
// by table number), when it has two more than one with the fewest; else
// none.
std::optional<size_t> Overfull(const std::vector<int>& count) {
  size_t most = 0;
  int fewest = count[0];
  for (size_t i = 0; i < count.size(); ++i) {
    if (count[i] > count[most]) most = i;
    fewest = std::min(fewest, count[i]);
  }
  if (count[most] - fewest <= 1) return std::nullopt;
  return most;
}

size_t Everyone(absl::Span<const TournamentTable> tables) {
  size_t n = 0;
  for (const TournamentTable& t : tables) n += t.Players();
  return n;
}

void CheckResult(absl::Span<const TournamentTable> before,
                 const Rebalancing& after, size_t keep) {
  // Players only move from a seat to a free one: as many after as before,
  // and none seated twice (CheckTables), is everyone still there once.
  BANCA_CHECK(Everyone(before) == Everyone(after.tables));
  BANCA_CHECK(after.tables.size() == keep);
  int lo = kMaxSeatsPerTable, hi = 0;
  for (const TournamentTable& t : after.tables) {
    BANCA_CHECK(t.seats.size() == before[0].seats.size());
    lo = std::min(lo, t.Players());
    hi = std::max(hi, t.Players());
  }
  BANCA_CHECK(lo >= 1 && hi - lo <= 1);
  BANCA_CHECK(CheckTables(after.tables).ok());
}

}  // namespace

absl::StatusOr<Rebalancing> Rebalance(absl::Span<const TournamentTable> tables,
                                      DrawIndex draw) {
  RETURN_IF_ERROR(CheckTables(tables));
  std::vector<TournamentTable> work(tables.begin(), tables.end());
  std::sort(work.begin(), work.end(),
            [](const TournamentTable& a, const TournamentTable& b) {
              return a.number < b.number;
            });
  const size_t seats = work[0].seats.size();
  const size_t players = Everyone(tables);
  const size_t keep = (players + seats - 1) / seats;
  Rebalancing out;
  std::deque<Leaving> leaving;
  std::vector<bool> broken(work.size(), false);
  for (size_t i : ToBreak(work, keep)) {
    broken[i] = true;
    out.broken_tables.push_back(work[i].number);
    while (work[i].Players() > 0) leaving.push_back(TakeNextBigBlind(work[i]));
  }
  std::vector<int> count;  // players at each of out.tables
  for (size_t i = 0; i < work.size(); ++i) {
    if (broken[i]) continue;
    count.push_back(work[i].Players());
    out.tables.push_back(std::move(work[i]));
  }
  // Each move fills a seat that was free, so there are fewer moves than
  // seats in the tournament.
  for (size_t moves = 0;; ++moves) {
    BANCA_CHECK(moves <= keep * seats + players);
    const std::optional<size_t> from =
        leaving.empty() ? Overfull(count) : std::nullopt;
    if (leaving.empty() && !from) break;
    Leaving who;
    if (from) {
      who = TakeNextBigBlind(out.tables[*from]);
      --count[*from];
    } else {
      who = std::move(leaving.front());
      leaving.pop_front();
    }
    ASSIGN_OR_RETURN(TableMove move, Seat(out.tables, count, who, draw));
    out.moves.push_back(std::move(move));
  }
  CheckResult(tables, out, keep);
  return out;
}

}  // namespace banca::games::tournament
