#include "libs/games/stud_no_draw/table.h"

#include <string>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/test_util.h"
#include "libs/games/stud_no_draw/test_util.h"

namespace banca::games::stud_no_draw {
namespace {

TableConfig Config(int seats) {
  TableConfig c;
  c.seats = seats;
  c.min_ante = 100;
  c.max_ante = 1000;
  return c;
}

Table Make(int seats) {
  absl::StatusOr<Table> t = Table::Create(Config(seats), "t1");
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

template <typename T>
std::vector<T> All(const std::vector<TableEvent>& events) {
  std::vector<T> out;
  for (const TableEvent& e : events) {
    if (const T* t = std::get_if<T>(&e)) out.push_back(*t);
  }
  return out;
}

constexpr std::string_view kPair = "Qh Qs 5c 7s 6c";
constexpr std::string_view kHigh = "Jd 9c 8h 4d 3h";
constexpr std::string_view kBank = "Ad Kc 4h 3s 5s";

TEST(StudNoDrawTable, IndividualAndMultiPlayerTables_SD_4) {
  Table solo = Make(1);
  ASSERT_TRUE(solo.Sit("ana", 1, 0).ok());
  EXPECT_EQ(solo.Sit("rui", 1, 0),
            absl::FailedPreconditionError("seat 1 is taken"));
  EXPECT_EQ(solo.Sit("rui", 2, 0).code(), absl::StatusCode::kInvalidArgument);
  Table multi = Make(7);
  for (int seat = 1; seat <= 7; ++seat) {
    ASSERT_TRUE(multi.Sit("p" + std::to_string(seat), seat, 0).ok());
  }
  EXPECT_EQ(multi.Sit("p1", 1, 0).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(All<PlayerSat>(multi.events()).size(), 7u);
}

TEST(StudNoDrawTable, BadInputChangesNothing) {
  EXPECT_EQ(Table::Create(Config(8), "t").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Table::Create(Config(2), "").status().code(),
            absl::StatusCode::kInvalidArgument);
  Table t = Make(2);
  EXPECT_EQ(t.Sit("", 1, 0).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(t.Sit(std::string(129, 'x'), 1, 0).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(t.PlaceAnte("ana", 100, 0),
            absl::NotFoundError("ana is not seated"));
  ASSERT_TRUE(t.Sit("ana", 1, 10).ok());
  EXPECT_EQ(t.Sit("rui", 2, 9).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(t.PlaceAnte("ana", 99, 10).code(),
            absl::StatusCode::kInvalidArgument);
  // A rejected ante opens no round.
  EXPECT_EQ(t.round(), nullptr);
  EXPECT_EQ(t.rounds_played(), 0);
  EXPECT_EQ(t.Deal(cards::StandardDeck(), 10),
            absl::FailedPreconditionError("no round is taking bets"));
  EXPECT_EQ(t.Void(), absl::FailedPreconditionError("no round is open"));
  EXPECT_EQ(t.Fold("ana").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(t.Reconnect("ana").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(t.events().size(), 1u);
}

TEST(StudNoDrawTable, LastRoundResultAndAmountsBet_SD_37) {
  Table t = Make(2);
  ASSERT_TRUE(t.Sit("ana", 1, 0).ok());
  ASSERT_TRUE(t.Sit("rui", 2, 0).ok());
  EXPECT_FALSE(t.LastRoundOf("ana").has_value());
  ASSERT_TRUE(t.PlaceAnte("ana", 200, 0).ok());
  ASSERT_TRUE(t.PlaceAnte("rui", 100, 0).ok());
  ASSERT_TRUE(t.Deal(DeckFor("2c", {kPair, kHigh}, kBank), 0).ok());
  ASSERT_TRUE(t.Continue("ana").ok());
  ASSERT_TRUE(t.Fold("rui").ok());
  const std::optional<LastRound> last = t.LastRoundOf("ana");
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->number, 1);
  EXPECT_FALSE(last->voided);
  EXPECT_EQ(last->mine.cards, HandOf(kPair));
  EXPECT_EQ(last->mine.settlement.ante, (BetSettlement{200, 400}));
  EXPECT_EQ(last->mine.settlement.bet, (BetSettlement{400, 800}));
  EXPECT_EQ(last->bank, HandOf(kBank));
  EXPECT_TRUE(last->bank_qualifies);
  EXPECT_EQ(t.LastRoundOf("rui")->mine.settlement.outcome, Outcome::kFolded);
  EXPECT_FALSE(t.LastRoundOf("ivo").has_value());
}

TEST(StudNoDrawTable, SessionAmountsBetAndProfitOrLoss_SD_39) {
  Table t = Make(2);
  ASSERT_TRUE(t.Sit("ana", 1, 0).ok());
  // Round 1: ana wins with a pair (ante 1:1, bet 1:1): +300.
  ASSERT_TRUE(t.PlaceAnte("ana", 100, 0).ok());
  ASSERT_TRUE(t.Deal(DeckFor("2c", {kPair}, kBank), 0).ok());
  ASSERT_TRUE(t.Continue("ana").ok());
  // Round 2: ana folds: -100.
  ASSERT_TRUE(t.PlaceAnte("ana", 100, 1).ok());
  ASSERT_TRUE(t.Deal(DeckFor("2c", {kHigh}, kBank), 1).ok());
  ASSERT_TRUE(t.Fold("ana").ok());
  // Round 3: void: nothing won or lost.
  ASSERT_TRUE(t.PlaceAnte("ana", 100, 2).ok());
  ASSERT_TRUE(t.Void().ok());
  const SessionSummary s = *t.SessionOf("ana");
  EXPECT_EQ(s.rounds, 3);
  EXPECT_EQ(s.staked, 300 + 100 + 100);
  EXPECT_EQ(s.returned, 600 + 0 + 100);
  EXPECT_EQ(s.net(), 200);
  EXPECT_EQ(t.rounds_played(), 3);
  // SD-40: the player ends the session; the summary goes with it.
  absl::StatusOr<PlayerLeft> left = t.Leave("ana");
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(left->summary, s);
  EXPECT_EQ(left->reason, LeaveReason::kPlayer);
  EXPECT_FALSE(t.SeatOf("ana").has_value());
}

TEST(StudNoDrawTable, LeavingWaitsForTheRoundToSettle_SD_40) {
  Table t = Make(2);
  ASSERT_TRUE(t.Sit("ana", 1, 0).ok());
  ASSERT_TRUE(t.Sit("rui", 2, 0).ok());
  ASSERT_TRUE(t.PlaceAnte("ana", 100, 0).ok());
  EXPECT_EQ(t.Leave("ana").status(),
            absl::FailedPreconditionError(
                "ana has a stake in round 1; the session ends after it is "
                "settled"));
  // Rui has no stake: free to go.
  ASSERT_TRUE(t.Leave("rui").ok());
  EXPECT_EQ(t.Leave("rui").status().code(), absl::StatusCode::kNotFound);
}

TEST(StudNoDrawTable, DisconnectBeforeTheBetFoldsAfterItStands_SD_35_SD_36) {
  Table t = Make(2);
  ASSERT_TRUE(t.Sit("ana", 1, 0).ok());
  ASSERT_TRUE(t.Sit("rui", 2, 0).ok());
  ASSERT_TRUE(t.PlaceAnte("ana", 100, 0).ok());
  ASSERT_TRUE(t.PlaceAnte("rui", 100, 0).ok());
  ASSERT_TRUE(t.Deal(DeckFor("2c", {kPair, kHigh}, kBank), 0).ok());
  ASSERT_TRUE(t.Continue("ana").ok());
  ASSERT_TRUE(t.Disconnect("ana").ok());
  EXPECT_EQ(t.Disconnect("ana").code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(t.Disconnect("rui").ok());
  ASSERT_FALSE(t.round_open());
  EXPECT_EQ(t.LastRoundOf("ana")->mine.settlement.outcome, Outcome::kWon);
  EXPECT_EQ(t.LastRoundOf("rui")->mine.fold_cause, FoldCause::kDisconnect);
  // Disconnected players cannot bet until they are back.
  EXPECT_EQ(t.PlaceAnte("rui", 100, 1),
            absl::FailedPreconditionError("rui is disconnected"));
  ASSERT_TRUE(t.Reconnect("rui").ok());
  ASSERT_TRUE(t.PlaceAnte("rui", 100, 1).ok());
  EXPECT_EQ(All<ConnectionChanged>(t.events()).size(), 3u);
}

TEST(StudNoDrawTable, IndividualTableIdleInvitationThenEnd_SD_41a_SD_42a) {
  Table t = Make(1);
  ASSERT_TRUE(t.Sit("ana", 1, 0).ok());
  ASSERT_TRUE(t.Tick(180'000).ok());  // Exactly 3 minutes: not "more".
  EXPECT_TRUE(All<SessionEndInvited>(t.events()).empty());
  ASSERT_TRUE(t.Tick(180'001).ok());
  std::vector<SessionEndInvited> inv = All<SessionEndInvited>(t.events());
  ASSERT_EQ(inv.size(), 1u);
  EXPECT_EQ(inv[0].deadline_ms, 240'001);
  // A bet in the next minute keeps the session.
  ASSERT_TRUE(t.PlaceAnte("ana", 100, 200'000).ok());
  ASSERT_TRUE(t.Void().ok());
  ASSERT_TRUE(t.Tick(380'000).ok());
  EXPECT_EQ(All<SessionEndInvited>(t.events()).size(), 1u);
  ASSERT_TRUE(t.Tick(380'001).ok());
  EXPECT_EQ(All<SessionEndInvited>(t.events()).size(), 2u);
  ASSERT_TRUE(t.Tick(440'000).ok());
  EXPECT_TRUE(t.SeatOf("ana").has_value());
  ASSERT_TRUE(t.Tick(440'001).ok());
  const std::vector<PlayerLeft> left = All<PlayerLeft>(t.events());
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].reason, LeaveReason::kInactive);
  EXPECT_EQ(left[0].summary.rounds, 1);
  EXPECT_FALSE(t.SeatOf("ana").has_value());
}

TEST(StudNoDrawTable, MultiPlayerIdleRoundsInviteThenEnd_SD_41b_SD_42b) {
  Table t = Make(2);
  ASSERT_TRUE(t.Sit("ana", 1, 0).ok());
  ASSERT_TRUE(t.Sit("rui", 2, 0).ok());
  auto round = [&t] {
    ASSERT_TRUE(t.PlaceAnte("ana", 100, 0).ok());
    ASSERT_TRUE(t.Void().ok());
  };
  for (int i = 0; i < 5; ++i) round();
  EXPECT_TRUE(All<SessionEndInvited>(t.events()).empty());
  round();  // The sixth round without a bet: "more than 5".
  std::vector<SessionEndInvited> inv = All<SessionEndInvited>(t.events());
  ASSERT_EQ(inv.size(), 1u);
  EXPECT_EQ(inv[0].player, "rui");
  EXPECT_EQ(inv[0].deadline_ms, 0);
  round();  // No bet in the next round either: the session ends.
  const std::vector<PlayerLeft> left = All<PlayerLeft>(t.events());
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].player, "rui");
  EXPECT_EQ(left[0].reason, LeaveReason::kInactive);
  EXPECT_TRUE(t.SeatOf("ana").has_value());
}

TEST(StudNoDrawTable, BettingAfterTheInvitationKeepsTheSession_SD_42b) {
  Table t = Make(2);
  ASSERT_TRUE(t.Sit("ana", 1, 0).ok());
  ASSERT_TRUE(t.Sit("rui", 2, 0).ok());
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(t.PlaceAnte("ana", 100, 0).ok());
    ASSERT_TRUE(t.Void().ok());
  }
  ASSERT_EQ(All<SessionEndInvited>(t.events()).size(), 1u);
  ASSERT_TRUE(t.PlaceAnte("ana", 100, 0).ok());
  ASSERT_TRUE(t.PlaceAnte("rui", 100, 0).ok());
  ASSERT_TRUE(t.Void().ok());
  EXPECT_TRUE(All<PlayerLeft>(t.events()).empty());
}

}  // namespace
}  // namespace banca::games::stud_no_draw
