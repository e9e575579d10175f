// Seeded random rounds under random settings and random legal decisions:
// every stake settles once to a consistent amount, the cards dealt are
// exactly the deck's prefix, and replay equals live.
#include <algorithm>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/random.h"
#include "libs/cards/seeded_random.h"
#include "libs/games/blackjack/basic_strategy.h"
#include "libs/games/blackjack/round.h"

namespace banca::games::blackjack {
namespace {

using cards::Card;
using cards::UniformInt;

constexpr int kRounds = 20'000;

TableSettings RandomSettings(cards::RandomSource& rng) {
  TableSettings s;
  s.seats = 1 + UniformInt(rng, kMaxSeats);
  s.decks = 1 + UniformInt(rng, kMaxDecks);
  s.dealer_hits_soft_17 = UniformInt(rng, 2) == 1;
  s.dealer_peek = UniformInt(rng, 4) != 0;
  s.insurance = UniformInt(rng, 4) != 0;
  s.double_after_split = UniformInt(rng, 2) == 1;
  s.resplit_aces = UniformInt(rng, 2) == 1;
  s.split_tens_by_value = UniformInt(rng, 2) == 1;
  s.max_split_hands = 1 + UniformInt(rng, kMaxHandsPerSeat);
  s.surrender = UniformInt(rng, 2) == 1 ? Surrender::kLate : Surrender::kNone;
  s.special_prize_on_split_hands = UniformInt(rng, 2) == 1;
  s.double_on = static_cast<DoubleOn>(UniformInt(rng, 3));
  if (UniformInt(rng, 3) == 0) {
    s.blackjack_pays_num = 6;
    s.blackjack_pays_den = 5;
  }
  return s;
}

Action RandomAction(cards::RandomSource& rng, const Round& r) {
  const LegalActions l = r.legal();
  if (l.insurance) {
    const int64_t amount =
        UniformInt(rng, 3) == 0
            ? static_cast<int64_t>(
                  UniformInt(rng, static_cast<uint32_t>(l.max_insurance + 1)))
            : 0;
    return Action{ActionType::kInsurance, amount};
  }
  if (UniformInt(rng, 2) == 0) {
    const SeatState* s = r.seat_state(l.seat);
    for (const PlayerHand& h : s->hands) {
      if (h.number == l.hand) {
        return Action{BasicStrategy(h.cards, r.up_card(), r.settings(), l), 0};
      }
    }
  }
  std::vector<ActionType> options = {ActionType::kStand};
  if (l.can_hit) options.push_back(ActionType::kHit);
  if (l.can_double) options.push_back(ActionType::kDouble);
  if (l.can_split) options.push_back(ActionType::kSplit);
  if (l.can_surrender) options.push_back(ActionType::kSurrender);
  return Action{options[UniformInt(rng, options.size())], 0};
}

// The amounts a bet may return for its outcome (the BJ-25i prize aside).
void ExpectConsistent(const BetResult& b, const TableSettings& s) {
  ASSERT_GT(b.stake, 0);
  const int64_t base = b.returned - b.prize;
  EXPECT_TRUE(b.prize == 0 || b.prize == 3 * b.stake);
  switch (b.outcome) {
    case Outcome::kLost:
      EXPECT_EQ(base, 0);
      break;
    case Outcome::kPush:
    case Outcome::kVoid:
      EXPECT_EQ(base, b.stake);
      break;
    case Outcome::kWon:
      EXPECT_EQ(base,
                b.kind == BetKind::kInsurance ? 3 * b.stake : 2 * b.stake);
      break;
    case Outcome::kBlackjack: {
      const int64_t win =
          (b.stake * s.blackjack_pays_num + s.blackjack_pays_den - 1) /
          s.blackjack_pays_den;
      EXPECT_EQ(base, b.stake + win);
      EXPECT_EQ(b.kind, BetKind::kMain);
      break;
    }
    case Outcome::kSurrendered:
      EXPECT_EQ(base, b.stake - b.stake / 2);
      break;
  }
}

TEST(BlackjackProperty, RandomRoundsSettleConsistentlyAndConserveCards) {
  auto rng = cards::testing::SeededRandomSource::FromSeed(20151113);
  int voided = 0, prizes = 0, splits = 0;
  for (int i = 0; i < kRounds; ++i) {
    RoundSetup setup;
    setup.settings = RandomSettings(rng);
    setup.settings.min_bet = 100;
    setup.round_number = i;
    const int players = 1 + UniformInt(rng, setup.settings.seats);
    std::vector<int> seats;
    for (int s = 1; s <= setup.settings.seats; ++s) seats.push_back(s);
    cards::Shuffle(absl::MakeSpan(seats), rng);
    seats.resize(players);
    std::sort(seats.begin(), seats.end());
    for (int s : seats) {
      setup.bets.push_back({s, "p" + std::to_string(s),
                            100 + static_cast<int64_t>(UniformInt(rng, 5000))});
    }
    absl::StatusOr<std::vector<Card>> shoe = cards::ShuffledDeck(
        rng, cards::DeckSpec{cards::Rank::kTwo, setup.settings.decks});
    ASSERT_TRUE(shoe.ok());
    // Sometimes a short deck, to exercise running out.
    const size_t keep = UniformInt(rng, 20) == 0
                            ? 2 * players + 2 + UniformInt(rng, 6)
                            : shoe->size();
    shoe->resize(std::min(keep, shoe->size()));
    setup.deck = *shoe;
    absl::StatusOr<Round> started = Round::Start(setup);
    ASSERT_TRUE(started.ok()) << started.status();
    Round r = *std::move(started);
    const int void_at = UniformInt(rng, 50) == 0 ? UniformInt(rng, 6) : -1;
    for (int step = 0; !r.finished(); ++step) {
      ASSERT_LT(step, 200) << "a round must end";
      if (step == void_at) {
        ASSERT_TRUE(r.Void().ok());
        break;
      }
      const LegalActions l = r.legal();
      ASSERT_TRUE(r.Act(l.seat, RandomAction(rng, r)).ok());
    }
    const RoundResult& res = r.result();
    voided += res.voided;
    // Every stake settles once, consistently.
    int64_t staked = 0, returned = 0;
    for (const BetResult& b : res.bets) {
      ExpectConsistent(b, setup.settings);
      if (res.voided) {
        EXPECT_EQ(b.outcome, Outcome::kVoid);
      }
      staked += b.stake;
      returned += b.returned;
      prizes += b.prize > 0;
      splits += b.kind == BetKind::kSplit;
    }
    EXPECT_EQ(staked, res.staked);
    EXPECT_EQ(returned, res.returned);
    // Cards: what the hands and the dealer hold is the deck's prefix.
    std::vector<Card> held = res.dealer_cards;
    for (const SeatState& s : res.seats) {
      for (const PlayerHand& h : s.hands) {
        held.insert(held.end(), h.cards.begin(), h.cards.end());
        EXPECT_LE(h.cards.size(), 21u);
      }
    }
    std::vector<Card> prefix(setup.deck.begin(),
                             setup.deck.begin() + res.cards_used);
    std::sort(held.begin(), held.end());
    std::sort(prefix.begin(), prefix.end());
    EXPECT_EQ(held, prefix);
    // Replay equals live.
    absl::StatusOr<RoundResult> replayed = Round::Replay(r.record());
    ASSERT_TRUE(replayed.ok()) << replayed.status();
    EXPECT_EQ(*replayed, res);
    if (::testing::Test::HasFailure()) {
      FAIL() << "round " << i;
    }
  }
  // The generator reached the interesting paths.
  EXPECT_GT(voided, 0);
  EXPECT_GT(prizes, 0);
  EXPECT_GT(splits, 0);
}

}  // namespace
}  // namespace banca::games::blackjack
