// Rule tests for one round (digest section 1). Decks are written in draw
// order: first card to each seat, the dealer's up card, second card to each
// seat, the hole card, then the players' draws, then the dealer's.
#include "libs/games/blackjack/round.h"

#include "gtest/gtest.h"
#include "libs/games/blackjack/test_util.h"

namespace banca::games::blackjack {
namespace {

using testing::BetOf;
using testing::C;
using testing::Do;
using testing::MustStart;
using testing::OneSeat;
using testing::Shoe;

constexpr auto kHit = ActionType::kHit;
constexpr auto kStand = ActionType::kStand;
constexpr auto kDouble = ActionType::kDouble;
constexpr auto kSplit = ActionType::kSplit;
constexpr auto kInsurance = ActionType::kInsurance;
constexpr auto kSurrender = ActionType::kSurrender;

RoundSetup TwoSeats(const std::string& deck, TableSettings settings = {}) {
  RoundSetup s;
  s.settings = settings;
  s.round_number = 7;
  s.bets = {{1, "ana", 1000}, {3, "rui", 2000}};
  s.deck = Shoe(deck);
  return s;
}

TableSettings NoPeek() {
  TableSettings s;
  s.dealer_peek = false;
  return s;
}

// Asserts `status` is `code` with `text` in its message, and that the
// round did not change.
void ExpectRejected(Round& r, int seat, Action a, absl::StatusCode code,
                    const std::string& text) {
  const size_t events = r.events().size();
  const RoundView before = r.ViewFor(seat);
  const absl::Status s = r.Act(seat, a);
  EXPECT_EQ(s.code(), code) << s;
  EXPECT_NE(s.message().find(text), absl::string_view::npos) << s.message();
  EXPECT_EQ(r.events().size(), events);
  const RoundView after = r.ViewFor(seat);
  EXPECT_EQ(after.seats, before.seats);
  EXPECT_EQ(after.dealer_cards, before.dealer_cards);
  EXPECT_EQ(after.to_act.seat, before.to_act.seat);
}

TEST(Blackjack, DealerCloserTo21Wins_BJ_25e) {
  Round r = MustStart(OneSeat("Td 9h 8c Ts"));  // ana 18, dealer 19
  ASSERT_TRUE(r.Act(1, Do(kStand)).ok());
  ASSERT_TRUE(r.finished());
  const BetResult main = BetOf(r.result(), 1, BetKind::kMain);
  EXPECT_EQ(main.outcome, Outcome::kLost);
  EXPECT_EQ(main.returned, 0);
  EXPECT_EQ(r.result().dealer_total.value, 19);
}

TEST(Blackjack, WinningBetReturnsStakeAndWinnings_BJ_26) {
  Round r = MustStart(OneSeat("Td 9h 9c 9s"));  // ana 19, dealer 18
  ASSERT_TRUE(r.Act(1, Do(kStand)).ok());
  const BetResult main = BetOf(r.result(), 1, BetKind::kMain);
  EXPECT_EQ(main.outcome, Outcome::kWon);
  EXPECT_EQ(main.returned, 2000);
  // A busting dealer pays every standing hand.
  Round bust = MustStart(OneSeat("Td 6h 2c Ts 9d"));  // 12 v 16, dealer 25
  ASSERT_TRUE(bust.Act(1, Do(kStand)).ok());
  EXPECT_EQ(BetOf(bust.result(), 1, BetKind::kMain).returned, 2000);
}

TEST(Blackjack, PlayerBustLosesEvenIfDealerBusts_BJ_gap1) {
  // ana Td 5c (15), rui Tc Ts (20), dealer 6h 6d (12).
  Round r = MustStart(TwoSeats("Td Tc 6h 5c Ts 6d Kd Ts"));
  ASSERT_TRUE(r.Act(1, Do(kHit)).ok());  // Kd: 25, bust
  ASSERT_TRUE(r.Act(3, Do(kStand)).ok());
  ASSERT_TRUE(r.finished());  // the dealer draws Ts: 22
  EXPECT_EQ(r.result().dealer_total.value, 22);
  EXPECT_EQ(BetOf(r.result(), 1, BetKind::kMain).returned, 0);
  EXPECT_EQ(BetOf(r.result(), 3, BetKind::kMain).returned, 4000);
}

TEST(Blackjack, InsurancePaysTwiceWhenDealerHasBlackjack_BJ_25f) {
  Round r = MustStart(OneSeat("Td As 9c Kh"));
  ASSERT_EQ(r.phase(), Phase::kInsurance);
  EXPECT_TRUE(r.legal().insurance);
  EXPECT_EQ(r.legal().max_insurance, 500);
  ASSERT_TRUE(r.Act(1, Do(kInsurance, 500)).ok());
  ASSERT_TRUE(r.finished());  // the peek finds the blackjack
  const BetResult ins = BetOf(r.result(), 1, BetKind::kInsurance);
  EXPECT_EQ(ins.stake, 500);
  EXPECT_EQ(ins.outcome, Outcome::kWon);
  EXPECT_EQ(ins.returned, 1500);  // the stake and twice it
  EXPECT_EQ(BetOf(r.result(), 1, BetKind::kMain).returned, 0);
  EXPECT_EQ(r.result().staked, 1500);
  EXPECT_EQ(r.result().returned, 1500);
}

TEST(Blackjack, InsuranceLostWithoutDealerBlackjack_BJ_25g) {
  Round r = MustStart(OneSeat("Td As 9c 7h"));  // dealer soft 18
  ASSERT_TRUE(r.Act(1, Do(kInsurance, 300)).ok());
  ASSERT_FALSE(r.finished());
  ASSERT_TRUE(r.Act(1, Do(kStand)).ok());
  const BetResult ins = BetOf(r.result(), 1, BetKind::kInsurance);
  EXPECT_EQ(ins.outcome, Outcome::kLost);
  EXPECT_EQ(ins.returned, 0);
  EXPECT_EQ(BetOf(r.result(), 1, BetKind::kMain).returned, 2000);
}

TEST(Blackjack, InsuranceAtMostHalfTheBetOddCentDown_BJ_25f) {
  Round r = MustStart(OneSeat("Td As 9c 7h", 1001));
  EXPECT_EQ(r.legal().max_insurance, 500);
  ExpectRejected(r, 1, Do(kInsurance, 501), absl::StatusCode::kInvalidArgument,
                 "at most half the main bet");
  ExpectRejected(r, 1, Do(kInsurance, -1), absl::StatusCode::kInvalidArgument,
                 "insurance must be 0..500");
  ExpectRejected(r, 1, Do(kHit), absl::StatusCode::kFailedPrecondition,
                 "must first take or decline insurance");
  ASSERT_TRUE(r.Act(1, Do(kInsurance, 0)).ok());  // declined
  ExpectRejected(r, 1, Do(kInsurance, 100),
                 absl::StatusCode::kFailedPrecondition,
                 "insurance is offered only before play");
}

TEST(Blackjack, EqualScoresPush_BJ_25h) {
  Round r = MustStart(OneSeat("Td 9h 8c 9s"));  // 18 v 18
  ASSERT_TRUE(r.Act(1, Do(kStand)).ok());
  const BetResult main = BetOf(r.result(), 1, BetKind::kMain);
  EXPECT_EQ(main.outcome, Outcome::kPush);
  EXPECT_EQ(main.returned, 1000);
}

TEST(Blackjack, BothBlackjackPush_BJ_25h) {
  // Ace up: insurance declined, the peek ends the round.
  Round ace = MustStart(OneSeat("As Ah Kd Qs"));
  ASSERT_TRUE(ace.Act(1, Do(kInsurance, 0)).ok());
  ASSERT_TRUE(ace.finished());
  EXPECT_EQ(BetOf(ace.result(), 1, BetKind::kMain).outcome, Outcome::kPush);
  EXPECT_EQ(BetOf(ace.result(), 1, BetKind::kMain).returned, 1000);
  // Ten up: the peek ends it at the deal.
  Round ten = MustStart(OneSeat("As Kh Qd Ac"));
  ASSERT_TRUE(ten.finished());
  EXPECT_TRUE(ten.result().dealer_blackjack);
  EXPECT_EQ(BetOf(ten.result(), 1, BetKind::kMain).returned, 1000);
}

TEST(Blackjack, BlackjackBeatsAnyOtherTwentyOne_BJ_25h_gap2) {
  // Dealer blackjack (found at the end without the peek) beats a 3-card 21.
  Round r = MustStart(OneSeat("Td Kh 5c As 6d", 1000, NoPeek()));
  ASSERT_TRUE(r.Act(1, Do(kHit)).ok());  // 21: stands by itself
  ASSERT_TRUE(r.finished());
  EXPECT_EQ(BetOf(r.result(), 1, BetKind::kMain).outcome, Outcome::kLost);
  // A player blackjack beats the dealer's 3-card 21.
  Round p = MustStart(TwoSeats("As Tc 9h Kd 8c 5s 7c"));
  // ana As Kd (blackjack), rui Tc 8c (18), dealer 9h 5s then 7c = 21.
  ASSERT_TRUE(p.Act(3, Do(kStand)).ok());
  ASSERT_TRUE(p.finished());
  EXPECT_EQ(p.result().dealer_total.value, 21);
  EXPECT_EQ(BetOf(p.result(), 1, BetKind::kMain).outcome, Outcome::kBlackjack);
  EXPECT_EQ(BetOf(p.result(), 1, BetKind::kMain).returned, 2500);
  EXPECT_EQ(BetOf(p.result(), 3, BetKind::kMain).returned, 0);
}

TEST(Blackjack, BlackjackPaysThreeToTwoOddCentToPlayer_BJ_Decision) {
  Round even = MustStart(OneSeat("As 9h Kd 8s", 1000));
  ASSERT_TRUE(even.finished());  // nothing to decide on a blackjack
  EXPECT_EQ(BetOf(even.result(), 1, BetKind::kMain).returned, 2500);
  // 1001 x 3/2 = 1501.5: the half cent is paid up to the player.
  Round odd = MustStart(OneSeat("As 9h Kd 8s", 1001));
  EXPECT_EQ(BetOf(odd.result(), 1, BetKind::kMain).returned, 1001 + 1502);
  TableSettings six_five;
  six_five.blackjack_pays_num = 6;
  six_five.blackjack_pays_den = 5;
  Round r65 = MustStart(OneSeat("As 9h Kd 8s", 1001, six_five));
  EXPECT_EQ(BetOf(r65.result(), 1, BetKind::kMain).returned, 1001 + 1202);
}

TEST(Blackjack, SpecialPrizeSixSevenEightSuitedPaysThreeTimesOnTop_BJ_25i) {
  Round r = MustStart(OneSeat("6h 9c 7h Ts 8h"));  // dealer 19
  ASSERT_TRUE(r.Act(1, Do(kHit)).ok());
  const BetResult main = BetOf(r.result(), 1, BetKind::kMain);
  EXPECT_EQ(main.outcome, Outcome::kWon);
  EXPECT_EQ(main.prize, 3000);
  EXPECT_EQ(main.returned, 2000 + 3000);
  // Not of one suit: no prize.
  Round plain = MustStart(OneSeat("6h 9c 7h Ts 8d"));
  ASSERT_TRUE(plain.Act(1, Do(kHit)).ok());
  EXPECT_EQ(BetOf(plain.result(), 1, BetKind::kMain).prize, 0);
  EXPECT_EQ(BetOf(plain.result(), 1, BetKind::kMain).returned, 2000);
}

TEST(Blackjack, SpecialPrizeThreeSevensEvenOnAPush_BJ_25i) {
  // Dealer Td 4s draws 7c: 21, a push, and the prize on top.
  Round r = MustStart(OneSeat("7s Td 7h 4s 7d 7c"));
  ASSERT_TRUE(r.Act(1, Do(kHit)).ok());
  ASSERT_TRUE(r.finished());
  const BetResult main = BetOf(r.result(), 1, BetKind::kMain);
  EXPECT_EQ(main.outcome, Outcome::kPush);
  EXPECT_EQ(main.returned, 1000 + 3000);
}

TEST(Blackjack, SpecialPrizePaidEvenWhenTheComparisonIsLost_BJ_25i) {
  // "Sem prejuízo": without the peek a dealer blackjack beats the 21, and
  // the prize is still paid.
  Round r = MustStart(OneSeat("7s Kd 7h As 7d", 1000, NoPeek()));
  ASSERT_TRUE(r.Act(1, Do(kHit)).ok());
  const BetResult main = BetOf(r.result(), 1, BetKind::kMain);
  EXPECT_EQ(main.outcome, Outcome::kLost);
  EXPECT_EQ(main.returned, 3000);
}

TEST(Blackjack, SpecialPrizeOnADoubledHandCoversBothStakes_BJ_25i) {
  Round r = MustStart(OneSeat("6h 9c 7h Ts 8h"));
  ASSERT_TRUE(r.Act(1, Do(kDouble)).ok());
  EXPECT_EQ(BetOf(r.result(), 1, BetKind::kMain).returned, 5000);
  const BetResult dbl = BetOf(r.result(), 1, BetKind::kDouble);
  EXPECT_EQ(dbl.stake, 1000);
  EXPECT_EQ(dbl.prize, 3000);
  EXPECT_EQ(dbl.returned, 5000);
}

TEST(Blackjack, SpecialPrizeOnSplitHandsOnlyBySetting_BJ_25i_Decision) {
  // 7s 7h split; hand 1 draws 7d then 7c (three sevens), hand 2 draws Kd.
  const std::string deck = "7s 9c 7h Ts 7d 7c Kd";
  Round r = MustStart(OneSeat(deck));
  ASSERT_TRUE(r.Act(1, Do(kSplit)).ok());
  ASSERT_TRUE(r.Act(1, Do(kHit)).ok());    // hand 1: 7s 7d 7c = 21
  ASSERT_TRUE(r.Act(1, Do(kStand)).ok());  // hand 2: 7h Kd = 17
  EXPECT_EQ(BetOf(r.result(), 1, BetKind::kMain).prize, 0);
  EXPECT_EQ(BetOf(r.result(), 1, BetKind::kMain).returned, 2000);
  TableSettings extended;
  extended.special_prize_on_split_hands = true;
  Round x = MustStart(OneSeat(deck, 1000, extended));
  ASSERT_TRUE(x.Act(1, Do(kSplit)).ok());
  ASSERT_TRUE(x.Act(1, Do(kHit)).ok());
  ASSERT_TRUE(x.Act(1, Do(kStand)).ok());
  EXPECT_EQ(BetOf(x.result(), 1, BetKind::kMain).returned, 5000);
  EXPECT_EQ(BetOf(x.result(), 1, BetKind::kSplit, 2).returned, 0);
}

TEST(BlackjackVoid, SystemFailureRefundsEveryStake_BJ_27_BJ_28) {
  // ana 8s 8h against an ace: insures, splits, doubles hand 1, then the
  // system fails with hand 2 undecided.
  Round r = MustStart(OneSeat("8s As 8h 9d 3c Kd 2c"));
  ASSERT_TRUE(r.Act(1, Do(kInsurance, 500)).ok());
  ASSERT_TRUE(r.Act(1, Do(kSplit)).ok());
  ASSERT_TRUE(r.Act(1, Do(kDouble)).ok());  // 8s 3c Kd
  ASSERT_FALSE(r.finished());
  EXPECT_EQ(r.staked(), 3500);
  ASSERT_TRUE(r.Void().ok());
  ASSERT_TRUE(r.finished());
  EXPECT_TRUE(r.result().voided);
  ASSERT_EQ(r.result().bets.size(), 4u);
  for (const BetResult& b : r.result().bets) {
    EXPECT_EQ(b.outcome, Outcome::kVoid);
    EXPECT_EQ(b.returned, b.stake) << BetId(b.kind, b.hand);
  }
  EXPECT_EQ(r.result().staked, 3500);
  EXPECT_EQ(r.result().returned, 3500);
  // Nobody saw the hole card; a void does not show it.
  EXPECT_TRUE(r.ViewFor(1).hole_card_hidden);
  EXPECT_EQ(r.Void().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(BlackjackVoid, ShoeRunningOutVoidsTheRound_BJ_27) {
  Round r = MustStart(OneSeat("Td 9h 2c 8s"));
  ASSERT_TRUE(r.Act(1, Do(kHit)).ok());
  ASSERT_TRUE(r.finished());
  EXPECT_TRUE(r.result().voided);
  EXPECT_EQ(r.result().void_reason, "the shoe ran out");
  EXPECT_EQ(BetOf(r.result(), 1, BetKind::kMain).returned, 1000);
}

TEST(Blackjack, DeckOrderSeatsUpSecondHoleThenDrawsInPlayOrder_Scenarios) {
  // ana: 8s 8h; rui: Tc 5d; dealer: 6h (up), Ts (hole).
  // ana splits: hand 1 takes 2c then hits 9d; hand 2 takes 3c, stands;
  // rui hits 4h; the dealer draws 7s (16 + 7 = 23).
  Round r = MustStart(TwoSeats("8s Tc 6h 8h 5d Ts 2c 9d 3c 4h 7s"));
  ASSERT_TRUE(r.Act(1, Do(kSplit)).ok());
  ASSERT_TRUE(r.Act(1, Do(kHit)).ok());
  ASSERT_TRUE(r.Act(1, Do(kStand)).ok());
  ASSERT_TRUE(r.Act(1, Do(kStand)).ok());
  ASSERT_TRUE(r.Act(3, Do(kHit)).ok());
  ASSERT_TRUE(r.Act(3, Do(kStand)).ok());
  ASSERT_TRUE(r.finished());
  const RoundResult& res = r.result();
  EXPECT_EQ(res.cards_used, 11);
  EXPECT_EQ(res.dealer_cards, Shoe("6h Ts 7s"));
  ASSERT_EQ(res.seats[0].hands.size(), 2u);
  EXPECT_EQ(res.seats[0].hands[0].cards, Shoe("8s 2c 9d"));
  EXPECT_EQ(res.seats[0].hands[1].cards, Shoe("8h 3c"));
  EXPECT_EQ(res.seats[1].hands[0].cards, Shoe("Tc 5d 4h"));
  EXPECT_EQ(BetOf(res, 1, BetKind::kMain).returned, 2000);
  EXPECT_EQ(BetOf(res, 1, BetKind::kSplit, 2).returned, 2000);
  EXPECT_EQ(BetOf(res, 3, BetKind::kMain).returned, 4000);
}

TEST(BlackjackRules, DealerStandsOnSoft17UnlessSet_BJ_Decision) {
  Round s17 = MustStart(OneSeat("Td 6h 8c As 4d"));  // dealer soft 17
  ASSERT_TRUE(s17.Act(1, Do(kStand)).ok());
  EXPECT_EQ(s17.result().dealer_cards.size(), 2u);
  EXPECT_EQ(BetOf(s17.result(), 1, BetKind::kMain).outcome, Outcome::kWon);
  TableSettings h17;
  h17.dealer_hits_soft_17 = true;
  Round hit = MustStart(OneSeat("Td 6h 8c As 4d", 1000, h17));
  ASSERT_TRUE(hit.Act(1, Do(kStand)).ok());
  EXPECT_EQ(hit.result().dealer_total.value, 21);
  EXPECT_EQ(BetOf(hit.result(), 1, BetKind::kMain).outcome, Outcome::kLost);
  // Hard 17 stands either way.
  Round hard = MustStart(OneSeat("Td Th 8c 7s 4d", 1000, h17));
  ASSERT_TRUE(hard.Act(1, Do(kStand)).ok());
  EXPECT_EQ(hard.result().dealer_cards.size(), 2u);
}

TEST(BlackjackRules, DoubleOnFirstTwoCardsOneCardOnly_BJ_Decision) {
  Round r = MustStart(OneSeat("5d 9h 6c 8s Kd"));  // 11 doubles: 21
  EXPECT_TRUE(r.legal().can_double);
  EXPECT_EQ(r.legal().double_amount, 1000);
  ExpectRejected(r, 1, Do(kDouble, 999), absl::StatusCode::kInvalidArgument,
                 "must equal the hand's stake (1000)");
  ASSERT_TRUE(r.Act(1, Do(kDouble, 1000)).ok());
  ASSERT_TRUE(r.finished());
  EXPECT_EQ(BetOf(r.result(), 1, BetKind::kMain).returned, 2000);
  EXPECT_EQ(BetOf(r.result(), 1, BetKind::kDouble).returned, 2000);
  EXPECT_EQ(r.result().seats[0].hands[0].cards.size(), 3u);

  Round after_hit = MustStart(OneSeat("2d 9h 3c 8s 4d 5c"));
  ASSERT_TRUE(after_hit.Act(1, Do(kHit)).ok());
  ExpectRejected(after_hit, 1, Do(kDouble), absl::StatusCode::kInvalidArgument,
                 "double only on the first two cards");
}

TEST(BlackjackRules, DoubleOnlyOnNineToElevenBySetting_BJ_Decision) {
  TableSettings s;
  s.double_on = DoubleOn::kNineToEleven;
  Round r = MustStart(OneSeat("8d 9h 4c 8s", 1000, s));  // 12
  EXPECT_FALSE(r.legal().can_double);
  ExpectRejected(r, 1, Do(kDouble), absl::StatusCode::kInvalidArgument,
                 "doubles only on 9, 10 or 11, not 12");
  s.double_on = DoubleOn::kTenOrEleven;
  Round nine = MustStart(OneSeat("5d 9h 4c 8s", 1000, s));
  ExpectRejected(nine, 1, Do(kDouble), absl::StatusCode::kInvalidArgument,
                 "doubles only on 10 or 11, not 9");
}

TEST(BlackjackRules, SplitEqualCardsUpToFourHands_BJ_Decision) {
  // 8s 8h, then 8d, 8c come: split to four hands, a fifth is refused.
  Round r = MustStart(OneSeat("8s 9h 8h 7s 8d 8c 8c 2h 3h 4h 5h"));
  ExpectRejected(r, 1, Do(kSplit, 5), absl::StatusCode::kInvalidArgument,
                 "must equal the hand's stake");
  ASSERT_TRUE(r.Act(1, Do(kSplit)).ok());  // hand 1: 8s 8d
  ASSERT_TRUE(r.Act(1, Do(kSplit)).ok());  // hand 1: 8s 8c; hand 3: 8d
  ASSERT_TRUE(r.Act(1, Do(kSplit)).ok());  // hand 1: 8s 8c; hand 4: 8c
  const SeatState* s = r.seat_state(1);
  ASSERT_EQ(s->hands.size(), 4u);
  EXPECT_FALSE(r.legal().can_split);
  ExpectRejected(r, 1, Do(kSplit), absl::StatusCode::kInvalidArgument,
                 "at most 4 hands");
  // Play order: 1, then the newest split first (4, 3), then 2.
  std::vector<int> order;
  for (const PlayerHand& h : s->hands) order.push_back(h.number);
  EXPECT_EQ(order, (std::vector<int>{1, 4, 3, 2}));
}

TEST(BlackjackRules, CannotSplitUnequalCards_BJ_Decision) {
  Round r = MustStart(OneSeat("7h 9h 8d 7s"));
  EXPECT_FALSE(r.legal().can_split);
  ExpectRejected(r, 1, Do(kSplit), absl::StatusCode::kInvalidArgument,
                 "cannot split unequal cards (7h 8d)");
  // Ten-value cards split by value by default, only equal ranks by setting.
  Round tens = MustStart(OneSeat("Kd 9h Qs 7s"));
  EXPECT_TRUE(tens.legal().can_split);
  TableSettings ranks;
  ranks.split_tens_by_value = false;
  Round strict = MustStart(OneSeat("Kd 9h Qs 7s", 1000, ranks));
  ExpectRejected(strict, 1, Do(kSplit), absl::StatusCode::kInvalidArgument,
                 "cannot split unequal cards (Kd Qs)");
}

TEST(BlackjackRules, SplitAcesTakeOneCardEachNotBlackjack_BJ_Decision) {
  // A A split against a 9: hand 1 takes Kd (21, paid 1:1, not 3:2), hand 2
  // takes 5c and stands at 16; the dealer has 19.
  Round r = MustStart(OneSeat("As 9h Ah Ts Kd 5c"));
  ASSERT_TRUE(r.Act(1, Do(kSplit)).ok());
  ASSERT_TRUE(r.finished());  // no decision on split aces
  const BetResult h1 = BetOf(r.result(), 1, BetKind::kMain);
  EXPECT_EQ(h1.outcome, Outcome::kWon);
  EXPECT_EQ(h1.returned, 2000);
  EXPECT_FALSE(r.result().seats[0].hands[0].blackjack);
  EXPECT_EQ(BetOf(r.result(), 1, BetKind::kSplit, 2).returned, 0);
  // A third ace is not split again by default, nor hit.
  Round three = MustStart(OneSeat("As 9h Ah Ts Ad 5c"));
  ASSERT_TRUE(three.Act(1, Do(kSplit)).ok());
  EXPECT_TRUE(three.finished());
  TableSettings rsa;
  rsa.resplit_aces = true;
  Round again = MustStart(OneSeat("As 9h Ah Ts Ad 5c 6c 7c", 1000, rsa));
  ASSERT_TRUE(again.Act(1, Do(kSplit)).ok());
  ASSERT_FALSE(again.finished());
  EXPECT_TRUE(again.legal().can_split);
  EXPECT_FALSE(again.legal().can_hit);
  ExpectRejected(again, 1, Do(kHit), absl::StatusCode::kInvalidArgument,
                 "split aces take one card each");
  ExpectRejected(again, 1, Do(kDouble), absl::StatusCode::kInvalidArgument,
                 "split aces take one card each");
  ASSERT_TRUE(again.Act(1, Do(kSplit)).ok());
  ASSERT_TRUE(again.finished());
  EXPECT_EQ(again.result().seats[0].hands.size(), 3u);
}

TEST(BlackjackRules, DoubleAfterSplitBySetting_BJ_Decision) {
  const std::string deck = "8s 6h 8h 7s 3c 2c Kd 9d";
  Round das = MustStart(OneSeat(deck));
  ASSERT_TRUE(das.Act(1, Do(kSplit)).ok());  // hand 1: 8s 3c = 11
  EXPECT_TRUE(das.legal().can_double);
  TableSettings no_das;
  no_das.double_after_split = false;
  Round r = MustStart(OneSeat(deck, 1000, no_das));
  ASSERT_TRUE(r.Act(1, Do(kSplit)).ok());
  EXPECT_FALSE(r.legal().can_double);
  ExpectRejected(r, 1, Do(kDouble), absl::StatusCode::kInvalidArgument,
                 "does not allow doubling after a split");
}

TEST(BlackjackRules, LateSurrenderReturnsHalfBySetting_BJ_Decision) {
  Round none = MustStart(OneSeat("Td Th 6c 7s"));
  ExpectRejected(none, 1, Do(kSurrender), absl::StatusCode::kInvalidArgument,
                 "does not offer surrender");
  TableSettings late;
  late.surrender = Surrender::kLate;
  // 1001 cents: half is 500.5; the odd cent stays with the player.
  Round r = MustStart(OneSeat("Td Th 6c 7s", 1001, late));
  ExpectRejected(r, 1, Do(kSurrender, 10), absl::StatusCode::kInvalidArgument,
                 "surrender takes no amount");
  ASSERT_TRUE(r.Act(1, Do(kSurrender)).ok());
  ASSERT_TRUE(r.finished());
  const BetResult main = BetOf(r.result(), 1, BetKind::kMain);
  EXPECT_EQ(main.outcome, Outcome::kSurrendered);
  EXPECT_EQ(main.returned, 501);
  // Not after a hit, not after a split.
  Round hit = MustStart(OneSeat("2d Th 3c 7s 4d 9c", 1000, late));
  ASSERT_TRUE(hit.Act(1, Do(kHit)).ok());
  ExpectRejected(hit, 1, Do(kSurrender), absl::StatusCode::kInvalidArgument,
                 "first two cards of an unsplit hand");
  Round split = MustStart(OneSeat("8d Th 8c 7s 4d 9c", 1000, late));
  ASSERT_TRUE(split.Act(1, Do(kSplit)).ok());
  ExpectRejected(split, 1, Do(kSurrender), absl::StatusCode::kInvalidArgument,
                 "first two cards of an unsplit hand");
}

TEST(BlackjackRules, PeekEndsTheRoundBeforeDoublesAndSplits_BJ_Decision) {
  // With the peek a dealer blackjack under a ten ends the round at the
  // deal: only the main bet is lost.
  Round peek = MustStart(OneSeat("5d Kh 6c As"));
  ASSERT_TRUE(peek.finished());
  EXPECT_EQ(peek.result().staked, 1000);
  // Without it the player doubles 11 and loses both stakes at the end.
  Round no = MustStart(OneSeat("5d Kh 6c As 9d", 1000, NoPeek()));
  ASSERT_FALSE(no.finished());
  ASSERT_TRUE(no.Act(1, Do(kDouble)).ok());
  ASSERT_TRUE(no.finished());
  EXPECT_EQ(no.result().staked, 2000);
  EXPECT_EQ(no.result().returned, 0);
  // A peek that finds nothing lets play go on.
  Round miss = MustStart(OneSeat("5d Kh 6c 7s"));
  EXPECT_FALSE(miss.finished());
  bool checked = false;
  for (const Event& e : miss.events()) {
    if (const auto* c = std::get_if<DealerChecked>(&e)) {
      checked = true;
      EXPECT_FALSE(c->blackjack);
    }
  }
  EXPECT_TRUE(checked);
}

TEST(BlackjackRules, NoInsuranceOfferWhenTheTableHasNone_BJ_Decision) {
  TableSettings s;
  s.insurance = false;
  Round r = MustStart(OneSeat("Td As 9c 7h", 1000, s));
  EXPECT_EQ(r.phase(), Phase::kPlayers);
  ExpectRejected(r, 1, Do(kInsurance, 100),
                 absl::StatusCode::kFailedPrecondition,
                 "insurance is offered only before play");
}

TEST(BlackjackView, HoleCardHiddenUntilRevealed_DESIGN7) {
  Round r = MustStart(OneSeat("Td 9h 8c Ts"));
  for (int seat : {0, 1, 2}) {
    const RoundView v = r.ViewFor(seat);
    EXPECT_TRUE(v.hole_card_hidden);
    EXPECT_EQ(v.dealer_cards, Shoe("9h"));
  }
  for (const Event& e : r.events()) {
    EXPECT_FALSE(std::holds_alternative<HoleCardRevealed>(e));
  }
  EXPECT_EQ(r.ViewFor(1).to_act.seat, 1);
  EXPECT_TRUE(r.ViewFor(1).to_act.can_hit);
  EXPECT_FALSE(r.ViewFor(0).to_act.can_hit);  // only the seat to act
  ASSERT_TRUE(r.Act(1, Do(kStand)).ok());
  const RoundView after = r.ViewFor(0);
  EXPECT_FALSE(after.hole_card_hidden);
  EXPECT_EQ(after.dealer_cards, Shoe("9h Ts"));
}

TEST(BlackjackTurns, OutOfTurnAndFinishedRoundAreRejected) {
  Round r = MustStart(TwoSeats("Td Tc 9h 8c 9d 7s 2c"));
  ExpectRejected(r, 3, Do(kStand), absl::StatusCode::kFailedPrecondition,
                 "not rui's turn");
  ExpectRejected(r, 2, Do(kStand), absl::StatusCode::kFailedPrecondition,
                 "seat 2 has no bet in this round");
  ExpectRejected(r, 1, Do(kHit, 5), absl::StatusCode::kInvalidArgument,
                 "hit takes no amount");
  EXPECT_EQ(r.Timeout(3).code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(r.Act(1, Do(kStand)).ok());
  ASSERT_TRUE(r.Act(3, Do(kStand)).ok());
  ASSERT_TRUE(r.finished());
  ExpectRejected(r, 3, Do(kStand), absl::StatusCode::kFailedPrecondition,
                 "the round is over");
}

TEST(BlackjackTurns, TimeoutDeclinesInsuranceAndStands) {
  Round r = MustStart(OneSeat("Td As 9c 7h"));
  ASSERT_TRUE(r.Timeout(1).ok());
  EXPECT_EQ(r.phase(), Phase::kPlayers);
  ASSERT_TRUE(r.Timeout(1).ok());
  ASSERT_TRUE(r.finished());
  EXPECT_EQ(r.result().staked, 1000);
  EXPECT_EQ(BetOf(r.result(), 1, BetKind::kMain).returned, 2000);  // 19 v 18
}

TEST(BlackjackSetup, BadSetupsAreRejected) {
  auto code = [](const RoundSetup& s) { return Round::Start(s).status(); };
  EXPECT_EQ(code(OneSeat("Td 9h 8c")).code(),
            absl::StatusCode::kInvalidArgument);  // deck too short
  TableSettings one_deck;
  one_deck.decks = 1;
  const absl::Status dup = code(OneSeat("Td 9h Td 8c", 1000, one_deck));
  EXPECT_EQ(dup.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(dup.message().find("Td appears more than 1 times"),
            absl::string_view::npos)
      << dup;
  EXPECT_TRUE(code(OneSeat("Td 9h Td 8c")).ok());  // six decks: fine
  EXPECT_EQ(code(OneSeat("Td 9h 8c 7s", 99)).code(),
            absl::StatusCode::kInvalidArgument);  // under min_bet
  EXPECT_EQ(code(OneSeat("Td 9h 8c 7s", 100'001)).code(),
            absl::StatusCode::kInvalidArgument);  // over max_bet
  RoundSetup unsorted = TwoSeats("Td Tc 9h 8c 9d 7s");
  std::swap(unsorted.bets[0], unsorted.bets[1]);
  EXPECT_EQ(code(unsorted).code(), absl::StatusCode::kInvalidArgument);
  RoundSetup far = OneSeat("Td 9h 8c 7s");
  far.bets[0].seat = 8;
  EXPECT_EQ(code(far).code(), absl::StatusCode::kInvalidArgument);
  RoundSetup none = OneSeat("Td 9h 8c 7s");
  none.bets.clear();
  EXPECT_EQ(code(none).code(), absl::StatusCode::kInvalidArgument);
  RoundSetup nameless = OneSeat("Td 9h 8c 7s");
  nameless.bets[0].player.clear();
  EXPECT_EQ(code(nameless).code(), absl::StatusCode::kInvalidArgument);
}

TEST(BlackjackReplay, ReplayEqualsLive) {
  Round r = MustStart(TwoSeats("8s Tc 6h 8h 5d Ts 2c 9d 3c 4h 7s"));
  ASSERT_TRUE(r.Act(1, Do(kSplit)).ok());
  ASSERT_TRUE(r.Act(1, Do(kHit)).ok());
  ASSERT_TRUE(r.Timeout(1).ok());
  ASSERT_TRUE(r.Act(1, Do(kStand)).ok());
  ASSERT_TRUE(r.Act(3, Do(kHit)).ok());
  ASSERT_TRUE(r.Act(3, Do(kStand)).ok());
  absl::StatusOr<RoundResult> replayed = Round::Replay(r.record());
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_EQ(*replayed, r.result());
}

}  // namespace
}  // namespace banca::games::blackjack
