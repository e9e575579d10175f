#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/games/poker/hand.h"
#include "libs/games/poker/test_util.h"

namespace banca::games::poker {
namespace {

using testing::Bet;
using testing::Call;
using testing::Check;
using testing::EndStack;
using testing::EventsOf;
using testing::Fold;
using ::testing::HasSubstr;
using testing::MakeSetup;
using testing::Play;
using testing::Raise;
using testing::Restraddle;
using testing::Straddle;

TableConfig Synthetic() {
  TableConfig c;
  c.variant = Variant::kSynthetic;
  return c;
}

TEST(Synthetic, StraddleOfferedLeftOfBigBlindBeforeCards_SY51) {
  Hand h =
      *Hand::Start(MakeSetup(Synthetic(), {10000, 10000, 10000, 10000}, 1));
  EXPECT_EQ(h.round(), 0);
  EXPECT_TRUE(EventsOf<HoleCardsDealt>(h).empty());
  LegalActions l = h.legal();
  EXPECT_EQ(l.seat, 4);
  EXPECT_TRUE(l.can_straddle);
  EXPECT_EQ(l.straddle_to, 200);
  EXPECT_THAT(h.Act(4, Restraddle()).message(), HasSubstr("no straddle"));
  ASSERT_TRUE(h.Act(4, Straddle()).ok());
  auto posted = EventsOf<StraddlePosted>(h);
  ASSERT_EQ(posted.size(), 1u);
  EXPECT_EQ(posted[0].amount, 200);
  // SY-51: the next player may re-straddle for twice the straddle.
  l = h.legal();
  EXPECT_EQ(l.seat, 1);
  EXPECT_TRUE(l.can_restraddle);
  EXPECT_EQ(l.straddle_to, 400);
  ASSERT_TRUE(h.Act(1, Restraddle()).ok());
  EXPECT_EQ(EventsOf<HoleCardsDealt>(h).size(), 4u);
  EXPECT_EQ(h.round(), 1);
  EXPECT_EQ(h.to_act(), 2);
  EXPECT_EQ(h.legal().call_amount, 350);  // SY-52: match the re-straddle
  EXPECT_EQ(h.legal().min_raise_to, 800);
}

TEST(Synthetic, AnyOtherActionDeclinesAndIsTheFirstAction_SY54) {
  Hand h =
      *Hand::Start(MakeSetup(Synthetic(), {10000, 10000, 10000, 10000}, 1));
  ASSERT_TRUE(h.Act(4, Call()).ok());
  EXPECT_TRUE(EventsOf<StraddlePosted>(h).empty());
  EXPECT_EQ(EventsOf<HoleCardsDealt>(h).size(), 4u);
  EXPECT_EQ(EventsOf<ActionTaken>(h)[0].put_in, 100);
  EXPECT_EQ(h.to_act(), 1);
  EXPECT_THAT(h.Act(1, Straddle()).message(), HasSubstr("not offered"));
}

TEST(Synthetic, ShortStackCannotStraddleButMayGoAllIn_SY53) {
  Hand h = *Hand::Start(
      MakeSetup(Synthetic(), {10000, 10000, 10000, 10000, 150}, 1));
  ASSERT_TRUE(h.Act(4, Straddle()).ok());
  EXPECT_EQ(h.to_act(), 5);
  EXPECT_FALSE(h.legal().can_restraddle);
  EXPECT_THAT(h.Act(5, Restraddle()).message(), HasSubstr("needs 400"));
  // SY-53: all in for less than the straddle keeps the player in.
  ASSERT_TRUE(h.Act(5, testing::AllIn()).ok());
  EXPECT_TRUE(EventsOf<ActionTaken>(h).back().all_in);
}

TEST(Synthetic, FoldedStraddleStaysInThePot_SY52) {
  Hand h =
      *Hand::Start(MakeSetup(Synthetic(), {10000, 10000, 10000, 10000}, 1));
  Play(h, {{4, Straddle()},
           {1, Fold()},
           {2, Fold()},
           {3, Raise(600)},
           {4, Fold()}});
  ASSERT_TRUE(h.finished());
  EXPECT_EQ(EndStack(h, 4), 9800);
  EXPECT_EQ(EndStack(h, 3), 10250);
}

TEST(Synthetic, FirstCommunityCardBeforeRoundOne_SY54) {
  Hand h = *Hand::Start(MakeSetup(Synthetic(), {10000, 10000}, 1));
  // Heads-up: nobody but the blinds, so no straddle offer.
  EXPECT_EQ(h.round(), 1);
  auto board = EventsOf<BoardDealt>(h);
  ASSERT_EQ(board.size(), 1u);
  EXPECT_EQ(board[0].round, 1);
  EXPECT_EQ(board[0].cards.size(), 1);
  EXPECT_EQ(h.to_act(), 2);  // left of the big blind (the button)
}

TEST(Synthetic, RoundTwoOpensWithLastBettor_SY56) {
  TableConfig c = Synthetic();
  c.straddles = false;
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000, 10000}, 1));
  Play(h,
       {{4, Call()}, {1, Raise(300)}, {2, Call()}, {3, Call()}, {4, Call()}});
  EXPECT_EQ(h.round(), 2);  // SY-55
  EXPECT_EQ(h.to_act(), 1);
  Play(h, {{1, Check()},
           {2, Check()},
           {3, Bet(100)},
           {4, Call()},
           {1, Call()},
           {2, Call()}});
  EXPECT_EQ(h.round(), 3);  // SY-57
  EXPECT_EQ(h.to_act(), 3);
}

TEST(Synthetic, NobodyBetOpensLeftOfButton_SY56_Gap4) {
  TableConfig c = Synthetic();
  c.straddles = false;
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000, 10000}, 1));
  Play(h, {{4, Call()}, {1, Call()}, {2, Call()}, {3, Check()}});
  EXPECT_EQ(h.to_act(), 2);
}

TEST(Synthetic, AllInBettorPassesToNextActive_SY56_Gap4) {
  TableConfig c = Synthetic();
  c.straddles = false;
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000, 500}, 1));
  Play(h, {{4, testing::AllIn()}, {1, Call()}, {2, Call()}, {3, Call()}});
  EXPECT_EQ(h.round(), 2);
  EXPECT_EQ(h.to_act(), 1);
}

TEST(Synthetic, FiveCardsOneAtATimeFiveRounds_SY55_SY59) {
  TableConfig c = Synthetic();
  c.straddles = false;
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000}, 1));
  Play(h, {{1, Call()}, {2, Call()}, {3, Check()}});
  for (int round = 2; round <= 5; ++round) {
    EXPECT_EQ(h.round(), round);
    Play(h, {{2, Check()}, {3, Check()}, {1, Check()}});
  }
  ASSERT_TRUE(h.finished());
  auto board = EventsOf<BoardDealt>(h);
  ASSERT_EQ(board.size(), 5u);
  for (const BoardDealt& b : board) EXPECT_EQ(b.cards.size(), 1);
  EXPECT_EQ(h.result().board.size(), 5u);
  // SY-60: nobody bet in round 5: left of the button shows first.
  EXPECT_EQ(h.result().showdown_order.front(), 2);
}

TEST(Synthetic, NoRakeBeforeSecondCard_HE18_Interpretation) {
  TableConfig c = Synthetic();
  c.straddles = false;
  c.rake = {RakeMode::kPot, 500, 0};
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000}, 1));
  Play(h,
       {{1, Raise(300)}, {2, Fold()}, {3, Call()}, {1, Bet(200)}, {3, Fold()}});
  EXPECT_GT(h.result().rake, 0);  // round 2 was reached
  Hand g = *Hand::Start(MakeSetup(c, {10000, 10000, 10000}, 1));
  Play(g, {{1, Raise(300)}, {2, Fold()}, {3, Fold()}});
  EXPECT_EQ(g.result().rake, 0);
}

TEST(Synthetic, FixedLimitDoublesFromRoundThree_Interpretation) {
  TableConfig c = Synthetic();
  c.straddles = false;
  c.limit = Limit::kFixedLimit;
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000}, 1));
  Play(h, {{2, Call()}, {1, Check()}, {2, Bet(100)}, {1, Call()}});
  EXPECT_EQ(h.round(), 3);
  EXPECT_EQ(h.legal().min_raise_to, 200);
}

TEST(Synthetic, ReplayWithStraddles) {
  Hand h =
      *Hand::Start(MakeSetup(Synthetic(), {10000, 10000, 10000, 10000}, 1));
  Play(h, {{4, Straddle()},
           {1, Restraddle()},
           {2, Fold()},
           {3, Call()},
           {4, Call()}});
  while (!h.finished()) ASSERT_TRUE(h.Timeout(*h.to_act()).ok());
  absl::StatusOr<HandResult> r = Hand::Replay(h.record());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, h.result());
}

// Checks, or calls when facing a bet, until the hand ends: every round
// closes with the players still in and the board is turned card by card.
void CheckDown(Hand& h) {
  while (!h.finished()) {
    const int seat = *h.to_act();
    ASSERT_TRUE(h.Act(seat, h.legal().call_amount > 0 ? Call() : Check()).ok());
  }
}

TEST(Synthetic, RemainingTiesSplitWithTheOddChipClockwise_SY63) {
  TableConfig c = Synthetic();
  c.small_blind = 33;
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000}, 1,
                                  "2c 3c 4c 2d 3d 4d Ts Js Qs Ks As"));
  // Seat 1 declines the straddle by calling; the small blind folds.
  Play(h, {{1, Call()}, {2, Fold()}});
  CheckDown(h);
  ASSERT_TRUE(h.finished());
  // A royal flush on the board: the 233 is split, the odd cent to the
  // first winner clockwise from the button (as HE-62, gap 2).
  EXPECT_THAT(h.result().pots[0].shares,
              ::testing::ElementsAre(SeatAmount{3, 117}, SeatAmount{1, 116}));
}

TEST(Synthetic, EachPotToTheBestEligibleHand_SY64) {
  Hand h = *Hand::Start(MakeSetup(Synthetic(), {1000, 2000, 3000, 10000}, 4,
                                  "As Ks Qs 2c Ah Kh Qh 3d 7c 8d 9h Jc 4s"));
  // Seat 3's all in declines the straddle and opens the betting (SY-54).
  Play(h, {{3, testing::AllIn()},
           {4, Call()},
           {1, testing::AllIn()},
           {2, testing::AllIn()}});
  CheckDown(h);
  const auto& pots = h.result().pots;
  ASSERT_EQ(pots.size(), 3u);
  EXPECT_THAT(pots[0].shares, ::testing::ElementsAre(SeatAmount{1, 4000}));
  EXPECT_THAT(pots[1].shares, ::testing::ElementsAre(SeatAmount{2, 3000}));
  EXPECT_THAT(pots[2].shares, ::testing::ElementsAre(SeatAmount{3, 2000}));
  EXPECT_EQ(EndStack(h, 4), 7000);
  EXPECT_EQ(h.result().board.size(), 5u);
}

}  // namespace
}  // namespace banca::games::poker
