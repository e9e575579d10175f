// Seeded random sessions at a table: players sit, bet, decide, drop and
// come back, leave and are ended for inactivity over many rounds. Session
// totals (SD-39) must equal the sum of the rounds each player settled, and
// the house's net the opposite of the players' net.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/random.h"
#include "libs/cards/seeded_random.h"
#include "libs/games/stud_no_draw/table.h"

namespace banca::games::stud_no_draw {
namespace {

TEST(StudNoDrawTableProperty, SessionTotalsEqualTheRoundsSettled_SD_39) {
  auto rng = cards::testing::SeededRandomSource::FromSeed(39);
  auto pick = [&rng](uint32_t n) { return cards::UniformInt(rng, n); };
  for (int session = 0; session < 200; ++session) {
    TableConfig c;
    c.seats = 1 + static_cast<int>(pick(kMaxSeats));
    c.min_ante = 100;
    c.max_ante = 500;
    absl::StatusOr<Table> made = Table::Create(c, "t");
    ASSERT_TRUE(made.ok());
    Table& t = *made;
    const std::vector<std::string> names = {"a", "b", "c", "d", "e",
                                            "f", "g", "h", "i"};
    std::map<std::string, SessionSummary> expected;  // of seated players
    std::map<std::string, SessionSummary> left;      // summed at leaving
    int64_t house = 0, players_net = 0, now = 0;
    int64_t accounted = 0;
    auto account = [&] {
      const Round* r = t.round();
      if (r == nullptr || !r->finished() || r->number() == accounted) return;
      accounted = r->number();
      house += r->result().house_net();
      for (const SeatResult& s : r->result().seats) {
        SessionSummary& e = expected[s.player];
        ++e.rounds;
        e.staked += s.settlement.staked();
        e.returned += s.settlement.returned();
        players_net += s.settlement.returned() - s.settlement.staked();
      }
    };
    size_t table_events = 0;
    auto collect_leavers = [&] {
      for (; table_events < t.events().size(); ++table_events) {
        if (const auto* l =
                std::get_if<PlayerLeft>(&t.events()[table_events])) {
          EXPECT_EQ(l->summary, expected[l->player]) << l->player;
          expected.erase(l->player);
        }
      }
    };
    for (int step = 0; step < 400; ++step) {
      const std::string& who = names[pick(names.size())];
      now += pick(30'000);
      absl::Status s;
      switch (pick(10)) {
        case 0:
          s = t.Sit(who, 1 + static_cast<int>(pick(c.seats)), now);
          break;
        case 1:
        case 2:
          s = t.PlaceAnte(who, 100 + pick(401), now);
          break;
        case 3: {
          std::vector<cards::Card> deck = cards::StandardDeck();
          cards::Shuffle(absl::MakeSpan(deck), rng);
          s = t.Deal(deck, now);
          break;
        }
        case 4:
          s = t.Fold(who);
          break;
        case 5:
          s = t.Continue(who);
          break;
        case 6:
          s = pick(2) ? t.Tick(now) : t.Timeout(who, now);
          break;
        case 7:
          s = pick(2) ? t.Disconnect(who) : t.Reconnect(who);
          break;
        case 8:
          s = t.Leave(who).status();
          break;
        default:
          if (pick(8) == 0) s = t.Void();
      }
      (void)s;
      account();
      collect_leavers();
    }
    for (const auto& [player, summary] : expected) {
      ASSERT_TRUE(t.SessionOf(player).has_value()) << player;
      EXPECT_EQ(*t.SessionOf(player), summary) << player;
    }
    EXPECT_EQ(house, -players_net);
  }
}

}  // namespace
}  // namespace banca::games::stud_no_draw
