#include "libs/games/poker/hand.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/cards/showdown.h"
#include "libs/games/poker/test_util.h"

namespace banca::games::poker {
namespace {

using testing::AllIn;
using testing::Bet;
using testing::Call;
using testing::Check;
using ::testing::ElementsAre;
using testing::EndStack;
using testing::EventsOf;
using testing::Fold;
using ::testing::HasSubstr;
using testing::MakeSetup;
using testing::Play;
using testing::Raise;

TableConfig Holdem() { return TableConfig{}; }

TEST(HoldemBlinds, LeftOfButtonPostSmallAndBig_HE48) {
  absl::StatusOr<Hand> h =
      Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  ASSERT_TRUE(h.ok()) << h.status();
  auto blinds = EventsOf<BlindPosted>(*h);
  ASSERT_EQ(blinds.size(), 2u);
  EXPECT_EQ(blinds[0].seat, 2);
  EXPECT_EQ(blinds[0].amount, 50);
  EXPECT_EQ(blinds[1].seat, 3);
  EXPECT_EQ(blinds[1].amount, 100);
  // HE-51: round 1 opens left of the big blind.
  EXPECT_EQ(h->to_act(), 1);
}

TEST(HoldemBlinds, HeadsUpLiteralNonButtonPostsSmallAndActsFirst_HE48) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000}, 1));
  auto blinds = EventsOf<BlindPosted>(h);
  EXPECT_EQ(blinds[0].seat, 2);  // small blind: left of the button
  EXPECT_EQ(blinds[1].seat, 1);  // the button posts the big blind
  EXPECT_EQ(h.to_act(), 2);
  Play(h, {{2, Call()}, {1, Check()}});
  EXPECT_EQ(h.round(), 2);
  EXPECT_EQ(h.to_act(), 2);  // HE-54: left of the button, on every street
}

TEST(HoldemBlinds, HeadsUpButtonSmallBlindSetting_HE48) {
  TableConfig c = Holdem();
  c.heads_up = HeadsUpBlinds::kButtonSmallBlind;
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000}, 1));
  auto blinds = EventsOf<BlindPosted>(h);
  EXPECT_EQ(blinds[0].seat, 1);
  EXPECT_EQ(blinds[1].seat, 2);
  EXPECT_EQ(h.to_act(), 1);
  Play(h, {{1, Call()}, {2, Check()}});
  EXPECT_EQ(h.to_act(), 2);
}

TEST(HoldemBlinds, ShortBigBlindGoesAllIn_HE39) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 60}, 1));
  auto blinds = EventsOf<BlindPosted>(h);
  EXPECT_EQ(blinds[1].amount, 60);
  EXPECT_EQ(h.legal().call_amount, 100);  // HE-52: at least the big blind
}

TEST(HoldemDeal, OneCardEachFromSmallBlindThenBoard_HE49_HE50) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1,
                                  "As Ks Qs Ah Kh Qh 2c 3c 4c 5d 7d"));
  auto dealt = EventsOf<HoleCardsDealt>(h);
  ASSERT_EQ(dealt.size(), 3u);
  EXPECT_EQ(dealt[0].seat, 2);
  EXPECT_EQ(cards::CardsToString(dealt[0].cards.span()), "As Ah");
  EXPECT_EQ(dealt[1].seat, 3);
  EXPECT_EQ(cards::CardsToString(dealt[1].cards.span()), "Ks Kh");
  EXPECT_EQ(dealt[2].seat, 1);
  EXPECT_EQ(cards::CardsToString(dealt[2].cards.span()), "Qs Qh");
  Play(h, {{1, Call()}, {2, Call()}, {3, Check()}});
  auto board = EventsOf<BoardDealt>(h);
  ASSERT_EQ(board.size(), 1u);
  EXPECT_EQ(cards::CardsToString(board[0].cards.span()), "2c 3c 4c");  // HE-53
}

TEST(HoldemOrder, StreetsOpenLeftOfButton_HE54_HE56_HE58) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000, 10000}, 4));
  EXPECT_EQ(h.to_act(), 3);  // HE-51
  Play(h, {{3, Call()}, {4, Call()}, {1, Call()}, {2, Check()}});
  EXPECT_EQ(h.round(), 2);
  EXPECT_EQ(h.to_act(), 1);
  Play(h, {{1, Check()}, {2, Check()}, {3, Check()}, {4, Check()}});
  EXPECT_EQ(h.round(), 3);  // HE-55: the turn
  EXPECT_EQ(h.to_act(), 1);
  Play(h, {{1, Fold()}, {2, Check()}, {3, Check()}, {4, Check()}});
  EXPECT_EQ(h.round(), 4);  // HE-57: the river
  EXPECT_EQ(h.to_act(), 2);
}

TEST(HoldemActions, OutOfTurnIsRejected_HE34) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  absl::Status st = h.Act(2, Call());
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(st.message(), "not rui's turn");
  EXPECT_EQ(h.to_act(), 1);
  EXPECT_TRUE(h.record().actions.empty());
}

TEST(HoldemActions, CheckFacingABetIsRejected_HE34b) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  EXPECT_EQ(h.Act(1, Check()).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(h.Act(1, Bet(300)).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(h.Act(1, Action{ActionType::kCall, 5}).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(HoldemBetSizing, RaiseBelowLastFullRaiseIsRejected_HE37) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  Play(h, {{1, Raise(300)}});
  absl::Status st = h.Act(2, Raise(450));
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "raise to 450 is below the minimum raise to 500");
  EXPECT_EQ(h.legal().min_raise_to, 500);
  EXPECT_EQ(h.legal().max_raise_to, 10000);
  EXPECT_TRUE(h.Act(2, Raise(500)).ok());
}

TEST(HoldemBetSizing, NoBetBelowBigBlind_HE23) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  Play(h, {{1, Call()}, {2, Call()}, {3, Check()}});
  absl::Status st = h.Act(2, Bet(50));
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("below the minimum bet of 100 (HE-23)"));
  EXPECT_TRUE(h.Act(2, Bet(100)).ok());
}

TEST(HoldemBetSizing, MoreThanTheStackIsRejected_HE24c) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  EXPECT_EQ(h.Act(1, Raise(10001)).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(h.Act(1, Raise(10000)).ok());  // all in by amount
  EXPECT_EQ(EventsOf<ActionTaken>(h).back().all_in, true);
}

TEST(HoldemBetSizing, ShortAllInDoesNotReopenBetting_Gap5) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 450, 10000}, 1));
  Play(h, {{1, Raise(300)}, {2, AllIn()}, {3, Call()}});
  // Seat 2's all-in to 450 is a raise of 150 < 200: seat 1 acted already.
  LegalActions l = h.legal();
  EXPECT_EQ(l.seat, 1);
  EXPECT_FALSE(l.can_raise);
  EXPECT_TRUE(l.can_call);
  EXPECT_EQ(l.call_amount, 150);
  absl::Status st = h.Act(1, Raise(1000));
  EXPECT_THAT(st.message(), HasSubstr("not reopened"));
  EXPECT_TRUE(h.Act(1, Call()).ok());
}

TEST(HoldemBetSizing, PotLimitMaximumIsPotAfterCall_HE24b) {
  TableConfig c = Holdem();
  c.limit = Limit::kPotLimit;
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000}, 1));
  EXPECT_EQ(h.legal().max_raise_to, 350);  // 100 + (150 + 100)
  absl::Status st = h.Act(1, Raise(351));
  EXPECT_EQ(st.message(), "raise to 351 is above the maximum of 350 (HE-24)");
  EXPECT_EQ(h.Act(1, AllIn()).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(h.Act(1, Raise(350)).ok());
  EXPECT_EQ(h.legal().max_raise_to, 1150);  // 350 + (500 + 300)
}

TEST(HoldemBetSizing, FixedLimitSmallThenBigBet_HE24a) {
  TableConfig c = Holdem();
  c.limit = Limit::kFixedLimit;
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000}, 1));
  absl::Status st = h.Act(1, Raise(300));
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("must be to 200"));
  Play(h, {{1, Raise(200)}, {2, Call()}, {3, Call()}});
  EXPECT_EQ(h.Act(2, Bet(200)).code(), absl::StatusCode::kInvalidArgument);
  Play(h, {{2, Bet(100)}, {3, Call()}, {1, Call()}});
  EXPECT_EQ(h.round(), 3);
  EXPECT_THAT(h.Act(2, Bet(100)).message(), HasSubstr("bets are 200"));
  EXPECT_TRUE(h.Act(2, Bet(200)).ok());
}

TEST(HoldemBetSizing, FixedLimitRaiseCap_HE38) {
  TableConfig c = Holdem();
  c.limit = Limit::kFixedLimit;
  c.max_raises_per_round = 3;
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000}, 1));
  Play(h, {{1, Raise(200)}, {2, Raise(300)}, {3, Raise(400)}});
  EXPECT_FALSE(h.legal().can_raise);
  EXPECT_THAT(h.Act(1, Raise(500)).message(), HasSubstr("no more raises"));
  EXPECT_TRUE(h.Act(1, Call()).ok());
}

TEST(HoldemBetSizing, HalfPotMaximum_HE24a) {
  TableConfig c = Holdem();
  c.limit = Limit::kHalfPot;
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000}, 1));
  Play(h, {{1, Call()}, {2, Call()}, {3, Check()}});
  EXPECT_EQ(h.legal().max_raise_to, 150);
  EXPECT_EQ(h.Act(2, Bet(151)).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(h.Act(2, Bet(150)).ok());
}

TEST(HoldemEnd, LastPlayerWinsWithoutShowing_HE36) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  Play(h, {{1, Fold()}, {2, Fold()}});
  ASSERT_TRUE(h.finished());
  EXPECT_TRUE(EventsOf<ShowdownShown>(h).empty());
  auto returned = EventsOf<BetReturned>(h);
  ASSERT_EQ(returned.size(), 1u);
  EXPECT_EQ(returned[0].seat, 3);
  EXPECT_EQ(returned[0].amount, 50);
  EXPECT_EQ(EndStack(h, 1), 10000);
  EXPECT_EQ(EndStack(h, 2), 9950);
  EXPECT_EQ(EndStack(h, 3), 10050);
  EXPECT_TRUE(h.result().showdown_order.empty());
  EXPECT_EQ(h.Act(3, Check()).code(), absl::StatusCode::kFailedPrecondition);
}

TEST(HoldemEnd, FoldForfeitsBets_HE35) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  Play(h, {{1, Raise(300)},
           {2, Call()},
           {3, Call()},
           {2, Bet(500)},
           {3, Fold()},
           {1, Fold()}});
  EXPECT_EQ(EndStack(h, 2), 10600);
  EXPECT_EQ(EndStack(h, 3), 9700);
}

// Seats 1..4 go all in for 1000, 2000, 3000 and seat 4 covers: the best
// hands are in the reverse order of the stacks.
Hand ThreeAllIns(TableConfig c) {
  Hand h = *Hand::Start(MakeSetup(c, {1000, 2000, 3000, 10000}, 4,
                                  "As Ks Qs 2c Ah Kh Qh 3d 7c 8d 9h Jc 4s"));
  Play(h, {{3, AllIn()}, {4, Call()}, {1, AllIn()}, {2, AllIn()}});
  return h;
}

TEST(HoldemSidePots, OnePerDistinctAllIn_HE41_HE42) {
  Hand h = ThreeAllIns(Holdem());
  ASSERT_TRUE(h.finished());
  const auto& pots = h.result().pots;
  ASSERT_EQ(pots.size(), 3u);
  EXPECT_EQ(pots[0].amount, 4000);
  EXPECT_THAT(pots[0].eligible, ElementsAre(1, 2, 3, 4));
  EXPECT_EQ(pots[1].amount, 3000);
  EXPECT_THAT(pots[1].eligible, ElementsAre(2, 3, 4));
  EXPECT_EQ(pots[2].amount, 2000);
  EXPECT_THAT(pots[2].eligible, ElementsAre(3, 4));
}

TEST(HoldemSidePots, EachPotToBestEligibleHand_HE63) {
  Hand h = ThreeAllIns(Holdem());
  const auto& pots = h.result().pots;
  EXPECT_THAT(pots[0].shares, ElementsAre(SeatAmount{1, 4000}));
  EXPECT_THAT(pots[1].shares, ElementsAre(SeatAmount{2, 3000}));
  EXPECT_THAT(pots[2].shares, ElementsAre(SeatAmount{3, 2000}));
  EXPECT_EQ(EndStack(h, 4), 7000);
  EXPECT_EQ(h.result().board.size(), 5u);  // gap 9: the board is run out
}

TEST(HoldemAllIn, NoRaiseWhenEveryOtherPlayerIsAllIn_HE37_HE39) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 500, 20000}, 1));
  Play(h, {{1, AllIn()}, {2, Call()}});
  ASSERT_EQ(h.to_act(), 3);
  EXPECT_FALSE(h.legal().can_raise);
  EXPECT_FALSE(h.legal().can_all_in);
  const absl::Status s = h.Act(3, Raise(15000));
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_THAT(s.message(), HasSubstr("no other player has chips to answer"));
  ASSERT_TRUE(h.Act(3, Call()).ok());
  EXPECT_TRUE(h.finished());
}

TEST(HoldemAllIn, NothingToPlayAgainstAShortAllInBigBlind_HE39) {
  // Heads-up, literal blinds: the button's big blind puts it all in for
  // less than the small blind already posted; nobody is left to act.
  Hand h = *Hand::Start(MakeSetup(Holdem(), {43, 2586}, 1));
  EXPECT_TRUE(h.finished());
  EXPECT_EQ(h.result().board.size(), 5u);
  int64_t end = 0;
  for (const PlayerResult& p : h.result().players) end += p.end_stack;
  EXPECT_EQ(end, 43 + 2586);
}

TEST(HoldemSidePots, AllInRunOutShowsEveryHand_Gap9) {
  Hand h = ThreeAllIns(Holdem());
  EXPECT_EQ(EventsOf<ShowdownShown>(h).size(), 4u);
  EXPECT_EQ(EventsOf<BoardDealt>(h).size(), 3u);
}

TEST(HoldemRake, PerPotRoundedDownWithCapMainFirst_HE17a_HE19) {
  TableConfig c = Holdem();
  c.rake = {RakeMode::kPot, 500, 300};
  Hand h = ThreeAllIns(c);
  const auto& pots = h.result().pots;
  EXPECT_EQ(pots[0].rake, 200);
  EXPECT_EQ(pots[1].rake, 100);  // 150 capped: 300 per hand
  EXPECT_EQ(pots[2].rake, 0);
  EXPECT_EQ(h.result().rake, 300);
  EXPECT_EQ(pots[0].shares[0].amount, 3800);
}

TEST(HoldemRake, RoundedDownToTheCent_HE17a) {
  TableConfig c = Holdem();
  c.small_blind = 33;
  c.rake = {RakeMode::kPot, 300, 0};
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000}, 1));
  Play(h, {{1, Call()}, {2, Fold()}, {3, Check()}, {3, Bet(100)}, {1, Fold()}});
  // Pot 233 + uncalled 100 returned: 3 % of 233 = 6.99 -> 6.
  EXPECT_EQ(h.result().rake, 6);
  EXPECT_EQ(EventsOf<BetReturned>(h)[0].amount, 100);
}

TEST(HoldemRake, NoFlopNoDrop_HE18) {
  TableConfig c = Holdem();
  c.rake = {RakeMode::kPot, 500, 0};
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000}, 1));
  Play(h, {{1, Raise(300)},
           {2, Call()},
           {3, Raise(1000)},
           {1, Fold()},
           {2, Fold()}});
  EXPECT_EQ(h.result().rake, 0);
  EXPECT_EQ(EndStack(h, 3), 10600);
}

TEST(HoldemSplit, OddChipClockwiseFromButton_HE62_Gap2) {
  TableConfig c = Holdem();
  c.small_blind = 33;
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000, 10000}, 1,
                                  "2c 3c 4c 2d 3d 4d Ts Js Qs Ks As"));
  Play(h, {{1, Call()}, {2, Fold()}, {3, Check()}});
  for (int r = 0; r < 3; ++r) Play(h, {{3, Check()}, {1, Check()}});
  ASSERT_TRUE(h.finished());
  // HE-33: equal hands (a royal flush on the board) split the 233.
  EXPECT_THAT(h.result().pots[0].shares,
              ElementsAre(SeatAmount{3, 117}, SeatAmount{1, 116}));
}

TEST(HoldemShowdown, LastRaiserShowsFirst_HE59) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  Play(h, {{1, Call()}, {2, Call()}, {3, Check()}});
  for (int r = 0; r < 2; ++r)
    Play(h, {{2, Check()}, {3, Check()}, {1, Check()}});
  Play(
      h,
      {{2, Check()}, {3, Bet(100)}, {1, Raise(300)}, {2, Fold()}, {3, Call()}});
  EXPECT_THAT(h.result().showdown_order, ElementsAre(1, 3));
  auto shown = EventsOf<ShowdownShown>(h);
  EXPECT_EQ(shown[0].seat, 1);
}

TEST(HoldemShowdown, WithoutBetsLeftOfButtonFirst_HE59) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  Play(h, {{1, Call()}, {2, Call()}, {3, Check()}});
  for (int r = 0; r < 3; ++r)
    Play(h, {{2, Check()}, {3, Check()}, {1, Check()}});
  EXPECT_THAT(h.result().showdown_order, ElementsAre(2, 3, 1));
  EXPECT_TRUE(EventsOf<ShowdownShown>(h)[0].value.valid());
}

TEST(HoldemShowdown, WinningHandIsNamed_HE61) {
  Hand h = ThreeAllIns(Holdem());
  auto shown = EventsOf<ShowdownShown>(h);
  EXPECT_EQ(cards::DescribeHand(shown.back().value, cards::Language::kEnglish)
                .empty(),
            false);
}

TEST(HoldemTimer, TimeoutChecksElseFolds_HE45) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  EXPECT_EQ(h.Timeout(2).code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(h.Timeout(1).ok());
  Play(h, {{2, Call()}});
  ASSERT_TRUE(h.Timeout(3).ok());
  HandRecord r = h.record();
  ASSERT_EQ(r.actions.size(), 3u);
  EXPECT_EQ(r.actions[0],
            (RecordedAction{1, Action{ActionType::kFold, 0}, true}));
  EXPECT_EQ(r.actions[2],
            (RecordedAction{3, Action{ActionType::kCheck, 0}, true}));
  EXPECT_TRUE(EventsOf<ActionTaken>(h)[0].timeout);
}

TEST(HoldemVoid, EveryBetReturned_HE72) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  Play(h, {{1, Raise(300)}, {2, Call()}, {3, Call()}, {2, Bet(500)}});
  ASSERT_TRUE(h.Void().ok());
  ASSERT_TRUE(h.finished());
  EXPECT_TRUE(h.result().voided);
  auto voided = EventsOf<HandVoided>(h);
  ASSERT_EQ(voided.size(), 1u);
  EXPECT_THAT(
      voided[0].refunds,
      ElementsAre(SeatAmount{1, 300}, SeatAmount{2, 800}, SeatAmount{3, 300}));
  for (int seat = 1; seat <= 3; ++seat) EXPECT_EQ(EndStack(h, seat), 10000);
  EXPECT_EQ(h.Void().code(), absl::StatusCode::kFailedPrecondition);
  HandRecord r = h.record();
  EXPECT_TRUE(r.voided);
  absl::StatusOr<HandResult> replay = Hand::Replay(r);
  ASSERT_TRUE(replay.ok()) << replay.status();
  EXPECT_EQ(*replay, h.result());
}

TEST(HoldemRecord, ReplayGivesTheSameResult) {
  Hand h = ThreeAllIns(Holdem());
  absl::StatusOr<HandResult> replay = Hand::Replay(h.record());
  ASSERT_TRUE(replay.ok()) << replay.status();
  EXPECT_EQ(*replay, h.result());
  HandRecord unfinished = h.record();
  unfinished.actions.pop_back();
  EXPECT_EQ(Hand::Replay(unfinished).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(HoldemView, OwnCardsOnlyUntilShowdown_HE2d) {
  Hand h = *Hand::Start(MakeSetup(Holdem(), {10000, 10000, 10000}, 1));
  SeatView v = h.ViewFor(2);
  EXPECT_EQ(v.players[1].cards.size(), 2);
  EXPECT_TRUE(v.players[0].cards.empty());
  EXPECT_TRUE(v.players[2].cards.empty());
  EXPECT_EQ(v.pot, 150);
  EXPECT_EQ(v.legal.seat, 0);  // not seat 2's turn
  SeatView observer = h.ViewFor(0);
  for (const PlayerView& p : observer.players) EXPECT_TRUE(p.cards.empty());
  EXPECT_EQ(h.ViewFor(1).legal.seat, 1);
  Play(h, {{1, Fold()}, {2, Call()}, {3, Check()}});
  for (int r = 0; r < 3; ++r) Play(h, {{2, Check()}, {3, Check()}});
  SeatView after = h.ViewFor(0);
  EXPECT_TRUE(after.players[0].cards.empty());  // folded: never shown
  EXPECT_EQ(after.players[1].cards.size(), 2);
  EXPECT_EQ(after.players[2].cards.size(), 2);
}

TEST(HoldemSetup, BadSetupsAreRejected_HE5_HE7) {
  EXPECT_FALSE(Hand::Start(MakeSetup(Holdem(), {10000}, 1)).ok());
  EXPECT_FALSE(Hand::Start(MakeSetup(Holdem(), {10000, 0}, 1)).ok());
  EXPECT_FALSE(Hand::Start(MakeSetup(Holdem(), {10000, 10000}, 3)).ok());
  HandSetup s = MakeSetup(Holdem(), {10000, 10000}, 1);
  s.deck[1] = s.deck[0];
  EXPECT_THAT(Hand::Start(s).status().message(), HasSubstr("repeats"));
  s = MakeSetup(Holdem(), {10000, 10000}, 1);
  s.deck.resize(8);
  EXPECT_FALSE(Hand::Start(s).ok());
}

TEST(Omaha, ExactlyTwoHoleAndThreeBoard_OM) {
  TableConfig c;
  c.variant = Variant::kOmaha;
  c.limit = Limit::kPotLimit;
  // Seat 2 (small blind) gets Jh 2s 5c 6d, seat 1 Th 9h 8c 8d.
  Hand h = *Hand::Start(MakeSetup(c, {10000, 10000}, 1,
                                  "Jh Th 2s 9h 5c 8c 6d 8d Ah Kh Qh 2c 3d"));
  Play(h, {{2, Call()}, {1, Check()}});
  for (int r = 0; r < 3; ++r) Play(h, {{2, Check()}, {1, Check()}});
  auto shown = EventsOf<ShowdownShown>(h);
  ASSERT_EQ(shown.size(), 2u);
  for (const ShowdownShown& s : shown) {
    if (s.seat == 2) {
      EXPECT_EQ(s.cards.size(), 4);
      EXPECT_EQ(s.value.category(), cards::Category::kPair);  // one heart
    } else {
      EXPECT_EQ(s.value.category(), cards::Category::kFlush);
    }
  }
  EXPECT_EQ(EndStack(h, 1), 10100);
}

}  // namespace
}  // namespace banca::games::poker
