#include "libs/games/poker/table.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/games/poker/test_util.h"

namespace banca::games::poker {
namespace {

using testing::Call;
using testing::Check;
using testing::Deck;
using testing::Fold;
using ::testing::HasSubstr;

TableConfig Config() {
  TableConfig c;
  c.buy_in_min = 2000;
  c.buy_in_max = 10000;
  return c;
}

template <typename E>
std::vector<E> TableEventsOf(const Table& t) {
  std::vector<E> out;
  for (const TableEvent& e : t.events()) {
    if (const E* x = std::get_if<E>(&e)) out.push_back(*x);
  }
  return out;
}

Table ThreeSeated() {
  Table t = *Table::Create(Config(), "t1");
  EXPECT_TRUE(t.Sit("ana", 1, 10000).ok());
  EXPECT_TRUE(t.Sit("rui", 3, 10000).ok());
  EXPECT_TRUE(t.Sit("eva", 5, 10000).ok());
  return t;
}

constexpr const char* kTenNames[] = {"a", "b", "c", "d", "e",
                                     "f", "g", "h", "i", "j"};

// A full 10-seat table, 5,000 each, seats 1..10 in kTenNames order.
Table TenSeated() {
  TableConfig c = Config();
  c.seats = 10;
  Table t = *Table::Create(c, "t2");
  for (int i = 0; i < 10; ++i)
    EXPECT_TRUE(t.Sit(kTenNames[i], i + 1, 5000).ok());
  return t;
}

// Rui (seat 2) sits with 120 between ana (1) and eva (3): one blind from
// short of the big blind.
Table ShortRuiBetweenTwo() {
  TableConfig c = Config();
  c.buy_in_min = 100;
  Table t = *Table::Create(c, "t1");
  EXPECT_TRUE(t.Sit("ana", 1, 10000).ok());
  EXPECT_TRUE(t.Sit("rui", 2, 120).ok());
  EXPECT_TRUE(t.Sit("eva", 3, 10000).ok());
  return t;
}

// Everyone folds to the big blind.
void FoldAround(Table& t) {
  while (t.in_hand()) {
    const int seat = *t.hand()->to_act();
    for (const PlayerView& p : t.hand()->ViewFor(0).players) {
      if (p.seat == seat) {
        ASSERT_TRUE(t.Act(p.player, Fold()).ok());
        break;
      }
    }
  }
}

TEST(PokerTable, SitWithinBuyInRange_HE8_HE14) {
  Table t = *Table::Create(Config(), "t1");
  EXPECT_THAT(t.Sit("ana", 1, 1999).status().message(), HasSubstr("HE-8"));
  EXPECT_EQ(t.Sit("ana", 1, 10001).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(t.Sit("ana", 11, 5000).status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::StatusOr<PlayerSat> sat = t.Sit("ana", 1, 5000);
  ASSERT_TRUE(sat.ok());
  EXPECT_EQ(sat->stack, 5000);
  EXPECT_EQ(t.Stack("ana"), 5000);
}

TEST(PokerTable, OneSeatPerPlayer_HE9) {
  Table t = *Table::Create(Config(), "t1");
  ASSERT_TRUE(t.Sit("ana", 1, 5000).ok());
  EXPECT_THAT(t.Sit("ana", 2, 5000).status().message(), HasSubstr("HE-9"));
  EXPECT_THAT(t.Sit("rui", 1, 5000).status().message(), HasSubstr("taken"));
}

TEST(PokerTable, BuyInRakeTakenAtEntryAndRebuy_HE17b) {
  TableConfig c = Config();
  c.rake = {RakeMode::kBuyIn, 1000, 0};
  Table t = *Table::Create(c, "t1");
  absl::StatusOr<PlayerSat> sat = t.Sit("ana", 1, 5000);
  ASSERT_TRUE(sat.ok());
  EXPECT_EQ(sat->rake, 500);
  EXPECT_EQ(sat->stack, 4500);
  absl::StatusOr<PlayerRebought> re = t.Rebuy("ana", 1001);
  ASSERT_TRUE(re.ok());
  EXPECT_EQ(re->rake, 100);  // 10 % of 1001, rounded down
  EXPECT_EQ(re->stack, 5401);
  EXPECT_EQ(t.Stats("ana")->rake_paid, 600);
}

TEST(PokerTable, RebuyOnlyBetweenHandsWithinMaximum_HE11b_HE12) {
  Table t = ThreeSeated();
  EXPECT_THAT(t.Rebuy("ana", 1).status().message(), HasSubstr("maximum"));
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  EXPECT_THAT(t.Rebuy("rui", 100).status().message(), HasSubstr("HE-11b"));
  FoldAround(t);
  EXPECT_FALSE(t.in_hand());
  EXPECT_EQ(t.Stack("rui"), 9950);  // small blind lost
  EXPECT_EQ(t.Rebuy("rui", 51).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(t.Rebuy("rui", 50).ok());
  EXPECT_EQ(t.Stack("rui"), 10000);
}

TEST(PokerTable, NeedsTwoPlayers_HE7) {
  Table t = *Table::Create(Config(), "t1");
  ASSERT_TRUE(t.Sit("ana", 1, 5000).ok());
  EXPECT_THAT(t.StartHand(0, Deck("")).message(), HasSubstr("HE-7"));
  ASSERT_TRUE(t.Sit("rui", 2, 5000).ok());
  EXPECT_TRUE(t.StartHand(0, Deck("")).ok());
  EXPECT_EQ(t.StartHand(0, Deck("")).code(),
            absl::StatusCode::kFailedPrecondition);  // one in progress
}

TEST(PokerTable, ButtonDrawnThenMovesClockwise_HE46_HE64) {
  Table t = ThreeSeated();
  EXPECT_TRUE(t.NeedsButtonDraw());
  EXPECT_EQ(t.StartHand(3, Deck("")).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(t.StartHand(1, Deck("")).ok());  // the draw picked seat 3
  EXPECT_EQ(t.button(), 3);
  EXPECT_TRUE(TableEventsOf<ButtonMoved>(t).back().drawn);
  FoldAround(t);
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());  // the draw is ignored now
  EXPECT_EQ(t.button(), 5);
  FoldAround(t);
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  EXPECT_EQ(t.button(), 1);
  EXPECT_FALSE(TableEventsOf<ButtonMoved>(t).back().drawn);
}

TEST(PokerTable, SyntheticButtonMovesLeftAfterEachHand_SY65) {
  TableConfig c = Config();
  c.variant = Variant::kSynthetic;
  Table t = *Table::Create(c, "t1");
  ASSERT_TRUE(t.Sit("ana", 1, 10000).ok());
  ASSERT_TRUE(t.Sit("rui", 3, 10000).ok());
  ASSERT_TRUE(t.Sit("eva", 5, 10000).ok());
  ASSERT_TRUE(t.StartHand(1, Deck("")).ok());  // the draw picked seat 3
  EXPECT_EQ(t.button(), 3);
  FoldAround(t);  // a fold also declines the straddle (SY-54)
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  EXPECT_EQ(t.button(), 5);
  FoldAround(t);
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  EXPECT_EQ(t.button(), 1);
}

TEST(PokerTable, RestartDrawsTheButtonAgain_HE46) {
  Table t = ThreeSeated();
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  FoldAround(t);
  ASSERT_TRUE(t.Leave("rui").ok());
  ASSERT_TRUE(t.Leave("eva").ok());
  EXPECT_FALSE(t.StartHand(0, Deck("")).ok());
  EXPECT_TRUE(t.NeedsButtonDraw());
  ASSERT_TRUE(t.Sit("rui", 2, 5000).ok());
  ASSERT_TRUE(t.StartHand(1, Deck("")).ok());
  EXPECT_EQ(t.button(), 2);
}

// A leave that drops the table to one player in play stops it (HE-7) even
// when nobody tries to deal in between: the restart draws (HE-46).
TEST(PokerTable, LeaveToOnePlayerStopsThenRestartDraws_HE7_HE46) {
  Table t = ThreeSeated();
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  FoldAround(t);
  EXPECT_FALSE(t.NeedsButtonDraw());
  ASSERT_TRUE(t.Leave("rui").ok());
  EXPECT_FALSE(t.NeedsButtonDraw());  // two still in play
  ASSERT_TRUE(t.Leave("eva").ok());
  EXPECT_TRUE(t.NeedsButtonDraw());
  ASSERT_TRUE(t.Sit("rui", 2, 5000).ok());
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  EXPECT_EQ(t.button(), 1);  // drawn, not moved on from the last button
}

TEST(PokerTable, LeaveMidHandFoldsAndPaysOutAfter_HE10) {
  Table t = ThreeSeated();
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());  // button 1: ana acts first
  absl::StatusOr<std::optional<PlayerLeft>> left = t.Leave("rui");
  ASSERT_TRUE(left.ok());
  EXPECT_FALSE(left->has_value());  // after the hand
  ASSERT_TRUE(t.Act("ana", Call()).ok());
  // rui (small blind) was to act next: folded at once.
  EXPECT_EQ(t.hand()->to_act(), 5);
  ASSERT_TRUE(t.Act("eva", Check()).ok());
  EXPECT_TRUE(t.in_hand());
  EXPECT_EQ(t.SeatOf("rui"), 3);
  while (t.in_hand()) {
    const int seat = *t.hand()->to_act();
    ASSERT_TRUE(t.Act(seat == 1 ? "ana" : "eva", Check()).ok());
  }
  EXPECT_FALSE(t.SeatOf("rui").has_value());
  auto gone = TableEventsOf<PlayerLeft>(t);
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0].stack, 9950);
  // HE-67: the session's totals go with the player.
  EXPECT_EQ(gone[0].stats.total_bet, 50);
  EXPECT_EQ(gone[0].stats.net, -50);
  EXPECT_EQ(gone[0].stats.hands_played, 1);
}

TEST(PokerTable, LeaveBetweenHandsAtOnce_HE10) {
  Table t = ThreeSeated();
  absl::StatusOr<std::optional<PlayerLeft>> left = t.Leave("eva");
  ASSERT_TRUE(left.ok());
  ASSERT_TRUE(left->has_value());
  EXPECT_EQ((*left)->stack, 10000);
  EXPECT_EQ(t.Leave("eva").status().code(), absl::StatusCode::kNotFound);
}

TEST(PokerTable, StackBelowMinimumBetMustRebuy_HE15_HE70a) {
  Table t = ShortRuiBetweenTwo();
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());  // button 1, rui small blind
  ASSERT_TRUE(t.Act("ana", Fold()).ok());
  ASSERT_TRUE(t.Act("rui", Fold()).ok());
  EXPECT_EQ(t.Stack("rui"), 70);
  EXPECT_THAT(t.EligibleSeats(), ::testing::ElementsAre(1, 3));
  auto invited = TableEventsOf<SessionEndInvited>(t);
  ASSERT_EQ(invited.size(), 1u);
  EXPECT_EQ(invited[0].player, "rui");
  EXPECT_EQ(invited[0].reason, InvitationReason::kShortStack);
  ASSERT_TRUE(t.Rebuy("rui", 1000).ok());
  EXPECT_EQ(t.EligibleSeats().size(), 3u);
}

TEST(PokerTable, SitOutKeepsTheSeat_HE68) {
  Table t = ThreeSeated();
  ASSERT_TRUE(t.SitOut("rui").ok());
  EXPECT_THAT(t.EligibleSeats(), ::testing::ElementsAre(1, 5));
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  EXPECT_FALSE(t.hand()->dealt_in(3));
  FoldAround(t);
  EXPECT_EQ(t.SeatOf("rui"), 3);
  ASSERT_TRUE(t.SitIn("rui").ok());
  EXPECT_EQ(t.EligibleSeats().size(), 3u);
}

TEST(PokerTable, InactivityInviteAfterFiveHandsThenWarn_HE70b_HE71) {
  Table t = TenSeated();
  // Seat 10 has the first button and folds every hand; its first blind
  // is the big blind of hand 9.
  int invited_at = -1, warned_at = -1;
  for (int hand = 1; hand <= 8; ++hand) {
    ASSERT_TRUE(t.StartHand(9, Deck("")).ok());
    FoldAround(t);
    for (const TableEvent& e : t.events()) {
      if (auto* i = std::get_if<SessionEndInvited>(&e);
          i && i->player == "j" && invited_at < 0) {
        EXPECT_EQ(i->reason, InvitationReason::kInactive);
        invited_at = hand;
      }
      if (auto* w = std::get_if<SessionEndWarned>(&e);
          w && w->player == "j" && warned_at < 0) {
        warned_at = hand;
      }
    }
  }
  EXPECT_EQ(invited_at, 6);  // "more than 5" (gap 11)
  EXPECT_EQ(warned_at, 7);
}

// HE-71 (gap 11, as blackjack's BJ-36): after the 7th hand's warning, an
// 8th hand without a bet ends the session; the stack goes with the player.
TEST(PokerTable, InactiveSessionEndsAfterTheWarning_HE71) {
  Table t = TenSeated();
  for (int hand = 1; hand <= 7; ++hand) {
    ASSERT_TRUE(t.StartHand(9, Deck("")).ok());
    FoldAround(t);
    std::optional<SessionNotice> notice = t.NoticeOf("j");
    if (hand < 6) {
      EXPECT_FALSE(notice.has_value()) << hand;
    } else {
      ASSERT_TRUE(notice.has_value()) << hand;
      EXPECT_EQ(notice->warned, hand == 7);
      EXPECT_EQ(notice->reason, InvitationReason::kInactive);
      EXPECT_EQ(notice->hand_number, hand);
    }
  }
  EXPECT_TRUE(TableEventsOf<PlayerLeft>(t).empty());
  ASSERT_TRUE(t.StartHand(9, Deck("")).ok());
  FoldAround(t);
  std::vector<PlayerLeft> left = TableEventsOf<PlayerLeft>(t);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].player, "j");
  EXPECT_EQ(left[0].reason, LeaveReason::kInactive);
  EXPECT_EQ(left[0].stack, 5000);
  EXPECT_FALSE(t.SeatOf("j").has_value());
}

// A bet after the invitation clears it: the count starts again.
TEST(PokerTable, ABetEndsTheInactivityNotice_HE70b) {
  Table t = TenSeated();
  for (int hand = 1; hand <= 6; ++hand) {
    ASSERT_TRUE(t.StartHand(9, Deck("")).ok());
    FoldAround(t);
  }
  ASSERT_TRUE(t.NoticeOf("j").has_value());
  ASSERT_TRUE(t.StartHand(9, Deck("")).ok());  // hand 7
  // Folds round to j (seat 10), who calls the big blind; then all fold.
  while (t.hand()->to_act() != 10) {
    const int seat = *t.hand()->to_act();
    ASSERT_TRUE(t.Act(kTenNames[seat - 1], Fold()).ok());
  }
  ASSERT_TRUE(t.Act("j", Call()).ok());
  FoldAround(t);
  EXPECT_FALSE(t.NoticeOf("j").has_value());
}

// HE-70a/71: a stack below the minimum bet is invited after the hand, warned
// after the next hand without a rebuy, and its session ends after the one
// after; a short player is not dealt in (HE-15) but the hands still count.
TEST(PokerTable, ShortStackWarnedThenSessionEnds_HE70a_HE71) {
  Table t = ShortRuiBetweenTwo();
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());  // rui posts 50, folds
  FoldAround(t);
  ASSERT_EQ(t.Stack("rui"), 70);
  ASSERT_TRUE(t.NoticeOf("rui").has_value());
  EXPECT_FALSE(t.NoticeOf("rui")->warned);
  EXPECT_EQ(t.NoticeOf("rui")->reason, InvitationReason::kShortStack);
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  EXPECT_FALSE(t.hand()->dealt_in(2));
  FoldAround(t);
  ASSERT_TRUE(t.NoticeOf("rui").has_value());
  EXPECT_TRUE(t.NoticeOf("rui")->warned);
  EXPECT_EQ(TableEventsOf<SessionEndWarned>(t).size(), 1u);
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  FoldAround(t);
  std::vector<PlayerLeft> left = TableEventsOf<PlayerLeft>(t);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].player, "rui");
  EXPECT_EQ(left[0].reason, LeaveReason::kShortStack);
  EXPECT_EQ(left[0].stack, 70);
}

TEST(PokerTable, ARebuyEndsTheShortStackNotice_HE70a) {
  Table t = ShortRuiBetweenTwo();
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  FoldAround(t);
  ASSERT_TRUE(t.NoticeOf("rui").has_value());
  ASSERT_TRUE(t.Rebuy("rui", 20).ok());  // 90: still short
  EXPECT_TRUE(t.NoticeOf("rui").has_value());
  ASSERT_TRUE(t.Rebuy("rui", 1000).ok());
  EXPECT_FALSE(t.NoticeOf("rui").has_value());
  for (int hand = 0; hand < 3; ++hand) {
    ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
    FoldAround(t);
  }
  EXPECT_TRUE(t.SeatOf("rui").has_value());
}

// HE-71: a rebuy under way (paid, not yet credited) is a top-up: the hands
// that end meanwhile neither warn nor end the session; the count goes on
// from where it stood if the rebuy fails.
TEST(PokerTable, APendingRebuyPausesTheShortStackCount_HE71) {
  Table t = ShortRuiBetweenTwo();
  EXPECT_TRUE(absl::IsNotFound(t.SetRebuyPending("nobody", true)));
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  FoldAround(t);
  ASSERT_TRUE(t.NoticeOf("rui").has_value());
  ASSERT_TRUE(t.SetRebuyPending("rui", true).ok());
  for (int hand = 0; hand < 3; ++hand) {
    ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
    FoldAround(t);
  }
  ASSERT_TRUE(t.SeatOf("rui").has_value());
  ASSERT_TRUE(t.NoticeOf("rui").has_value());
  EXPECT_FALSE(t.NoticeOf("rui")->warned);
  EXPECT_TRUE(TableEventsOf<SessionEndWarned>(t).empty());
  ASSERT_TRUE(t.SetRebuyPending("rui", false).ok());  // the rebuy failed
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  FoldAround(t);
  ASSERT_TRUE(t.NoticeOf("rui").has_value());
  EXPECT_TRUE(t.NoticeOf("rui")->warned);
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  FoldAround(t);
  std::vector<PlayerLeft> left = TableEventsOf<PlayerLeft>(t);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].reason, LeaveReason::kShortStack);
}

// HE-44: the operator's extra time, once per decision, only for the player
// to act, only at a table that grants it.
TEST(PokerTable, ExtraDecisionTimeOncePerDecision_HE44) {
  Table none = ThreeSeated();
  ASSERT_TRUE(none.StartHand(0, Deck("")).ok());
  EXPECT_THAT(none.GrantExtraTime("ana").status().message(),
              HasSubstr("no extra decision time (HE-44)"));
  TableConfig c = Config();
  c.extra_time_seconds = 15;
  Table t = *Table::Create(c, "t1");
  ASSERT_TRUE(t.Sit("ana", 1, 10000).ok());
  ASSERT_TRUE(t.Sit("rui", 3, 10000).ok());
  ASSERT_TRUE(t.Sit("eva", 5, 10000).ok());
  EXPECT_EQ(t.GrantExtraTime("ana").status().code(),
            absl::StatusCode::kFailedPrecondition);  // no hand
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());        // button 1: ana acts first
  ASSERT_EQ(t.hand()->to_act(), 1);
  EXPECT_EQ(t.GrantExtraTime("rui").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(t.GrantExtraTime("zoe").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_FALSE(t.DecisionExtended());
  absl::StatusOr<ExtraTimeGranted> granted = t.GrantExtraTime("ana");
  ASSERT_TRUE(granted.ok()) << granted.status();
  EXPECT_EQ(granted->seconds, 15);
  EXPECT_EQ(granted->hand_number, 1);
  EXPECT_TRUE(t.DecisionExtended());
  EXPECT_THAT(t.GrantExtraTime("ana").status().message(),
              HasSubstr("already had its extra time"));
  // HE-45 after it: the timeout folds; the next decision may be extended.
  ASSERT_TRUE(t.Timeout("ana").ok());
  EXPECT_FALSE(t.DecisionExtended());
  EXPECT_TRUE(t.GrantExtraTime("rui").ok());
  EXPECT_EQ(TableEventsOf<ExtraTimeGranted>(t).size(), 2u);
  TableConfig bad = Config();
  bad.extra_time_seconds = kMaxExtraTimeSeconds + 1;
  EXPECT_THAT(Table::Create(bad, "t1").status().message(),
              HasSubstr("extra_time_seconds"));
}

// HE-68: the service's clock ends a rest that ran past the operator's
// limit; the engine records why the session ended.
TEST(PokerTable, RestOverLeavesWithTheStack_HE68) {
  Table t = ThreeSeated();
  ASSERT_TRUE(t.SitOut("rui").ok());
  absl::StatusOr<std::optional<PlayerLeft>> left =
      t.Leave("rui", LeaveReason::kRestOver);
  ASSERT_TRUE(left.ok());
  ASSERT_TRUE(left->has_value());
  EXPECT_EQ((*left)->reason, LeaveReason::kRestOver);
  EXPECT_EQ((*left)->stack, 10000);
}

TEST(PokerTable, LastHandView_HE65) {
  Table t = ThreeSeated();
  EXPECT_FALSE(t.LastHandOf("ana").has_value());
  ASSERT_TRUE(t.StartHand(0, Deck("")).ok());
  FoldAround(t);
  std::optional<LastHand> last = t.LastHandOf("rui");
  ASSERT_TRUE(last.has_value());
  ASSERT_TRUE(last->result);
  EXPECT_EQ(last->hand_number, 1);
  EXPECT_EQ(last->mine.seat, 3);
  EXPECT_EQ(last->mine.bet, 50);  // the small blind
  EXPECT_EQ(last->result->players.size(), 3u);
}

}  // namespace
}  // namespace banca::games::poker
