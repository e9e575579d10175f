// Random hands over every variant, limit and table size, checking the
// engine's invariants rather than particular outcomes.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/card.h"
#include "libs/games/poker/deterministic_bits.h"
#include "libs/games/poker/hand.h"
#include "libs/games/poker/random_play.h"

namespace banca::games::poker {
namespace {

using Bits = DeterministicBits;

HandSetup RandomSetup(Bits& bits) {
  HandSetup s;
  TableConfig& c = s.config;
  c.variant = static_cast<Variant>(bits.Between(0, 2));
  c.limit = static_cast<Limit>(bits.Between(0, 3));
  c.seats = 10;
  c.big_blind = bits.Between(1, 4) * 50;
  c.small_blind = bits.Between(1, c.big_blind);
  c.buy_in_min = c.buy_in_max = 100 * c.big_blind;
  c.max_raises_per_round = static_cast<int>(bits.Between(0, 4));
  c.heads_up = static_cast<HeadsUpBlinds>(bits.Between(0, 1));
  c.straddles = bits.Between(0, 3) != 0;
  if (bits.Between(0, 1) == 1) {
    c.rake = {RakeMode::kPot, static_cast<int32_t>(bits.Between(100, 500)),
              bits.Between(0, 1) * bits.Between(1, 500)};
  }
  s.players = RandomPlayers(bits, c.big_blind);
  const int n = static_cast<int>(s.players.size());
  s.button = s.players[bits.Between(0, n - 1)].seat;
  s.deck = cards::StandardDeck();
  ShuffleDeck(bits, s.deck);
  return s;
}

TEST(PokerProperty, RandomHandsConserveChipsAndReplay) {
  Bits bits{20240601};
  int showdowns = 0, side_pots = 0, voids = 0;
  for (int hand_no = 0; hand_no < 20'000; ++hand_no) {
    const HandSetup setup = RandomSetup(bits);
    absl::StatusOr<Hand> started = Hand::Start(setup);
    ASSERT_TRUE(started.ok()) << started.status();
    Hand& h = *started;
    int64_t total = 0;
    for (const SeatedPlayer& p : setup.players) total += p.stack;
    const bool void_it = bits.Between(0, 99) == 0;
    int steps = 0;
    while (!h.finished()) {
      if (void_it && steps == 3) {
        ASSERT_TRUE(h.Void().ok());
        break;
      }
      const int seat = *h.to_act();
      const RandomDecision d =
          RandomLegalDecision(h, [&bits] { return bits(); });
      absl::Status st = d.timeout ? h.Timeout(seat) : h.Act(seat, d.action);
      ASSERT_TRUE(st.ok()) << "hand " << hand_no << ": " << st;
      ++steps;
    }
    const HandResult& r = h.result();
    int64_t end = r.rake, bets = 0, potted = 0, won = 0;
    for (const PlayerResult& p : r.players) {
      end += p.end_stack;
      bets += p.bet;
      won += p.won;
      ASSERT_GE(p.end_stack, 0);
      ASSERT_EQ(p.end_stack, p.start_stack - p.bet + p.won);
    }
    ASSERT_EQ(end, total) << "hand " << hand_no;
    int64_t shares = 0;
    for (const PotResult& pot : r.pots) {
      potted += pot.amount;
      for (const SeatAmount& s : pot.shares) shares += s.amount;
      ASSERT_GE(pot.rake, 0);
      ASSERT_LE(pot.rake, pot.amount * 5 / 100);
    }
    ASSERT_EQ(potted, bets) << "pots = contributions, hand " << hand_no;
    ASSERT_EQ(shares + r.rake, potted);
    ASSERT_EQ(won, shares);
    if (setup.config.rake.cap > 0) {
      ASSERT_LE(r.rake, setup.config.rake.cap);
    }
    showdowns += !r.showdown_order.empty();
    side_pots += r.pots.size() > 1;
    voids += r.voided;
    absl::StatusOr<HandResult> replay = Hand::Replay(h.record());
    ASSERT_TRUE(replay.ok()) << "hand " << hand_no << ": " << replay.status();
    ASSERT_EQ(*replay, r) << "hand " << hand_no;
  }
  // The random player must actually reach the interesting cases.
  EXPECT_GT(showdowns, 4000);
  EXPECT_GT(side_pots, 1000);
  EXPECT_GT(voids, 50);
}

}  // namespace
}  // namespace banca::games::poker
