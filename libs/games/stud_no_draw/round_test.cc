#include "libs/games/stud_no_draw/round.h"

#include <string>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/test_util.h"
#include "libs/games/stud_no_draw/test_util.h"

namespace banca::games::stud_no_draw {
namespace {

using cards::Card;
using cards::Cards;

TableConfig Config(int seats = 7) {
  TableConfig c;
  c.seats = seats;
  c.min_ante = 100;
  c.max_ante = 2500;
  c.decision_ms = 20'000;
  c.extra_ms = 10'000;
  return c;
}

Round Open(const TableConfig& config = Config()) {
  absl::StatusOr<Round> r = Round::Open(config, 1);
  EXPECT_TRUE(r.ok()) << r.status();
  return *std::move(r);
}

template <typename T>
std::vector<T> All(const std::vector<Event>& events) {
  std::vector<T> out;
  for (const Event& e : events) {
    if (const T* t = std::get_if<T>(&e)) out.push_back(*t);
  }
  return out;
}

const SeatResult& ResultOf(const Round& r, int seat) {
  for (const SeatResult& s : r.result().seats) {
    if (s.seat == seat) return s;
  }
  ADD_FAILURE() << "no result for seat " << seat;
  static const SeatResult kNone;
  return kNone;
}

// A rejected call must leave the round exactly as it was.
void ExpectRejected(Round& r, absl::Status status, absl::StatusCode code,
                    size_t events_before) {
  EXPECT_EQ(status.code(), code) << status;
  EXPECT_EQ(r.events().size(), events_before);
}

// Three players: ana (seat 1) a pair, rui (seat 3) high cards, eva (seat
// 5) a flush; the bank A-K and the 5s face up. Burn card 2c.
constexpr std::string_view kAna = "Qh Qs 5c 7s 6c";
constexpr std::string_view kRui = "Jd 9c 8h 4d 3h";
constexpr std::string_view kEva = "Td 8d 2d 6d Kd";
constexpr std::string_view kBank = "Ad Kc 4h 3s 5s";

Round ThreeDealt() {
  Round r = Open();
  EXPECT_TRUE(r.PlaceAnte(1, "ana", 100).ok());
  EXPECT_TRUE(r.PlaceAnte(3, "rui", 200).ok());
  EXPECT_TRUE(r.PlaceAnte(5, "eva", 100).ok());
  EXPECT_TRUE(r.Deal(DeckFor("2c", {kAna, kRui, kEva}, kBank), 1000).ok());
  return r;
}

TEST(StudNoDrawRound, AnteWithinTableLimits_SD_16) {
  Round r = Open();
  EXPECT_TRUE(r.PlaceAnte(1, "ana", 100).ok());
  EXPECT_TRUE(r.PlaceAnte(2, "rui", 2500).ok());
  ExpectRejected(r, r.PlaceAnte(3, "eva", 99),
                 absl::StatusCode::kInvalidArgument, 2);
  EXPECT_EQ(r.PlaceAnte(3, "eva", 2501),
            absl::InvalidArgumentError("ante must be 100..2500 (SD-16), got "
                                       "2501"));
  EXPECT_EQ(r.events().size(), 2u);
  EXPECT_EQ(r.SeatsInRound(), (std::vector<int>{1, 2}));
}

TEST(StudNoDrawRound, AnteBadInputChangesNothing) {
  Round r = Open(Config(3));
  ExpectRejected(r, r.PlaceAnte(0, "ana", 100),
                 absl::StatusCode::kInvalidArgument, 0);
  ExpectRejected(r, r.PlaceAnte(4, "ana", 100),
                 absl::StatusCode::kInvalidArgument, 0);
  ExpectRejected(r, r.PlaceAnte(1, "", 100), absl::StatusCode::kInvalidArgument,
                 0);
  ASSERT_TRUE(r.PlaceAnte(1, "ana", 100).ok());
  EXPECT_EQ(r.PlaceAnte(1, "ana", 100),
            absl::FailedPreconditionError("seat 1 already has an ante this "
                                          "round"));
  EXPECT_EQ(r.StakeOf(1), 100);
  EXPECT_EQ(Round::Open(Config(), 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  TableConfig bad = Config();
  bad.seats = 8;
  EXPECT_EQ(Round::Open(bad, 1).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(StudNoDrawRound, BurnThenOneCardEachSeatAndBankFiveTimes_SD_19) {
  Round r = Open();
  ASSERT_TRUE(r.PlaceAnte(2, "ana", 100).ok());
  ASSERT_TRUE(r.PlaceAnte(6, "rui", 100).ok());
  // Top first: burn, then seat 2, seat 6, bank, five times.
  const std::vector<Card> deck =
      Cards("2c  As Ks Qs  Ah Kh Qh  Ad Kd Qd  Ac Kc Qc  Js Jh Jd  9c");
  ASSERT_TRUE(r.Deal(deck, 0).ok());
  const std::vector<CardsDealt> dealt = All<CardsDealt>(r.events());
  ASSERT_EQ(dealt.size(), 2u);
  EXPECT_EQ(dealt[0].seat, 2);
  EXPECT_EQ(dealt[0].cards, HandOf("As Ah Ad Ac Js"));
  EXPECT_EQ(dealt[1].seat, 6);
  EXPECT_EQ(dealt[1].cards, HandOf("Ks Kh Kd Kc Jh"));
  // c) the bank's last card face up.
  const std::vector<BankUpCard> up = All<BankUpCard>(r.events());
  ASSERT_EQ(up.size(), 1u);
  EXPECT_EQ(up[0].card, Cards("Jd")[0]);
  EXPECT_EQ(r.ViewFor(0).bank_up, Cards("Jd")[0]);
  EXPECT_FALSE(r.ViewFor(0).bank.has_value());
  EXPECT_EQ(CardsNeeded(2), 16);
  // a) the burn card is never shown, to anybody, even after the round.
  ASSERT_TRUE(r.Fold(2).ok());
  ASSERT_TRUE(r.Fold(6).ok());
  const Card burn = Cards("2c")[0];
  for (const Event& e : r.events()) {
    if (const auto* d = std::get_if<CardsDealt>(&e)) {
      for (Card c : d->cards) EXPECT_NE(c, burn);
    }
    if (const auto* b = std::get_if<BankRevealed>(&e)) {
      EXPECT_EQ(b->cards, HandOf("Qs Qh Qd Qc Jd"));
      for (Card c : b->cards) EXPECT_NE(c, burn);
    }
  }
}

TEST(StudNoDrawRound, DealBadInputChangesNothing) {
  Round r = Open();
  ExpectRejected(r, r.Deal(cards::StandardDeck(), 0),
                 absl::StatusCode::kFailedPrecondition, 0);
  ASSERT_TRUE(r.PlaceAnte(1, "ana", 100).ok());
  // 1 player needs 1 + 5 × 2 = 11 cards.
  EXPECT_EQ(r.Deal(Cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"), 0),
            absl::InvalidArgumentError(
                "deck has 10 cards; 1 seat and the bank need 11 (SD-19)"));
  std::vector<Card> dup = Cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc");
  dup.back() = dup.front();
  EXPECT_EQ(r.Deal(dup, 0), absl::InvalidArgumentError("deck repeats 2c"));
  std::vector<Card> big = cards::StandardDeck();
  big.push_back(big.front());
  EXPECT_EQ(r.Deal(big, 0).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.Deal(cards::StandardDeck(), -1).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.phase(), Phase::kBetting);
  EXPECT_EQ(r.events().size(), 1u);
  ASSERT_TRUE(r.Deal(cards::StandardDeck(), 0).ok());
  ExpectRejected(r, r.Deal(cards::StandardDeck(), 0),
                 absl::StatusCode::kFailedPrecondition, r.events().size());
}

TEST(StudNoDrawRound, BetsCloseWhenTheCardsAreDealt_SD_14) {
  Round r = ThreeDealt();
  const std::vector<BettingClosed> closed = All<BettingClosed>(r.events());
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0].seats, (std::vector<int>{1, 3, 5}));
  EXPECT_EQ(closed[0].at_ms, 1000);
  const size_t n = r.events().size();
  EXPECT_EQ(r.PlaceAnte(2, "ivo", 100),
            absl::FailedPreconditionError("round 1: bets are closed (SD-14)"));
  EXPECT_EQ(r.events().size(), n);
  EXPECT_FALSE(r.ViewFor(2).can_ante);
}

TEST(StudNoDrawRound, IndividualTableDealsAfterTheAnte_SD_15) {
  Round r = Open(Config(1));
  ASSERT_TRUE(r.PlaceAnte(1, "ana", 100).ok());
  ASSERT_TRUE(r.Deal(DeckFor("2c", {kAna}, kBank), 0).ok());
  EXPECT_EQ(r.phase(), Phase::kDecisions);
  ASSERT_TRUE(r.Continue(1).ok());
  EXPECT_TRUE(r.finished());
  EXPECT_EQ(ResultOf(r, 1).settlement.outcome, Outcome::kWon);
}

TEST(StudNoDrawRound, FoldOrContinueAfterSeeingTheCards_SD_20_SD_30) {
  Round r = ThreeDealt();
  const RoundView v = r.ViewFor(1);
  EXPECT_TRUE(v.can_fold);
  EXPECT_TRUE(v.can_continue);
  EXPECT_FALSE(v.can_ante);
  EXPECT_EQ(v.continue_bet, 200);
  EXPECT_EQ(v.deadline_ms, 21'000);  // SD-21: from the deal.
  EXPECT_FALSE(v.warned);
  ASSERT_TRUE(r.Fold(1).ok());
  EXPECT_FALSE(r.ViewFor(1).can_fold);
  EXPECT_EQ(r.Continue(1), absl::FailedPreconditionError("seat 1 already "
                                                         "folded"));
  EXPECT_EQ(r.Fold(2),
            absl::FailedPreconditionError("seat 2 is not dealt in round 1"));
  EXPECT_EQ(r.Fold(9).code(), absl::StatusCode::kInvalidArgument);
}

TEST(StudNoDrawRound, DecisionsBeforeTheDealRejected) {
  Round r = Open();
  ASSERT_TRUE(r.PlaceAnte(1, "ana", 100).ok());
  EXPECT_EQ(r.Continue(1),
            absl::FailedPreconditionError("round 1: cards not dealt yet"));
  EXPECT_EQ(r.Timeout(1, 0).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(r.events().size(), 1u);
}

TEST(StudNoDrawRound, FolderLosesTheAnteAndTheCardsAreCollected_SD_22) {
  Round r = ThreeDealt();
  ASSERT_TRUE(r.Fold(1).ok());
  ASSERT_TRUE(r.Continue(3).ok());
  ASSERT_TRUE(r.Continue(5).ok());
  ASSERT_TRUE(r.finished());
  const SeatResult& ana = ResultOf(r, 1);
  EXPECT_EQ(ana.settlement.outcome, Outcome::kFolded);
  EXPECT_EQ(ana.settlement.ante, (BetSettlement{100, 0}));
  EXPECT_EQ(ana.fold_cause, FoldCause::kPlayer);
  // The folded hand is never turned: no HandShown, hidden from others.
  for (const HandShown& h : All<HandShown>(r.events())) EXPECT_NE(h.seat, 1);
  EXPECT_FALSE(r.ViewFor(3).seats[0].cards.has_value());
  EXPECT_TRUE(r.ViewFor(1).seats[0].cards.has_value());
}

TEST(StudNoDrawRound, ContinuingBetsDoubleTheAnte_SD_23_SD_2f) {
  Round r = ThreeDealt();
  ASSERT_TRUE(r.Continue(3).ok());
  const std::vector<Continued> c = All<Continued>(r.events());
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].seat, 3);
  EXPECT_EQ(c[0].bet, 400);
  EXPECT_EQ(r.StakeOf(3), 600);
}

TEST(StudNoDrawRound, BankShownOnlyOnceEveryDecisionIsIn_SD_24_Gap10) {
  Round r = ThreeDealt();
  ASSERT_TRUE(r.Continue(1).ok());
  // Eva has not decided: nobody sees the bank's hidden cards yet.
  EXPECT_TRUE(All<BankRevealed>(r.events()).empty());
  for (int viewer : {0, 1, 3, 5}) {
    EXPECT_FALSE(r.ViewFor(viewer).bank.has_value());
  }
  ASSERT_TRUE(r.Continue(3).ok());
  ASSERT_TRUE(r.Fold(5).ok());
  const std::vector<BankRevealed> shown = All<BankRevealed>(r.events());
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_EQ(shown[0].cards, HandOf(kBank));
  EXPECT_TRUE(shown[0].qualifies);
  EXPECT_EQ(r.ViewFor(5).bank, HandOf(kBank));
}

TEST(StudNoDrawRound, BankRevealedEvenWhenAllFold_Gap10) {
  Round r = ThreeDealt();
  ASSERT_TRUE(r.Fold(1).ok());
  ASSERT_TRUE(r.Fold(3).ok());
  ASSERT_TRUE(r.Fold(5).ok());
  EXPECT_EQ(All<BankRevealed>(r.events()).size(), 1u);
  EXPECT_TRUE(All<HandShown>(r.events()).empty());
  EXPECT_EQ(r.result().house_net(), 400);
}

TEST(StudNoDrawRound, BankPlaysOnlyWithAceKingOrBetter_SD_25_SD_26) {
  Round r = Open(Config(2));
  ASSERT_TRUE(r.PlaceAnte(1, "ana", 100).ok());
  ASSERT_TRUE(r.PlaceAnte(2, "rui", 100).ok());
  // The bank holds A-Q-J-9-8: it does not play.
  ASSERT_TRUE(r.Deal(DeckFor("2c", {"Kh 7d 5c 4s 2h", "Qh Qs 3c 7s 6c"},
                             "As Qd Jc 9h 8c"),
                     0)
                  .ok());
  ASSERT_TRUE(r.Continue(1).ok());
  ASSERT_TRUE(r.Continue(2).ok());
  EXPECT_FALSE(r.result().bank_qualifies);
  for (int seat : {1, 2}) {
    const SeatSettlement& s = ResultOf(r, seat).settlement;
    EXPECT_EQ(s.outcome, Outcome::kBankNotQualify);
    EXPECT_EQ(s.ante, (BetSettlement{100, 200}));
    EXPECT_EQ(s.bet, (BetSettlement{200, 200}));
  }
  // The round ends without turning the players' cards (SD-26 vs SD-27).
  EXPECT_TRUE(All<HandShown>(r.events()).empty());
  EXPECT_FALSE(r.ViewFor(2).seats[0].cards.has_value());
  EXPECT_EQ(r.result().house_net(), -200);
}

TEST(StudNoDrawRound, CardsTurnedAndComparedWhenTheBankPlays_SD_27) {
  Round r = ThreeDealt();
  ASSERT_TRUE(r.Continue(1).ok());
  ASSERT_TRUE(r.Fold(3).ok());
  ASSERT_TRUE(r.Continue(5).ok());
  const std::vector<HandShown> shown = All<HandShown>(r.events());
  ASSERT_EQ(shown.size(), 2u);
  EXPECT_EQ(shown[0].seat, 1);
  EXPECT_EQ(shown[1].seat, 5);
  EXPECT_EQ(r.ViewFor(3).seats[0].cards, HandOf(kAna));
  EXPECT_EQ(r.ViewFor(3).seats[2].cards, HandOf(kEva));
}

TEST(StudNoDrawRound, EachPlayerAgainstTheBankSameResult_SD_5_SD_28_SD_29) {
  Round r = Open(Config(3));
  ASSERT_TRUE(r.PlaceAnte(1, "ana", 100).ok());
  ASSERT_TRUE(r.PlaceAnte(2, "rui", 200).ok());
  ASSERT_TRUE(r.PlaceAnte(3, "eva", 100).ok());
  // Bank: a pair of eights. Ana trips (3 × bet), rui high cards (loses),
  // eva the same pair and kickers as the bank (push).
  ASSERT_TRUE(
      r.Deal(
           DeckFor("2c", {"Kc Kd Kh 4s 2d", "Ac Jd 9h 6s 3c", "8c 8d Qs 7s 5c"},
                   "8h 8s Qh 7d 5d"),
           0)
          .ok());
  for (int seat : {1, 2, 3}) ASSERT_TRUE(r.Continue(seat).ok());
  const SeatSettlement& ana = ResultOf(r, 1).settlement;
  EXPECT_EQ(ana.outcome, Outcome::kWon);
  EXPECT_EQ(ana.ante, (BetSettlement{100, 200}));
  EXPECT_EQ(ana.bet, (BetSettlement{200, 800}));
  const SeatSettlement& rui = ResultOf(r, 2).settlement;
  EXPECT_EQ(rui.outcome, Outcome::kLost);
  EXPECT_EQ(rui.returned(), 0);
  EXPECT_EQ(ResultOf(r, 3).settlement.outcome, Outcome::kPush);
  EXPECT_EQ(r.result().staked, 300 + 600 + 300);
  EXPECT_EQ(r.result().returned, 1000 + 0 + 300);
  // One SeatSettled per seat, ascending, then RoundFinished.
  const std::vector<SeatSettled> settled = All<SeatSettled>(r.events());
  ASSERT_EQ(settled.size(), 3u);
  EXPECT_EQ(settled[1].player, "rui");
  ASSERT_TRUE(std::holds_alternative<RoundFinished>(r.events().back()));
}

TEST(StudNoDrawRound, TimeoutWarnsAndGivesSupplementaryTime_SD_31) {
  Round r = ThreeDealt();
  ASSERT_TRUE(r.Timeout(1, 21'000).ok());
  const std::vector<DecisionWarned> w = All<DecisionWarned>(r.events());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].seat, 1);
  EXPECT_EQ(w[0].deadline_ms, 31'000);
  const RoundView v = r.ViewFor(1);
  EXPECT_TRUE(v.warned);
  EXPECT_TRUE(v.can_continue);  // Still free to decide.
  EXPECT_EQ(v.deadline_ms, 31'000);
  // The warning goes to its player only.
  EXPECT_TRUE(All<DecisionWarned>(r.EventsFor(3)).empty());
  ASSERT_TRUE(r.Continue(1).ok());
}

TEST(StudNoDrawRound, NoDecisionInTheSupplementaryTimeFolds_SD_32) {
  Round r = ThreeDealt();
  ASSERT_TRUE(r.Timeout(1, 21'000).ok());
  ASSERT_TRUE(r.Timeout(1, 31'000).ok());
  const std::vector<Folded> f = All<Folded>(r.events());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].cause, FoldCause::kTimeout);
  EXPECT_EQ(r.Continue(1).code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(r.Fold(3).ok());
  ASSERT_TRUE(r.Fold(5).ok());
  EXPECT_EQ(ResultOf(r, 1).settlement.ante, (BetSettlement{100, 0}));
}

TEST(StudNoDrawRound, TheClockWarnsThenFolds_SD_21_SD_31_SD_32) {
  Round r = ThreeDealt();  // Dealt at 1,000 ms: decide by 21,000.
  ASSERT_TRUE(r.Continue(3).ok());
  ASSERT_TRUE(r.Tick(20'999).ok());
  EXPECT_TRUE(All<DecisionWarned>(r.events()).empty());
  EXPECT_EQ(r.NextDeadline(), 21'000);
  ASSERT_TRUE(r.Tick(21'000).ok());
  EXPECT_EQ(All<DecisionWarned>(r.events()).size(), 2u);  // Seats 1 and 5.
  EXPECT_EQ(r.NextDeadline(), 31'000);
  ASSERT_TRUE(r.Fold(5).ok());
  ASSERT_TRUE(r.Tick(30'999).ok());
  EXPECT_FALSE(r.finished());
  ASSERT_TRUE(r.Tick(31'000).ok());
  ASSERT_TRUE(r.finished());
  EXPECT_EQ(ResultOf(r, 1).fold_cause, FoldCause::kTimeout);
  EXPECT_EQ(ResultOf(r, 5).fold_cause, FoldCause::kPlayer);
  EXPECT_FALSE(r.NextDeadline().has_value());
}

TEST(StudNoDrawRound, LateClockStillCountsSupplementaryTimeFromTheLimit) {
  Round r = ThreeDealt();
  // One tick long after both limits: the warning, then the fold.
  ASSERT_TRUE(r.Tick(40'000).ok());
  EXPECT_EQ(All<DecisionWarned>(r.events()).size(), 3u);
  EXPECT_EQ(All<Folded>(r.events()).size(), 3u);
  EXPECT_TRUE(r.finished());
}

TEST(StudNoDrawRound, TimeMustNotGoBackwards) {
  Round r = ThreeDealt();
  const size_t n = r.events().size();
  EXPECT_EQ(r.Tick(999), absl::InvalidArgumentError(
                             "time went backwards: 999 ms is before 1000 ms"));
  EXPECT_EQ(r.Timeout(1, 999).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.Tick(kMaxClockMs + 1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.events().size(), n);
  EXPECT_FALSE(r.ViewFor(1).warned);
}

TEST(StudNoDrawRound, SystemFailureVoidsAndReturnsEveryStake_SD_33) {
  Round r = ThreeDealt();
  ASSERT_TRUE(r.Fold(1).ok());
  ASSERT_TRUE(r.Continue(3).ok());
  ASSERT_TRUE(r.Void().ok());
  ASSERT_TRUE(r.finished());
  EXPECT_TRUE(r.result().voided);
  EXPECT_FALSE(r.result().bank_revealed);
  EXPECT_EQ(ResultOf(r, 1).settlement.outcome, Outcome::kVoid);
  EXPECT_EQ(ResultOf(r, 1).settlement.ante, (BetSettlement{100, 100}));
  EXPECT_EQ(ResultOf(r, 3).settlement.returned(), 600);
  EXPECT_EQ(ResultOf(r, 5).settlement.returned(), 100);
  EXPECT_EQ(r.result().house_net(), 0);
  EXPECT_TRUE(All<BankRevealed>(r.events()).empty());
  EXPECT_EQ(r.Void(),
            absl::FailedPreconditionError("round 1 is already settled"));
  EXPECT_EQ(r.Fold(5).code(), absl::StatusCode::kFailedPrecondition);
}

TEST(StudNoDrawRound, VoidBeforeTheDealReturnsTheAntes_SD_33) {
  Round r = Open();
  ASSERT_TRUE(r.PlaceAnte(4, "ana", 500).ok());
  ASSERT_TRUE(r.Void().ok());
  EXPECT_EQ(ResultOf(r, 4).settlement.ante, (BetSettlement{500, 500}));
}

TEST(StudNoDrawRound, DisconnectBeforeTheBetIsAFold_SD_34_SD_35) {
  Round r = ThreeDealt();
  ASSERT_TRUE(r.Disconnect(1).ok());
  const std::vector<Folded> f = All<Folded>(r.events());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].cause, FoldCause::kDisconnect);
  ASSERT_TRUE(r.Continue(3).ok());
  ASSERT_TRUE(r.Continue(5).ok());
  EXPECT_FALSE(r.result().voided);  // SD-34: the round is valid.
  EXPECT_EQ(ResultOf(r, 1).settlement.ante, (BetSettlement{100, 0}));
}

TEST(StudNoDrawRound, DisconnectAfterTheAnteBeforeTheDealGetsNoCards_SD_35) {
  Round r = Open();
  ASSERT_TRUE(r.PlaceAnte(1, "ana", 100).ok());
  ASSERT_TRUE(r.PlaceAnte(2, "rui", 100).ok());
  ASSERT_TRUE(r.Disconnect(1).ok());
  ASSERT_TRUE(r.Deal(DeckFor("2c", {kAna}, kBank), 0).ok());
  const std::vector<CardsDealt> dealt = All<CardsDealt>(r.events());
  ASSERT_EQ(dealt.size(), 1u);
  EXPECT_EQ(dealt[0].seat, 2);
  EXPECT_EQ(dealt[0].cards, HandOf(kAna));
  ASSERT_TRUE(r.Continue(2).ok());
  EXPECT_EQ(ResultOf(r, 1).settlement.outcome, Outcome::kFolded);
  EXPECT_FALSE(ResultOf(r, 1).dealt);
}

TEST(StudNoDrawRound, EveryoneGoneBeforeTheDealEndsTheRound_SD_35) {
  Round r = Open();
  ASSERT_TRUE(r.PlaceAnte(1, "ana", 100).ok());
  ASSERT_TRUE(r.Disconnect(1).ok());
  ASSERT_TRUE(r.Deal({}, 0).ok());
  EXPECT_TRUE(r.finished());
  EXPECT_TRUE(All<CardsDealt>(r.events()).empty());
  EXPECT_EQ(r.result().house_net(), 100);
}

TEST(StudNoDrawRound, DisconnectAfterTheBetKeepsThePlayerIn_SD_36) {
  Round r = ThreeDealt();
  ASSERT_TRUE(r.Continue(5).ok());
  ASSERT_TRUE(r.Disconnect(5).ok());
  EXPECT_TRUE(All<Folded>(r.events()).empty());
  ASSERT_TRUE(r.Fold(1).ok());
  ASSERT_TRUE(r.Fold(3).ok());
  const SeatSettlement& eva = ResultOf(r, 5).settlement;
  EXPECT_EQ(eva.outcome, Outcome::kWon);  // Flush, 5 × the bet.
  EXPECT_EQ(eva.bet, (BetSettlement{200, 1200}));
  EXPECT_EQ(eva.ante, (BetSettlement{100, 200}));
}

TEST(StudNoDrawRound, DisconnectWithoutAStakeRejected) {
  Round r = ThreeDealt();
  const size_t n = r.events().size();
  EXPECT_EQ(r.Disconnect(2), absl::FailedPreconditionError(
                                 "seat 2 has no stake in an open round 1"));
  EXPECT_EQ(r.Disconnect(8).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.events().size(), n);
}

TEST(StudNoDrawRound, OtherPlayersCardsAndTheBankStayHidden_Invariant7) {
  Round r = ThreeDealt();
  ASSERT_TRUE(r.Continue(1).ok());
  for (int viewer : {0, 1, 3, 5}) {
    const RoundView v = r.ViewFor(viewer);
    for (const SeatView& s : v.seats) {
      EXPECT_EQ(s.cards.has_value(), s.seat == viewer)
          << "viewer " << viewer << " seat " << s.seat;
    }
    EXPECT_FALSE(v.bank.has_value());
    for (const Event& e : r.EventsFor(viewer)) {
      if (const auto* d = std::get_if<CardsDealt>(&e)) {
        EXPECT_EQ(d->seat, viewer);
      }
      EXPECT_FALSE(std::holds_alternative<BankRevealed>(e));
      EXPECT_FALSE(std::holds_alternative<HandShown>(e));
    }
  }
}

}  // namespace
}  // namespace banca::games::stud_no_draw
