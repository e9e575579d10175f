#include "libs/games/tournament/seat_draw.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/test_util.h"

namespace banca::games::tournament {
namespace {

using Seats = std::vector<std::string>;

std::vector<std::string> Players(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("p" + std::to_string(i));
  return out;
}

std::vector<int> Identity(int n) {
  std::vector<int> out(n);
  std::iota(out.begin(), out.end(), 0);
  return out;
}

TEST(SeatDraw, TheDrawnOrderFillsTheTables_TN39) {
  // 5 players at 6-max: one table, seated in the drawn order.
  const std::vector<std::string> five = {"ana", "bia", "cai", "dan", "eva"};
  absl::StatusOr<std::vector<TournamentTable>> t =
      DrawSeats(five, 6, std::vector<int>{3, 0, 4, 1, 2});
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->size(), 1u);
  EXPECT_EQ((*t)[0],
            (TournamentTable{1, {"dan", "ana", "eva", "bia", "cai", ""}, 0}));
  // Another draw, other seats: the permutation decides, nothing else.
  t = DrawSeats(five, 6, std::vector<int>{0, 1, 2, 3, 4});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)[0].seats, (Seats{"ana", "bia", "cai", "dan", "eva", ""}));
}

TEST(SeatDraw, FewestTablesWithinOneOfEachOther_TN39_TN47) {
  // 23 at 9-max: 3 tables of 8, 8, 7.
  absl::StatusOr<std::vector<TournamentTable>> t =
      DrawSeats(Players(23), 9, Identity(23));
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->size(), 3u);
  EXPECT_EQ((*t)[0].Players(), 8);
  EXPECT_EQ((*t)[1].Players(), 8);
  EXPECT_EQ((*t)[2].Players(), 7);
  EXPECT_EQ((*t)[1].seats[0], "p8");
  EXPECT_EQ((*t)[2].seats,
            (Seats{"p16", "p17", "p18", "p19", "p20", "p21", "p22", "", ""}));
  // Exactly full tables, and one over: 20 at 10-max is 2 full tables; 21 is
  // 3 tables of 7.
  t = DrawSeats(Players(20), 10, Identity(20));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->size(), 2u);
  t = DrawSeats(Players(21), 10, Identity(21));
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->size(), 3u);
  for (const TournamentTable& table : *t) EXPECT_EQ(table.Players(), 7);
}

TEST(SeatDraw, EverySizeSeatsEveryoneOnce_TN39) {
  std::mt19937_64 gen(39);
  for (int seats = kMinSeatsPerTable; seats <= kMaxSeatsPerTable; ++seats) {
    for (int n = 2; n <= 95; ++n) {
      std::vector<int> perm = Identity(n);
      std::shuffle(perm.begin(), perm.end(), gen);
      absl::StatusOr<std::vector<TournamentTable>> t =
          DrawSeats(Players(n), seats, perm);
      ASSERT_TRUE(t.ok()) << t.status();
      ASSERT_EQ(static_cast<int>(t->size()), (n + seats - 1) / seats);
      std::set<std::string> seated;
      int lo = seats, hi = 0;
      for (const TournamentTable& table : *t) {
        lo = std::min(lo, table.Players());
        hi = std::max(hi, table.Players());
        for (const std::string& p : table.seats) {
          if (!p.empty()) {
            EXPECT_TRUE(seated.insert(p).second) << p;
          }
        }
      }
      EXPECT_EQ(static_cast<int>(seated.size()), n);
      EXPECT_LE(hi - lo, 1) << n << " at " << seats << "-max";
      EXPECT_LE(hi, seats);
    }
  }
}

TEST(SeatDraw, BadInputIsRejected) {
  const std::vector<std::string> two = {"ana", "bia"};
  const std::vector<int> id2 = {0, 1};
  EXPECT_TRUE(DrawSeats(two, 2, id2).ok());
  EXPECT_TRUE(IsInvalid(
      DrawSeats(std::vector<std::string>{"ana"}, 2, std::vector<int>{0})
          .status(),
      "entrants"));
  EXPECT_TRUE(IsInvalid(
      DrawSeats(std::vector<std::string>{"ana", "ana"}, 2, id2).status(),
      "entrants"));
  EXPECT_TRUE(
      IsInvalid(DrawSeats(std::vector<std::string>{"ana", ""}, 2, id2).status(),
                "entrants"));
  EXPECT_TRUE(IsInvalid(DrawSeats(two, 1, id2).status(), "seats_per_table"));
  EXPECT_TRUE(IsInvalid(DrawSeats(two, 11, id2).status(), "seats_per_table"));
  EXPECT_TRUE(IsInvalid(DrawSeats(two, 2, std::vector<int>{0}).status(),
                        "permutation"));
  EXPECT_TRUE(IsInvalid(DrawSeats(two, 2, std::vector<int>{0, 0}).status(),
                        "permutation"));
  EXPECT_TRUE(IsInvalid(DrawSeats(two, 2, std::vector<int>{0, 2}).status(),
                        "permutation"));
  EXPECT_TRUE(IsInvalid(DrawSeats(two, 2, std::vector<int>{-1, 1}).status(),
                        "permutation"));
  EXPECT_TRUE(IsInvalid(
      DrawSeats(Players(kMaxEntries + 1), 10, Identity(kMaxEntries + 1))
          .status(),
      "entrants"));
  absl::StatusOr<std::vector<TournamentTable>> most =
      DrawSeats(Players(kMaxEntries), 2, Identity(kMaxEntries));
  ASSERT_TRUE(most.ok()) << most.status();
  EXPECT_EQ(static_cast<int>(most->size()), kMaxTables);
}

}  // namespace
}  // namespace banca::games::tournament
