#include "libs/games/blackjack/table.h"

#include "gtest/gtest.h"
#include "libs/games/blackjack/test_util.h"

namespace banca::games::blackjack {
namespace {

using testing::Do;
using testing::Shoe;

Table MustCreate(TableSettings s = {}) {
  absl::StatusOr<Table> t = Table::Create(s);
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

template <typename T>
std::vector<T> EventsOf(const Table& t) {
  std::vector<T> out;
  for (const TableEvent& e : t.events()) {
    if (const T* x = std::get_if<T>(&e)) out.push_back(*x);
  }
  return out;
}

void ExpectUnchanged(const Table& t, size_t events, absl::Status s,
                     absl::StatusCode code) {
  EXPECT_EQ(s.code(), code) << s;
  EXPECT_EQ(t.events().size(), events);
}

TEST(BlackjackTable, OwnConnectionFailureVoidsNothing_BJ_29_BJ_30) {
  Table t = MustCreate();
  ASSERT_TRUE(t.Sit("ana", 1).ok());
  ASSERT_TRUE(t.PlaceBet("ana", 1000).ok());
  ASSERT_TRUE(t.Deal(Shoe("Td 9h 9c 8s")).ok());  // 19 v 17
  ASSERT_TRUE(t.Disconnect("ana").ok());
  EXPECT_TRUE(t.in_round());  // the round goes on
  // The decision time runs out: the hand stands, and wins.
  ASSERT_TRUE(t.Timeout("ana").ok());
  ASSERT_FALSE(t.in_round());
  EXPECT_FALSE(t.round()->result().voided);
  EXPECT_EQ(t.round()->result().returned, 2000);
  ASSERT_TRUE(t.Reconnect("ana").ok());
  // BJ-31: after reconnecting the player can see the result.
  const std::optional<LastRound> last = t.LastRoundOf("ana");
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->returned, 2000);
  EXPECT_EQ(EventsOf<ConnectionChanged>(t).size(), 2u);
  // A losing bet is collected the same way.
  ASSERT_TRUE(t.PlaceBet("ana", 1000).ok());
  ASSERT_TRUE(t.Deal(Shoe("Td 9h 8c Ts")).ok());  // 18 v 19
  ASSERT_TRUE(t.Disconnect("ana").ok());
  ASSERT_TRUE(t.Timeout("ana").ok());
  EXPECT_EQ(t.round()->result().returned, 0);
  EXPECT_FALSE(t.round()->result().voided);
}

TEST(BlackjackTable, LastRoundShowsResultAndAmounts_BJ_31) {
  Table t = MustCreate();
  ASSERT_TRUE(t.Sit("ana", 2).ok());
  EXPECT_EQ(t.LastRoundOf("ana"), std::nullopt);  // none yet
  ASSERT_TRUE(t.PlaceBet("ana", 1000).ok());
  ASSERT_TRUE(t.Deal(Shoe("5d 9h 6c 8s Kd")).ok());
  ASSERT_TRUE(t.Act("ana", Do(ActionType::kDouble)).ok());
  const LastRound last = *t.LastRoundOf("ana");
  EXPECT_EQ(last.round_number, 1);
  EXPECT_EQ(last.seat, 2);
  EXPECT_EQ(last.dealer_cards, Shoe("9h 8s"));
  EXPECT_EQ(last.dealer_total.value, 17);
  EXPECT_EQ(last.mine.hands[0].cards, Shoe("5d 6c Kd"));
  ASSERT_EQ(last.bets.size(), 2u);  // main and double
  EXPECT_EQ(last.staked, 2000);
  EXPECT_EQ(last.returned, 4000);
  EXPECT_EQ(t.LastRoundOf("nobody"), std::nullopt);
}

TEST(BlackjackTable, SessionSummaryOnLeave_BJ_33) {
  Table t = MustCreate();
  ASSERT_TRUE(t.Sit("ana", 1).ok());
  ASSERT_TRUE(t.PlaceBet("ana", 1000).ok());
  ASSERT_TRUE(t.Deal(Shoe("Td 9h 9c 8s")).ok());  // wins 1000
  ASSERT_TRUE(t.Act("ana", Do(ActionType::kStand)).ok());
  ASSERT_TRUE(t.PlaceBet("ana", 500).ok());
  ASSERT_TRUE(t.Deal(Shoe("Td As 8c 9s")).ok());  // insures, loses both
  ASSERT_TRUE(t.Act("ana", Do(ActionType::kInsurance, 250)).ok());
  ASSERT_TRUE(t.Act("ana", Do(ActionType::kStand)).ok());
  ASSERT_TRUE(t.PlaceBet("ana", 300).ok());
  ASSERT_TRUE(t.Deal(Shoe("Td 9h 8c 9s")).ok());
  ASSERT_TRUE(t.Fail().ok());  // void: refunded
  const SessionStats expected{3, 1, 1000 + 750 + 300, 2000 + 0 + 300,
                              2300 - 2050};
  EXPECT_EQ(*t.Stats("ana"), expected);
  ASSERT_TRUE(t.Leave("ana").ok());
  const std::vector<PlayerLeft> left = EventsOf<PlayerLeft>(t);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].stats, expected);
  EXPECT_EQ(left[0].reason, LeaveReason::kVoluntary);
}

TEST(BlackjackTable, PlayerLeavesAnyTime_BJ_34) {
  Table t = MustCreate();
  ASSERT_TRUE(t.Sit("ana", 1).ok());
  ASSERT_TRUE(t.Sit("rui", 2).ok());
  // An undealt bet is withdrawn.
  ASSERT_TRUE(t.PlaceBet("ana", 1000).ok());
  ASSERT_TRUE(t.Leave("ana").ok());
  ASSERT_EQ(EventsOf<BetWithdrawn>(t).size(), 1u);
  EXPECT_EQ(EventsOf<BetWithdrawn>(t)[0].amount, 1000);
  EXPECT_EQ(t.SeatOf("ana"), std::nullopt);
  // Mid-round: the hand stands at its turn, the player leaves after.
  ASSERT_TRUE(t.Sit("ana", 1).ok());
  ASSERT_TRUE(t.PlaceBet("ana", 1000).ok());
  ASSERT_TRUE(t.PlaceBet("rui", 1000).ok());
  ASSERT_TRUE(t.Deal(Shoe("Td Tc 9h 9c 7d 8s")).ok());  // 19, 17 v 17
  ASSERT_TRUE(t.Leave("ana").ok());  // ana's turn: stands at once
  EXPECT_TRUE(t.in_round());
  EXPECT_EQ(t.round()->legal().seat, 2);
  ASSERT_TRUE(t.Act("rui", Do(ActionType::kStand)).ok());
  EXPECT_EQ(t.SeatOf("ana"), std::nullopt);
  const std::vector<PlayerLeft> left = EventsOf<PlayerLeft>(t);
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(left[1].stats.returned, 2000);  // the round was played out
  EXPECT_EQ(t.SeatOf("rui"), 2);
}

TEST(BlackjackTable, IndividualTableInviteWarnThenEnd_BJ_35a_BJ_36) {
  TableSettings s;
  s.seats = 1;
  Table t = MustCreate(s);
  ASSERT_TRUE(t.Sit("ana", 1).ok());
  ASSERT_TRUE(t.AdvanceClock(180).ok());  // exactly 3 minutes: not more
  EXPECT_TRUE(EventsOf<SessionEndInvited>(t).empty());
  ASSERT_TRUE(t.AdvanceClock(1).ok());
  ASSERT_EQ(EventsOf<SessionEndInvited>(t).size(), 1u);
  EXPECT_EQ(EventsOf<SessionEndInvited>(t)[0].kind, InactivityKind::kTime);
  // A bet answers the invitation and restarts the clock.
  ASSERT_TRUE(t.PlaceBet("ana", 1000).ok());
  ASSERT_TRUE(t.Deal(Shoe("Td 9h 9c 8s")).ok());
  ASSERT_TRUE(t.Act("ana", Do(ActionType::kStand)).ok());
  ASSERT_TRUE(t.AdvanceClock(181).ok());
  ASSERT_EQ(EventsOf<SessionEndInvited>(t).size(), 2u);
  ASSERT_TRUE(t.AdvanceClock(60).ok());
  ASSERT_EQ(EventsOf<SessionEndWarned>(t).size(), 1u);  // 241 s idle
  ASSERT_TRUE(t.AdvanceClock(60).ok());                 // a minute: not more
  EXPECT_EQ(t.SeatOf("ana"), 1);
  ASSERT_TRUE(t.AdvanceClock(1).ok());
  EXPECT_EQ(t.SeatOf("ana"), std::nullopt);
  const std::vector<PlayerLeft> left = EventsOf<PlayerLeft>(t);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].reason, LeaveReason::kInactivity);
  EXPECT_EQ(left[0].stats.rounds_played, 1);
}

TEST(BlackjackTable, MultiPlayerTableInviteAfterFiveRounds_BJ_35b_BJ_36) {
  Table t = MustCreate();
  ASSERT_TRUE(t.Sit("ana", 1).ok());
  ASSERT_TRUE(t.Sit("rui", 2).ok());
  // Time alone does not count at a multi-player table.
  ASSERT_TRUE(t.AdvanceClock(3600).ok());
  EXPECT_TRUE(EventsOf<SessionEndInvited>(t).empty());
  auto play_round = [&] {
    ASSERT_TRUE(t.PlaceBet("rui", 1000).ok());
    ASSERT_TRUE(t.Deal(Shoe("Td 9h 9c 8s")).ok());
    ASSERT_TRUE(t.Act("rui", Do(ActionType::kStand)).ok());
  };
  for (int i = 0; i < 5; ++i) play_round();
  EXPECT_TRUE(EventsOf<SessionEndInvited>(t).empty());
  play_round();  // the 6th round without a bet: "more than 5"
  ASSERT_EQ(EventsOf<SessionEndInvited>(t).size(), 1u);
  EXPECT_EQ(EventsOf<SessionEndInvited>(t)[0].player, "ana");
  EXPECT_EQ(EventsOf<SessionEndInvited>(t)[0].kind, InactivityKind::kRounds);
  play_round();
  ASSERT_EQ(EventsOf<SessionEndWarned>(t).size(), 1u);
  EXPECT_EQ(t.SeatOf("ana"), 1);
  play_round();  // no bet in the round after the warning: the session ends
  EXPECT_EQ(t.SeatOf("ana"), std::nullopt);
  EXPECT_EQ(EventsOf<PlayerLeft>(t).back().reason, LeaveReason::kInactivity);
  EXPECT_EQ(t.SeatOf("rui"), 2);
}

TEST(BlackjackTable, SystemFailureVoidsAndRefunds_BJ_27_BJ_28) {
  Table t = MustCreate();
  ASSERT_TRUE(t.Sit("ana", 1).ok());
  ASSERT_TRUE(t.PlaceBet("ana", 1000).ok());
  ASSERT_TRUE(t.Deal(Shoe("5d 9h 6c 8s Kd")).ok());
  ASSERT_TRUE(t.Fail().ok());
  EXPECT_TRUE(t.round()->result().voided);
  EXPECT_EQ(t.round()->result().returned, 1000);
  EXPECT_EQ(t.Stats("ana")->net, 0);
  EXPECT_EQ(t.Fail().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(BlackjackTable, BadCommandsChangeNothing) {
  Table t = MustCreate();
  size_t n = t.events().size();
  ExpectUnchanged(t, n, t.Sit("ana", 0), absl::StatusCode::kInvalidArgument);
  ExpectUnchanged(t, n, t.Sit("ana", 8), absl::StatusCode::kInvalidArgument);
  ExpectUnchanged(t, n, t.Sit("", 1), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(t.Sit("ana", 1).ok());
  n = t.events().size();
  ExpectUnchanged(t, n, t.Sit("ana", 2), absl::StatusCode::kFailedPrecondition);
  ExpectUnchanged(t, n, t.Sit("rui", 1), absl::StatusCode::kFailedPrecondition);
  ExpectUnchanged(t, n, t.PlaceBet("rui", 1000),
                  absl::StatusCode::kFailedPrecondition);
  ExpectUnchanged(t, n, t.PlaceBet("ana", 99),
                  absl::StatusCode::kInvalidArgument);
  ExpectUnchanged(t, n, t.PlaceBet("ana", 100'001),
                  absl::StatusCode::kInvalidArgument);
  ExpectUnchanged(t, n, t.Deal(Shoe("Td 9h 9c 8s")),
                  absl::StatusCode::kFailedPrecondition);  // no bets
  ExpectUnchanged(t, n, t.Act("ana", Do(ActionType::kHit)),
                  absl::StatusCode::kFailedPrecondition);  // no round
  ExpectUnchanged(t, n, t.AdvanceClock(-1), absl::StatusCode::kInvalidArgument);
  ExpectUnchanged(t, n, t.Reconnect("ana"),
                  absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(t.PlaceBet("ana", 1000).ok());
  n = t.events().size();
  ExpectUnchanged(t, n, t.PlaceBet("ana", 1000),
                  absl::StatusCode::kFailedPrecondition);  // twice
  ExpectUnchanged(t, n, t.Deal(Shoe("Td 9h 9c")),
                  absl::StatusCode::kInvalidArgument);  // short deck
  EXPECT_EQ(t.PendingBet("ana"), 1000);                 // kept for a retry
  ASSERT_TRUE(t.Deal(Shoe("Td 9h 9c 8s")).ok());
  n = t.events().size();
  ExpectUnchanged(t, n, t.PlaceBet("ana", 1000),
                  absl::StatusCode::kFailedPrecondition);  // in a round
  ExpectUnchanged(t, n, t.Deal(Shoe("Td 9h 9c 8s")),
                  absl::StatusCode::kFailedPrecondition);
  ExpectUnchanged(t, n, t.Act("rui", Do(ActionType::kHit)),
                  absl::StatusCode::kFailedPrecondition);  // not seated
}

TEST(BlackjackTable, ViewsHideTheHoleCard_DESIGN7) {
  Table t = MustCreate();
  ASSERT_TRUE(t.Sit("ana", 1).ok());
  ASSERT_TRUE(t.PlaceBet("ana", 1000).ok());
  ASSERT_TRUE(t.Deal(Shoe("Td 9h 9c 8s")).ok());
  for (const char* who : {"ana", "observer"}) {
    const RoundView v = *t.ViewFor(who);
    EXPECT_TRUE(v.hole_card_hidden);
    EXPECT_EQ(v.dealer_cards, Shoe("9h"));
  }
}

}  // namespace
}  // namespace banca::games::blackjack
