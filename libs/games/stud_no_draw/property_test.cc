// Seeded random rounds through every path (antes, deal, fold, continue,
// timeouts, disconnections, voids), checking invariants rather than
// particular outcomes: stakes add up, each settlement agrees with an
// independent reading of the deck, hidden cards stay hidden, and the same
// inputs give the same round.
#include <cstdint>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/evaluator.h"
#include "libs/cards/random.h"
#include "libs/cards/seeded_random.h"
#include "libs/cards/sem_descarte.h"
#include "libs/games/stud_no_draw/paytable.h"
#include "libs/games/stud_no_draw/round.h"

namespace banca::games::stud_no_draw {
namespace {

using cards::Card;

// One scripted step, so that a round can be played twice.
struct Step {
  enum Kind {
    kAnte,
    kDisconnect,
    kDeal,
    kFold,
    kContinue,
    kTimeout,
    kTick,
    kVoid
  } kind;
  int seat = 0;
  int64_t value = 0;
};

struct Script {
  TableConfig config;
  std::vector<Card> deck;
  std::vector<Step> steps;
};

uint32_t Pick(cards::RandomSource& rng, uint32_t n) {
  return cards::UniformInt(rng, n);
}

Script RandomScript(cards::RandomSource& rng) {
  Script s;
  s.config.seats = 1 + static_cast<int>(Pick(rng, kMaxSeats));
  s.config.min_ante = 1 + Pick(rng, 500);
  s.config.max_ante = s.config.min_ante * (1 + Pick(rng, 25));
  s.config.decision_ms = 1 + Pick(rng, 30'000);
  s.config.extra_ms = 1 + Pick(rng, 15'000);
  s.deck = cards::StandardDeck();
  cards::Shuffle(absl::MakeSpan(s.deck), rng);
  int64_t now = Pick(rng, 1000);
  for (int seat = 1; seat <= s.config.seats; ++seat) {
    if (Pick(rng, 4) == 0) continue;
    const int64_t ante = s.config.min_ante +
                         Pick(rng, s.config.max_ante - s.config.min_ante + 1);
    s.steps.push_back({Step::kAnte, seat, ante});
    if (Pick(rng, 20) == 0) s.steps.push_back({Step::kDisconnect, seat, 0});
  }
  if (Pick(rng, 50) == 0) s.steps.push_back({Step::kVoid, 0, 0});
  s.steps.push_back({Step::kDeal, 0, now});
  for (int i = 0; i < 30; ++i) {
    const int seat = 1 + static_cast<int>(Pick(rng, s.config.seats));
    switch (Pick(rng, 12)) {
      case 0:
      case 1:
      case 2:
        s.steps.push_back({Step::kFold, seat, 0});
        break;
      case 3:
      case 4:
      case 5:
      case 6:
        s.steps.push_back({Step::kContinue, seat, 0});
        break;
      case 7:
        now += Pick(rng, 20'000);
        s.steps.push_back({Step::kTimeout, seat, now});
        break;
      case 8:
      case 9:
        now += Pick(rng, 20'000);
        s.steps.push_back({Step::kTick, 0, now});
        break;
      case 10:
        s.steps.push_back({Step::kDisconnect, seat, 0});
        break;
      default:
        if (Pick(rng, 10) == 0) s.steps.push_back({Step::kVoid, 0, 0});
    }
  }
  // Whatever is still undecided times out.
  s.steps.push_back({Step::kTick, 0, now + 100'000});
  return s;
}

Round Play(const Script& s) {
  absl::StatusOr<Round> opened = Round::Open(s.config, 1);
  EXPECT_TRUE(opened.ok()) << opened.status();
  Round r = *std::move(opened);
  for (const Step& step : s.steps) {
    const size_t before = r.events().size();
    absl::Status st;
    switch (step.kind) {
      case Step::kAnte:
        st = r.PlaceAnte(step.seat, "p", step.value);
        break;
      case Step::kDisconnect:
        st = r.Disconnect(step.seat);
        break;
      case Step::kDeal:
        st = r.Deal(s.deck, step.value);
        break;
      case Step::kFold:
        st = r.Fold(step.seat);
        break;
      case Step::kContinue:
        st = r.Continue(step.seat);
        break;
      case Step::kTimeout:
        st = r.Timeout(step.seat, step.value);
        break;
      case Step::kTick:
        st = r.Tick(step.value);
        break;
      case Step::kVoid:
        st = r.Void();
        break;
    }
    // Bad input changes nothing (DESIGN invariant 6).
    if (!st.ok()) {
      EXPECT_EQ(r.events().size(), before) << st;
    }
  }
  return r;
}

// The i-th live seat's cards and the bank's, read straight off the deck.
void CheckAgainstDeck(const Script& s, const Round& r) {
  const RoundResult& res = r.result();
  std::vector<const SeatResult*> dealt;
  for (const SeatResult& sr : res.seats) {
    if (sr.dealt) dealt.push_back(&sr);
  }
  const int n = static_cast<int>(dealt.size());
  std::vector<Card> bank;
  for (int k = 0; k < kHandSize; ++k) {
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(dealt[i]->cards[k], s.deck[1 + k * (n + 1) + i]);
    }
    bank.push_back(s.deck[1 + k * (n + 1) + n]);
  }
  const cards::Evaluator& ev = cards::Evaluator::Get();
  const bool qualifies = cards::sem_descarte::BankQualifies(ev.Evaluate(bank));
  for (const SeatResult& sr : res.seats) {
    const SeatSettlement& st = sr.settlement;
    const int64_t ante = st.ante.stake;
    ASSERT_GE(ante, s.config.min_ante);
    ASSERT_LE(ante, s.config.max_ante);
    if (res.voided) {
      EXPECT_EQ(st.outcome, Outcome::kVoid);
      EXPECT_EQ(st.returned(), st.staked());
      continue;
    }
    if (sr.decision != Decision::kContinued) {
      EXPECT_EQ(st.outcome, Outcome::kFolded);
      EXPECT_EQ(st.ante, (BetSettlement{ante, 0}));
      EXPECT_EQ(st.bet.stake, 0);
      continue;
    }
    EXPECT_EQ(st.bet.stake, 2 * ante);
    if (!qualifies) {
      EXPECT_EQ(st.outcome, Outcome::kBankNotQualify);
      EXPECT_EQ(st.returned(), 4 * ante);
      continue;
    }
    const int w =
        cards::sem_descarte::ComparePlayerWithBank(sr.cards, bank).winner;
    if (w > 0) {
      const int64_t m = BetMultiplier(ev.Evaluate(sr.cards));
      EXPECT_EQ(st.outcome, Outcome::kWon);
      EXPECT_EQ(st.returned(), 2 * ante + 2 * ante * (1 + m));
    } else if (w < 0) {
      EXPECT_EQ(st.outcome, Outcome::kLost);
      EXPECT_EQ(st.returned(), 0);
    } else {
      EXPECT_EQ(st.outcome, Outcome::kPush);
      EXPECT_EQ(st.returned(), 3 * ante);
    }
  }
}

void CheckHiddenCards(const Round& r) {
  for (int viewer = 0; viewer <= r.config().seats; ++viewer) {
    const RoundView v = r.ViewFor(viewer);
    for (const SeatView& sv : v.seats) {
      if (!sv.cards) continue;
      const bool turned = r.finished() && r.result().bank_qualifies &&
                          sv.decision == Decision::kContinued &&
                          !r.result().voided;
      EXPECT_TRUE(sv.seat == viewer || turned);
    }
    if (v.bank) {
      EXPECT_TRUE(r.finished());
    }
    for (const Event& e : r.EventsFor(viewer)) {
      if (const auto* d = std::get_if<CardsDealt>(&e)) {
        EXPECT_EQ(d->seat, viewer);
      }
    }
  }
}

TEST(StudNoDrawProperty, SeededRandomRoundsSettleConsistently) {
  auto rng = cards::testing::SeededRandomSource::FromSeed(20151113);
  int finished = 0, voided = 0, qualified = 0, won = 0;
  for (int i = 0; i < 20'000; ++i) {
    const Script s = RandomScript(rng);
    const Round r = Play(s);
    CheckHiddenCards(r);
    if (!r.finished()) {
      // Only when no ante was placed.
      EXPECT_TRUE(r.SeatsInRound().empty());
      continue;
    }
    ++finished;
    const RoundResult& res = r.result();
    voided += res.voided;
    qualified += res.bank_qualifies;
    int64_t staked = 0, returned = 0;
    int settled = 0;
    for (const Event& e : r.events()) {
      if (const auto* st = std::get_if<SeatSettled>(&e)) {
        staked += st->settlement.staked();
        returned += st->settlement.returned();
        won += st->settlement.outcome == Outcome::kWon;
        ++settled;
      }
    }
    EXPECT_EQ(settled, static_cast<int>(res.seats.size()));
    EXPECT_EQ(staked, res.staked);
    EXPECT_EQ(returned, res.returned);
    ASSERT_NO_FATAL_FAILURE(CheckAgainstDeck(s, r));
    // Replay: the same inputs, the same round.
    const Round again = Play(s);
    ASSERT_EQ(again.events().size(), r.events().size());
    EXPECT_EQ(again.result().staked, res.staked);
    EXPECT_EQ(again.result().returned, res.returned);
    for (size_t k = 0; k < res.seats.size(); ++k) {
      EXPECT_EQ(again.result().seats[k].settlement.ante,
                res.seats[k].settlement.ante);
      EXPECT_EQ(again.result().seats[k].settlement.bet,
                res.seats[k].settlement.bet);
    }
  }
  // The generator reaches every path.
  EXPECT_GT(finished, 15'000);
  EXPECT_GT(voided, 100);
  EXPECT_GT(qualified, 5'000);
  EXPECT_GT(won, 2'000);
}

}  // namespace
}  // namespace banca::games::stud_no_draw
