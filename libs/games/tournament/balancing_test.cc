#include "libs/games/tournament/balancing.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/seat_draw.h"
#include "libs/games/tournament/test_util.h"

namespace banca::games::tournament {
namespace {

using Seats = std::vector<std::string>;
using Moves = std::vector<TableMove>;

// A draw that always picks index `k` (and records the sizes it saw).
struct FixedDraw {
  int k = 0;
  std::vector<int> sizes;
  int operator()(int n) {
    sizes.push_back(n);
    return k;
  }
};

Rebalancing Balanced(const std::vector<TournamentTable>& tables,
                     FixedDraw& draw) {
  absl::StatusOr<Rebalancing> r =
      Rebalance(tables, [&](int n) { return draw(n); });
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : Rebalancing{};
}

TEST(TableBalancing, BalancedTablesStayAsTheyAre_TN47) {
  // 5 players at 4-max need two tables; 3 and 2 are within one.
  FixedDraw draw;
  const std::vector<TournamentTable> tables = {
      {1, {"a", "b", "c", ""}, 2},
      {2, {"d", "", "e", ""}, 1},
  };
  const Rebalancing r = Balanced(tables, draw);
  EXPECT_TRUE(r.moves.empty());
  EXPECT_TRUE(r.broken_tables.empty());
  EXPECT_EQ(r.tables, tables);
  EXPECT_TRUE(draw.sizes.empty());
}

TEST(TableBalancing, TheBigBlindNextMovesToADrawnSeat_TN47_TN48) {
  // 6 against 3 at 6-max: one moves; cai (seat 3) is due the big blind.
  const std::vector<TournamentTable> tables = {
      {1, {"ana", "bia", "cai", "dan", "eva", "fil"}, 3},
      {2, {"gil", "", "hal", "", "ivo", ""}, 5},
  };
  FixedDraw draw{1};
  const Rebalancing r = Balanced(tables, draw);
  // Free seats of table 2: 2, 4, 6; the draw picks index 1, seat 4.
  EXPECT_EQ(draw.sizes, std::vector<int>{3});
  EXPECT_EQ(r.moves, (Moves{{"cai", 1, 2, 4}}));
  EXPECT_TRUE(r.broken_tables.empty());
  ASSERT_EQ(r.tables.size(), 2u);
  // dan, clockwise after cai, is now due the big blind at table 1.
  EXPECT_EQ(r.tables[0],
            (TournamentTable{1, {"ana", "bia", "", "dan", "eva", "fil"}, 4}));
  EXPECT_EQ(r.tables[1],
            (TournamentTable{2, {"gil", "", "hal", "cai", "ivo", ""}, 5}));
}

TEST(TableBalancing, TwoMoveInBigBlindOrderWrappingClockwise_TN47) {
  // 10 against 6 at 10-max: two move from table 1, seat 10 then seat 1.
  TournamentTable one{1, {}, 10};
  for (int s = 1; s <= 10; ++s) one.seats.push_back("a" + std::to_string(s));
  const TournamentTable two{
      2, {"b1", "b2", "b3", "b4", "b5", "b6", "", "", "", ""}, 1};
  FixedDraw draw{0};
  const Rebalancing r = Balanced({one, two}, draw);
  EXPECT_EQ(r.moves, (Moves{{"a10", 1, 2, 7}, {"a1", 1, 2, 8}}));
  EXPECT_EQ(r.tables[0].next_big_blind_seat, 2);
  EXPECT_EQ(r.tables[0].Players(), 8);
  EXPECT_EQ(r.tables[1].Players(), 8);
}

TEST(TableBalancing, ATableBreaksWhenTheRestFitInFewer_TN47_TN48) {
  // 12 players at 6-max on 4 tables fit in 2: the two with fewest break.
  const std::vector<TournamentTable> tables = {
      {1, {"a1", "a2", "a3", "a4", "", ""}, 1},
      {2, {"b1", "b2", "b3", "b4", "", ""}, 2},
      {3, {"c1", "", "c3", "", "c5", ""}, 5},
      {4, {"d1", "", "", "", "", ""}, 1},
  };
  FixedDraw draw{0};
  const Rebalancing r = Balanced(tables, draw);
  // Tables 4 (one player) and 3 (three) break, fewest first.
  EXPECT_EQ(r.broken_tables, (std::vector<int>{4, 3}));
  // d1 to the first free seat of the tables with fewest (both have 4):
  // table 1 seat 5; then table 2 has fewest, and so on, c5 first (due the
  // big blind at table 3), then c1, c3.
  EXPECT_EQ(
      r.moves,
      (Moves{
          {"d1", 4, 1, 5}, {"c5", 3, 2, 5}, {"c1", 3, 1, 6}, {"c3", 3, 2, 6}}));
  ASSERT_EQ(r.tables.size(), 2u);
  EXPECT_EQ(r.tables[0].seats, (Seats{"a1", "a2", "a3", "a4", "d1", "c1"}));
  EXPECT_EQ(r.tables[1].seats, (Seats{"b1", "b2", "b3", "b4", "c5", "c3"}));
}

TEST(TableBalancing, EqualTablesBreakTheHighestNumber_TN47) {
  // 3 + 3 + 3 at 9-max fit in one table: 2 and 3 break (3 first); an
  // empty table breaks with no moves.
  const std::vector<TournamentTable> tables = {
      {7, {"c1", "c2", "c3", "", "", "", "", "", ""}, 1},
      {2, {"a1", "a2", "a3", "", "", "", "", "", ""}, 3},
      {5, {"b1", "b2", "b3", "", "", "", "", "", ""}, 2},
      {9, {"", "", "", "", "", "", "", "", ""}, 0},
  };
  FixedDraw draw{0};
  const Rebalancing r = Balanced(tables, draw);
  EXPECT_EQ(r.broken_tables, (std::vector<int>{9, 7, 5}));
  ASSERT_EQ(r.tables.size(), 1u);
  EXPECT_EQ(r.tables[0].number, 2);
  EXPECT_EQ(r.tables[0].seats,
            (Seats{"a1", "a2", "a3", "c1", "c2", "c3", "b2", "b3", "b1"}));
  EXPECT_EQ(r.moves.size(), 6u);
}

// Replays the moves on `tables`: each player leaves the table where they
// were due the big blind next, for a free seat.
void ReplayMoves(std::vector<TournamentTable> tables, const Moves& moves) {
  const auto table = [&](int number) -> TournamentTable& {
    for (TournamentTable& t : tables) {
      if (t.number == number) return t;
    }
    ADD_FAILURE() << "no table " << number;
    return tables[0];
  };
  for (const TableMove& m : moves) {
    TournamentTable& from = table(m.from_table);
    ASSERT_GE(from.next_big_blind_seat, 1);
    ASSERT_EQ(from.seats[from.next_big_blind_seat - 1], m.player);
    from.seats[from.next_big_blind_seat - 1].clear();
    from.next_big_blind_seat = NextOccupiedSeat(from, from.next_big_blind_seat);
    TournamentTable& to = table(m.to_table);
    ASSERT_EQ(to.seats.at(m.to_seat - 1), "");
    to.seats[m.to_seat - 1] = m.player;
  }
}

TEST(TableBalancing, ThirtyPlayersDownToTheFinalTable_TN47_TN48) {
  std::mt19937_64 gen(4748);
  for (int run = 0; run < 200; ++run) {
    std::vector<std::string> entrants;
    for (int i = 0; i < 30; ++i) entrants.push_back("p" + std::to_string(i));
    std::vector<int> perm(30);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), gen);
    // 30 at 8-max: 4 tables of 8, 8, 7, 7.
    absl::StatusOr<std::vector<TournamentTable>> drawn =
        DrawSeats(entrants, 8, perm);
    ASSERT_TRUE(drawn.ok()) << drawn.status();
    std::vector<TournamentTable> tables = *drawn;
    ASSERT_EQ(tables.size(), 4u);
    for (TournamentTable& t : tables) t.next_big_blind_seat = 1;
    std::vector<std::string> alive = entrants;
    while (alive.size() > 1) {
      // A random player is out; each table plays on (its big blind moves).
      const size_t out =
          std::uniform_int_distribution<size_t>(0, alive.size() - 1)(gen);
      for (TournamentTable& t : tables) {
        auto it = std::find(t.seats.begin(), t.seats.end(), alive[out]);
        if (it != t.seats.end()) it->clear();
        if (t.Players() == 0) {
          t.next_big_blind_seat = 0;
        } else if (it != t.seats.end() || gen() % 2 == 0) {
          t.next_big_blind_seat = NextOccupiedSeat(t, t.next_big_blind_seat);
        }
      }
      alive.erase(alive.begin() + out);
      absl::StatusOr<Rebalancing> r = Rebalance(tables, [&](int n) {
        EXPECT_GE(n, 1);
        return std::uniform_int_distribution<int>(0, n - 1)(gen);
      });
      ASSERT_TRUE(r.ok()) << r.status();
      // The tables that stay are the fewest that hold everyone, within one
      // of each other, and hold everyone once (also asserted inside).
      const size_t keep = (alive.size() + 7) / 8;
      ASSERT_EQ(r->tables.size(), keep);
      std::vector<std::string> seated;
      int lo = 8, hi = 0;
      for (const TournamentTable& t : r->tables) {
        lo = std::min(lo, t.Players());
        hi = std::max(hi, t.Players());
        for (const std::string& p : t.seats) {
          if (!p.empty()) seated.push_back(p);
        }
      }
      EXPECT_LE(hi - lo, 1);
      std::sort(seated.begin(), seated.end());
      std::vector<std::string> expected = alive;
      std::sort(expected.begin(), expected.end());
      ASSERT_EQ(seated, expected);
      // Each player moved was due the big blind next where they left.
      ReplayMoves(tables, r->moves);
      tables = r->tables;
    }
    ASSERT_EQ(tables.size(), 1u);
  }
}

TEST(TableBalancing, BadInputIsRejected) {
  FixedDraw draw;
  const auto run = [&](const std::vector<TournamentTable>& t) {
    return Rebalance(t, [&](int n) { return draw(n); }).status();
  };
  EXPECT_TRUE(IsInvalid(run({}), "tables"));
  EXPECT_TRUE(IsInvalid(
      run({{1, {"a", "", "", ""}, 1}, {1, {"b", "", "", ""}, 1}}), "tables"));
  EXPECT_TRUE(IsInvalid(run({{0, {"a", ""}, 1}}), "tables[0].number"));
  EXPECT_TRUE(
      IsInvalid(run({{kMaxTables + 1, {"a", ""}, 1}}), "tables[0].number"));
  EXPECT_TRUE(IsInvalid(run({{1, {"a"}, 1}}), "tables[0].seats"));
  EXPECT_TRUE(IsInvalid(run({{1, Seats(11, ""), 0}}), "tables[0].seats"));
  EXPECT_TRUE(IsInvalid(run({{1, {"a", ""}, 1}, {2, {"b", "", ""}, 1}}),
                        "tables[1].seats"));
  EXPECT_TRUE(
      IsInvalid(run({{1, {"a", ""}, 2}}), "tables[0].next_big_blind_seat"));
  EXPECT_TRUE(
      IsInvalid(run({{1, {"a", ""}, 3}}), "tables[0].next_big_blind_seat"));
  EXPECT_TRUE(
      IsInvalid(run({{1, {"a", ""}, 0}}), "tables[0].next_big_blind_seat"));
  EXPECT_TRUE(IsInvalid(run({{1, {"a", ""}, 1}, {2, {"", ""}, 1}}),
                        "tables[1].next_big_blind_seat"));
  EXPECT_TRUE(IsInvalid(run({{1, {"", ""}, 0}}), "tables"));
  EXPECT_TRUE(IsInvalid(run({{1, {"a", "a"}, 1}}), "tables"));
  EXPECT_TRUE(IsInvalid(run({{1, {"a", ""}, 1}, {2, {"", "a"}, 2}}), "tables"));
  EXPECT_TRUE(
      IsInvalid(run({{1, {std::string(65, 'x'), ""}, 1}}), "tables[0].seats"));
  // A draw outside 0..n − 1.
  const std::vector<TournamentTable> uneven = {{1, {"a", "b", "c"}, 1},
                                               {2, {"d", "", ""}, 1}};
  for (int bad : {-1, 2}) {
    draw.k = bad;
    EXPECT_TRUE(IsInvalid(run(uneven), "draw"));
  }
  draw.k = 1;
  EXPECT_TRUE(run(uneven).ok());
}

}  // namespace
}  // namespace banca::games::tournament
