#include "libs/games/roulette/table.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/games/roulette/test_util.h"

namespace banca::games::roulette {
namespace {

using testing::At;
using testing::Bet;
using ::testing::ElementsAre;
using testing::Neighbours;
using testing::OO;
using testing::Outside;
using testing::T0;

Table Make(TableConfig config = {}) {
  absl::StatusOr<Table> table = Table::Create(config, T0());
  EXPECT_TRUE(table.ok()) << table.status();
  return *std::move(table);
}

TableConfig Individual() {
  TableConfig c;
  c.players = WheelMode::kIndividual;
  c.launch = LaunchMode::kPlayerTriggered;
  return c;
}

RoundSettled SettleOn(Table& table, Pocket pocket, absl::Time now) {
  absl::StatusOr<SpinResult> r = table.Spin({pocket, 8, false}, now);
  EXPECT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(std::holds_alternative<RoundSettled>(*r));
  return std::get<RoundSettled>(*r);
}

void ExpectRejected(const absl::Status& status, absl::StatusCode code,
                    std::string_view message) {
  EXPECT_EQ(status.code(), code) << status;
  EXPECT_EQ(std::string(status.message()), std::string(message));
}

TEST(RouletteTable, MinimumIsTheSameForEveryChance_RFD_10) {
  TableConfig config;
  config.min_bet = 200;
  Table table = Make(config);
  ExpectRejected(
      table.PlaceBet("ana", "b1", Bet(BetKind::kStraight, {17}, 199), At(1))
          .status(),
      absl::StatusCode::kInvalidArgument,
      "straight 17: 199 is below the minimum of 200 (RFD-10)");
  ExpectRejected(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 100), At(1)).status(),
      absl::StatusCode::kInvalidArgument,
      "red: 100 is below the minimum of 200 (RFD-10)");
  EXPECT_TRUE(table.BetsOf("ana").empty());
  EXPECT_TRUE(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 200), At(1)).ok());
  // Each chip of a call bet is a bet on its own chance: 900 is 100 a unit.
  ExpectRejected(
      table.PlaceBet("ana", "b2", Bet(BetKind::kTiers, {}, 600), At(1))
          .status(),
      absl::StatusCode::kInvalidArgument,
      "split 5-8: 100 is below the minimum of 200 (RFD-10)");

  config.chance_min[ChanceIndex(Chance::kRed)] = 500;
  ExpectRejected(config.Validate(), absl::StatusCode::kInvalidArgument,
                 "roulette config: chance_min must be empty on a French "
                 "table: one minimum for every chance (RFD-10)");
}

TEST(AmericanRoulette, MinimumPerChance_RA_10) {
  TableConfig config;
  config.wheel = WheelKind::kAmericanDoubleZero;
  config.min_bet = 100;
  config.chance_min[ChanceIndex(Chance::kRed)] = 500;
  Table table = Make(config);
  ExpectRejected(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 400), At(1)).status(),
      absl::StatusCode::kInvalidArgument,
      "red: 400 is below the minimum of 500 (RA-10)");
  EXPECT_TRUE(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 500), At(1)).ok());
  EXPECT_TRUE(
      table.PlaceBet("ana", "b2", Bet(BetKind::kStraight, {OO}, 100), At(1))
          .ok());
}

// RFD-11: the maximum per chance is 30 × the minimum per number covered;
// digest gap 9: it caps the total on each position, call-bet chips
// included.
TEST(RouletteTable, MaximumPerChanceIsAMultipleOfTheMinimum_RFD_11) {
  const std::pair<Chance, int> ratios[] = {
      {Chance::kStraight, 30},     {Chance::kSplit, 60},
      {Chance::kStreet, 90},       {Chance::kCorner, 120},
      {Chance::kLine, 180},        {Chance::kDozen, 360},
      {Chance::kColumn, 360},      {Chance::kDozenSplit, 720},
      {Chance::kColumnSplit, 720}, {Chance::kEven, 540},
      {Chance::kOdd, 540},         {Chance::kLow, 540},
      {Chance::kHigh, 540},        {Chance::kRed, 540},
      {Chance::kBlack, 540}};
  TableConfig config;
  config.min_bet = 100;
  for (auto [chance, ratio] : ratios) {
    EXPECT_EQ(config.MaxBet(chance), 100 * ratio) << RulesOf(chance).name;
  }
  Table table = Make(config);
  EXPECT_TRUE(
      table.PlaceBet("ana", "b1", Bet(BetKind::kStraight, {17}, 2000), At(1))
          .ok());
  ExpectRejected(
      table.PlaceBet("ana", "b2", Bet(BetKind::kStraight, {17}, 1001), At(1))
          .status(),
      absl::StatusCode::kInvalidArgument,
      "straight 17: 3001 on the position is above the maximum of 3000 "
      "(RFD-11: 30 x the minimum)");
  EXPECT_TRUE(
      table.PlaceBet("ana", "b2", Bet(BetKind::kStraight, {17}, 1000), At(1))
          .ok());
  // Another player has a position of their own.
  EXPECT_TRUE(
      table.PlaceBet("rui", "b1", Bet(BetKind::kStraight, {17}, 3000), At(1))
          .ok());
  // Voisins puts two units on the 0-2-3 street: 9 × 1000 puts 2000 there.
  EXPECT_TRUE(
      table.PlaceBet("ana", "b3", Bet(BetKind::kStreet, {0, 2, 3}, 7001), At(1))
          .ok());
  ExpectRejected(
      table.PlaceBet("ana", "b4", Bet(BetKind::kVoisins, {}, 9000), At(1))
          .status(),
      absl::StatusCode::kInvalidArgument,
      "street 0-2-3: 9001 on the position is above the maximum of 9000 "
      "(RFD-11: 90 x the minimum)");
  EXPECT_EQ(table.BetsOf("ana").size(), 3u);
  ASSERT_TRUE(table.Withdraw("ana", "b3", At(2)).ok());
  EXPECT_TRUE(
      table.PlaceBet("ana", "b4", Bet(BetKind::kVoisins, {}, 9000), At(2))
          .ok());
}

TEST(AmericanRoulette, MaxBetOverridesPerNumberCovered_RA_Decision) {
  TableConfig config;
  config.wheel = WheelKind::kAmericanSingleZero;
  config.min_bet = 100;
  config.max_per_number = 5000;
  EXPECT_EQ(config.MaxBet(Chance::kStraight), 5000);
  EXPECT_EQ(config.MaxBet(Chance::kRed), 90000);
  Table table = Make(config);
  ExpectRejected(
      table.PlaceBet("ana", "b1", Bet(BetKind::kSplit, {0, 1}, 10001), At(1))
          .status(),
      absl::StatusCode::kInvalidArgument,
      "split 0-1: 10001 on the position is above the maximum of 10000 (the "
      "table's max_bet x the numbers covered)");
  TableConfig french;
  french.max_per_number = 5000;
  ExpectRejected(french.Validate(), absl::StatusCode::kInvalidArgument,
                 "roulette config: max_bet is fixed by the RFD-11 ratios on a "
                 "French table");
}

TEST(RouletteTable, BettingWindowIsAtLeastThirtySeconds_RFD_13) {
  TableConfig config;
  config.betting_window = absl::Seconds(29);
  ExpectRejected(Table::Create(config, T0()).status(),
                 absl::StatusCode::kInvalidArgument,
                 "roulette config: betting_window must be 30 s (RFD-13) to "
                 "10 min, got 29s");
  config.betting_window = absl::Seconds(30);
  EXPECT_TRUE(Table::Create(config, T0()).ok());
}

// RFD-14: the window opens with the settlement of the last round and
// closes at the exact moment the ball is launched.
TEST(RouletteTable, BettingClosesAtTheLaunch_RFD_14) {
  Table table = Make();
  EXPECT_EQ(table.BettingClosesAt(), At(30));
  ASSERT_TRUE(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 100), At(29)).ok());
  ExpectRejected(
      table.PlaceBet("ana", "b2", Outside(BetKind::kRed, 100), At(30)).status(),
      absl::StatusCode::kFailedPrecondition,
      "no more bets: the betting window has just closed (RFD-14)");
  ExpectRejected(table.Withdraw("ana", "b1", At(31)).status(),
                 absl::StatusCode::kFailedPrecondition,
                 "no more bets: the betting window closed 1s ago (RFD-14)");
  ASSERT_TRUE(table.Launch(At(31)).ok());
  EXPECT_EQ(table.phase(), Table::Phase::kSpinning);
  ExpectRejected(
      table.PlaceBet("ana", "b2", Outside(BetKind::kRed, 100), At(32)).status(),
      absl::StatusCode::kFailedPrecondition,
      "no more bets: the ball has been launched (RFD-14)");
  ASSERT_TRUE(table.Stop({1, 9, false}, At(40)).ok());
  // RFD-22: a new round, whose window opens now.
  EXPECT_EQ(table.round(), 2);
  EXPECT_EQ(table.BettingClosesAt(), At(70));
  EXPECT_TRUE(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 100), At(41)).ok());
}

// RFD-13/15 and RF-5: one window for every player at a multi-player wheel,
// and one result, common to all.
TEST(RouletteTable, OneWindowAndOneResultForAllPlayers_RFD_15_RF_5) {
  Table table = Make();
  ExpectRejected(table.Launch(At(29)).status(),
                 absl::StatusCode::kFailedPrecondition,
                 "the betting window is open for another 1s (RFD-13)");
  ASSERT_TRUE(
      table.PlaceBet("ana", "a", Bet(BetKind::kStraight, {7}, 100), At(5))
          .ok());
  ASSERT_TRUE(
      table.PlaceBet("rui", "r", Outside(BetKind::kBlack, 100), At(20)).ok());
  ExpectRejected(
      table.PlaceBet("eva", "e", Outside(BetKind::kRed, 100), At(30)).status(),
      absl::StatusCode::kFailedPrecondition,
      "no more bets: the betting window has just closed (RFD-14)");
  RoundSettled settled = SettleOn(table, 7, At(30));
  ASSERT_EQ(settled.bets.size(), 2u);
  EXPECT_EQ(settled.pocket, 7);
  EXPECT_EQ(settled.bets[0].player, "rui");  // lost (7 is red)
  EXPECT_EQ(settled.bets[0].returned, 0);
  EXPECT_EQ(settled.bets[1].player, "ana");
  EXPECT_EQ(settled.bets[1].returned, 3600);
}

// RF-4 and RFD-16: an individual wheel is one player's; the player
// launches the ball after betting, with no timer (digest gap 10).
TEST(RouletteTable, IndividualWheelThePlayerLaunches_RF_4_RFD_16) {
  Table table = Make(Individual());
  EXPECT_EQ(table.BettingClosesAt(), std::nullopt);
  ExpectRejected(
      table.Launch(At(1)).status(), absl::StatusCode::kFailedPrecondition,
      "the player launches the ball after betting (RFD-16); no bets");
  ASSERT_TRUE(
      table.PlaceBet("ana", "b1", Outside(BetKind::kOdd, 100), At(500)).ok());
  ExpectRejected(
      table.PlaceBet("rui", "b1", Outside(BetKind::kOdd, 100), At(500))
          .status(),
      absl::StatusCode::kFailedPrecondition,
      "this individual wheel is ana's (RF-4)");
  RoundSettled settled = SettleOn(table, 3, At(501));  // 1 s after betting
  EXPECT_EQ(settled.total_returned, 200);

  TableConfig bad = Individual();
  bad.players = WheelMode::kMultiPlayer;
  ExpectRejected(bad.Validate(), absl::StatusCode::kInvalidArgument,
                 "roulette config: launch by the player is for individual "
                 "wheels only (RFD-15/16)");
}

TEST(RouletteTable, LaunchesAlternateDirection_RFD_17) {
  Table table = Make(Individual());
  std::vector<LaunchDirection> seen;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(table
                    .PlaceBet("ana", absl::StrCat("b", i),
                              Outside(BetKind::kOdd, 100), At(i))
                    .ok());
    absl::StatusOr<BallLaunched> launched = table.Launch(At(i));
    ASSERT_TRUE(launched.ok());
    seen.push_back(launched->direction);
    ASSERT_TRUE(table.Stop({1, 5, false}, At(i)).ok());
  }
  EXPECT_THAT(seen, ElementsAre(LaunchDirection::kLeftToRight,
                                LaunchDirection::kRightToLeft,
                                LaunchDirection::kLeftToRight,
                                LaunchDirection::kRightToLeft));
}

// RFD-18/19: the number is marked, losing bets are collected first, then
// winning bets are paid; RFD-12: a winning bet returns its stake too.
TEST(RouletteTable, LosersCollectedThenWinnersPaid_RFD_18_RFD_19) {
  Table table = Make();
  ASSERT_TRUE(
      table.PlaceBet("ana", "w1", Outside(BetKind::kEven, 100), At(1)).ok());
  ASSERT_TRUE(
      table.PlaceBet("rui", "l1", Outside(BetKind::kOdd, 100), At(2)).ok());
  ASSERT_TRUE(
      table.PlaceBet("ana", "w2", Outside(BetKind::kDozen, 100, {3}), At(3))
          .ok());
  ASSERT_TRUE(
      table.PlaceBet("eva", "l2", Bet(BetKind::kStraight, {0}, 100), At(4))
          .ok());
  RoundSettled settled = SettleOn(table, 36, At(30));
  EXPECT_EQ(settled.pocket, 36);
  EXPECT_EQ(settled.colour, Colour::kRed);
  std::vector<std::string> order;
  for (const BetSettlement& b : settled.bets) order.push_back(b.bet_id);
  EXPECT_THAT(order, ElementsAre("l1", "l2", "w1", "w2"));
  EXPECT_EQ(settled.total_staked, 400);
  EXPECT_EQ(settled.total_returned, 200 + 300);
}

// A call bet settles as one bet whose chips are ordinary bets.
TEST(RouletteTable, CallBetSettlesChipByChip_RF_8) {
  Table table = Make();
  ASSERT_TRUE(
      table.PlaceBet("ana", "v", Bet(BetKind::kVoisins, {}, 900), At(1)).ok());
  RoundSettled settled = SettleOn(table, 2, At(30));
  ASSERT_EQ(settled.bets.size(), 1u);
  // 2 is on the 0-2-3 street (two units): 200 × 12.
  EXPECT_EQ(settled.bets[0].stake, 900);
  EXPECT_EQ(settled.bets[0].returned, 2400);
  EXPECT_EQ(settled.bets[0].chips.size(), 7u);

  TableConfig none;
  none.call_bets = false;
  Table plain = Make(none);
  ExpectRejected(
      plain.PlaceBet("ana", "v", Bet(BetKind::kVoisins, {}, 900), At(1))
          .status(),
      absl::StatusCode::kFailedPrecondition,
      "this table offers no call bets (RF-8)");
}

// RFD-23a/24: fewer than 3 revolutions: the spin does not count, the bets
// stay and may be kept, changed or withdrawn before the next launch.
TEST(RouletteTable, FewerThanThreeRevolutionsIsInvalid_RFD_23a_RFD_24) {
  Table table = Make();
  ASSERT_TRUE(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 100), At(1)).ok());
  ASSERT_TRUE(
      table.PlaceBet("ana", "b2", Outside(BetKind::kOdd, 100), At(1)).ok());
  absl::StatusOr<SpinResult> r = table.Spin({1, 2, false}, At(30));
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(std::holds_alternative<SpinInvalid>(*r));
  EXPECT_EQ(std::get<SpinInvalid>(*r).reason,
            SpinInvalid::Reason::kTooFewRevolutions);
  EXPECT_EQ(table.round(), 1);
  EXPECT_EQ(table.BetsOf("ana").size(), 2u);
  EXPECT_TRUE(table.History().empty());
  // The window reopens: withdraw one, change another, keep the rest.
  EXPECT_EQ(table.BettingClosesAt(), At(60));
  absl::StatusOr<BetWithdrawn> w = table.Withdraw("ana", "b2", At(31));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->stake, 100);
  ASSERT_TRUE(
      table.PlaceBet("ana", "b3", Outside(BetKind::kBlack, 100), At(32)).ok());
  ExpectRejected(
      table.PlaceBet("ana", "b2", Outside(BetKind::kOdd, 100), At(32)).status(),
      absl::StatusCode::kFailedPrecondition,
      "bet id b2 is already used in round 1");
  absl::StatusOr<SpinResult> again = table.Spin({1, 3, false}, At(60));
  ASSERT_TRUE(again.ok());
  const RoundSettled& settled = std::get<RoundSettled>(*again);
  EXPECT_EQ(settled.round, 1);
  EXPECT_EQ(settled.total_staked, 200);
  EXPECT_EQ(settled.total_returned, 200);  // red wins, black loses
}

// RFD-23b: a breakdown that stops the launch before the ball rests.
TEST(RouletteTable, InterruptedLaunchIsInvalid_RFD_23b) {
  Table table = Make();
  ASSERT_TRUE(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 100), At(1)).ok());
  absl::StatusOr<SpinResult> r = table.Spin({5, 10, true}, At(30));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(std::get<SpinInvalid>(*r).reason,
            SpinInvalid::Reason::kInterrupted);
  EXPECT_EQ(table.BetsOf("ana").size(), 1u);
  // A system failure while the ball spins is the same thing.
  ASSERT_TRUE(table.Launch(At(60)).ok());
  absl::StatusOr<FailureResult> failed = table.Fail(At(61));
  ASSERT_TRUE(failed.ok());
  ASSERT_TRUE(std::holds_alternative<SpinInvalid>(*failed));
  EXPECT_EQ(std::get<SpinInvalid>(*failed).attempt, 2);
  EXPECT_EQ(table.BetsOf("ana").size(), 1u);
  EXPECT_EQ(table.phase(), Table::Phase::kBetting);
}

// RFD-25/26: the player's own connection failing voids nothing: the bet
// is settled as usual.
TEST(RouletteTable, PlayerDisconnectionVoidsNothing_RFD_25_RFD_26) {
  Table table = Make();
  ASSERT_TRUE(
      table.PlaceBet("ana", "b1", Bet(BetKind::kStraight, {9}, 100), At(1))
          .ok());
  ASSERT_TRUE(table.Disconnect("ana").ok());
  EXPECT_EQ(table.Connected("ana"), false);
  RoundSettled settled = SettleOn(table, 9, At(30));
  EXPECT_EQ(settled.bets[0].returned, 3600);
  ASSERT_TRUE(table.Reconnect("ana").ok());
  EXPECT_EQ(table.Connected("ana"), true);
  ExpectRejected(table.Disconnect("zed"), absl::StatusCode::kNotFound,
                 "zed has not played at this table");
}

// The gaming system failing while bets are open voids the round and
// refunds every stake (DESIGN "Game engines").
TEST(RouletteTable, SystemFailureVoidsTheRoundAndRefunds_Decision) {
  Table table = Make();
  ASSERT_TRUE(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 100), At(1)).ok());
  ASSERT_TRUE(
      table.PlaceBet("rui", "b1", Outside(BetKind::kRed, 300), At(2)).ok());
  ASSERT_TRUE(
      table.PlaceBet("ana", "b2", Outside(BetKind::kOdd, 200), At(3)).ok());
  absl::StatusOr<FailureResult> failed = table.Fail(At(10));
  ASSERT_TRUE(failed.ok());
  const RoundVoided& voided = std::get<RoundVoided>(*failed);
  EXPECT_EQ(voided.round, 1);
  ASSERT_EQ(voided.refunds.size(), 3u);
  EXPECT_EQ(voided.refunds[0].player, "ana");
  EXPECT_EQ(voided.refunds[1].player, "rui");
  EXPECT_EQ(voided.refunds[1].stake, 300);
  EXPECT_EQ(voided.refunds[2].bet_id, "b2");
  EXPECT_TRUE(table.BetsOf("ana").empty());
  EXPECT_EQ(table.round(), 2);
  EXPECT_EQ(table.BettingClosesAt(), At(40));
  EXPECT_TRUE(table.History().empty());
}

// RF-6e: the last winning numbers and their colour.
TEST(RouletteTable, LastNumbersWithTheirColours_RF_6e) {
  TableConfig config = Individual();
  config.history_size = 3;
  Table table = Make(config);
  int t = 0;
  for (Pocket p : {0, 1, 2, 3}) {
    ASSERT_TRUE(table
                    .PlaceBet("ana", absl::StrCat("b", t),
                              Outside(BetKind::kRed, 100), At(t))
                    .ok());
    SettleOn(table, p, At(t++));
  }
  std::vector<std::pair<Pocket, Colour>> seen;
  for (const PastNumber& n : table.History())
    seen.push_back({n.pocket, n.colour});
  EXPECT_THAT(seen, ElementsAre(std::pair(3, Colour::kRed),
                                std::pair(2, Colour::kBlack),
                                std::pair(1, Colour::kRed)));
}

// RFD-27: a replay of at least the last three rounds the player took part
// in (only theirs: rounds without their bets do not count).
TEST(RouletteTable, ReplayOfThePlayersLastThreeRounds_RFD_27) {
  Table table = Make();
  int t = 0;
  for (Pocket p : {5, 6, 7, 8}) {
    ASSERT_TRUE(table
                    .PlaceBet("ana", absl::StrCat("a", p),
                              Bet(BetKind::kStraight, {p}, 100), At(t))
                    .ok());
    t += 30;
    SettleOn(table, p, At(t));
  }
  ASSERT_TRUE(
      table.PlaceBet("rui", "r", Bet(BetKind::kStraight, {1}, 100), At(t))
          .ok());
  t += 30;
  SettleOn(table, 9, At(t));
  std::vector<ReplayRound> replay = table.Replay("ana");
  ASSERT_EQ(replay.size(), 3u);
  EXPECT_EQ(replay[0].round, 4);
  EXPECT_EQ(replay[0].pocket, 8);
  EXPECT_EQ(replay[2].round, 2);
  ASSERT_EQ(replay[0].bets.size(), 1u);
  EXPECT_EQ(replay[0].bets[0].returned, 3600);
  EXPECT_EQ(table.Replay("rui").size(), 1u);
  EXPECT_TRUE(table.Replay("zed").empty());
  TableConfig config;
  config.replay_rounds = 2;
  ExpectRejected(config.Validate(), absl::StatusCode::kInvalidArgument,
                 "roulette config: replay_rounds must be 3 (RFD-27) to 100");
}

// RFD-29: the amounts bet in the session and the profit or loss.
TEST(RouletteTable, SessionTotalsAndLeaving_RFD_29_RFD_30) {
  Table table = Make();
  ASSERT_TRUE(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 100), At(1)).ok());
  SettleOn(table, 1, At(30));
  ASSERT_TRUE(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 500), At(31)).ok());
  SettleOn(table, 2, At(60));
  EXPECT_EQ(table.Totals("ana"),
            (SessionTotals{
                .staked = 600, .returned = 200, .net = -400, .rounds = 2}));
  EXPECT_EQ(table.Totals("zed"), std::nullopt);
  // RFD-30: leaving ends the session with its totals and frees the place.
  ASSERT_TRUE(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 100), At(61)).ok());
  ExpectRejected(table.Leave("ana").status(),
                 absl::StatusCode::kFailedPrecondition,
                 "ana has bets on the table: withdraw them or wait for the "
                 "spin");
  ASSERT_TRUE(table.Withdraw("ana", "b1", At(62)).ok());
  absl::StatusOr<SessionTotals> left = table.Leave("ana");
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(left->net, -400);
  EXPECT_EQ(table.Totals("ana"), std::nullopt);
  ExpectRejected(table.Leave("ana").status(), absl::StatusCode::kNotFound,
                 "ana has not played at this table");
}

TEST(RouletteTable, BadCommandsChangeNothing) {
  Table table = Make();
  ASSERT_TRUE(
      table.PlaceBet("ana", "b1", Outside(BetKind::kRed, 100), At(5)).ok());
  ExpectRejected(
      table.PlaceBet("ana", "b2", Outside(BetKind::kRed, 100), At(4)).status(),
      absl::StatusCode::kInvalidArgument,
      "time went backwards: 2023-11-14T22:13:24+00:00 is before "
      "2023-11-14T22:13:25+00:00");
  ExpectRejected(
      table.PlaceBet("", "b2", Outside(BetKind::kRed, 100), At(5)).status(),
      absl::StatusCode::kInvalidArgument, "player must be 1..64 characters");
  ExpectRejected(table
                     .PlaceBet("ana", std::string(65, 'x'),
                               Outside(BetKind::kRed, 100), At(5))
                     .status(),
                 absl::StatusCode::kInvalidArgument,
                 "bet id must be 1..64 characters");
  ExpectRejected(
      table.PlaceBet("ana", "b1", Outside(BetKind::kBlack, 100), At(5))
          .status(),
      absl::StatusCode::kFailedPrecondition,
      "bet id b1 is already used in round 1");
  ExpectRejected(
      table.PlaceBet("ana", "b2", Bet(BetKind::kSplit, {1, 5}, 100), At(5))
          .status(),
      absl::StatusCode::kInvalidArgument,
      "split 1-5 is not two bordering numbers on the board (RFD-7)");
  ExpectRejected(table.Withdraw("ana", "nope", At(5)).status(),
                 absl::StatusCode::kNotFound, "ana has no live bet nope");
  ExpectRejected(table.Stop({1, 5, false}, At(5)).status(),
                 absl::StatusCode::kFailedPrecondition,
                 "the ball has not been launched");
  ExpectRejected(table.Spin({37, 5, false}, At(30)).status(),
                 absl::StatusCode::kInvalidArgument,
                 "number 37 is not on the wheel (0..36)");
  ExpectRejected(table.Spin({OO, 5, false}, At(30)).status(),
                 absl::StatusCode::kInvalidArgument,
                 "00 is only on a double-zero wheel");
  ExpectRejected(table.Spin({1, -1, false}, At(30)).status(),
                 absl::StatusCode::kInvalidArgument,
                 "revolutions must be 0..10000, got -1");
  EXPECT_EQ(table.phase(), Table::Phase::kBetting);
  EXPECT_EQ(table.round(), 1);
  ASSERT_EQ(table.BetsOf("ana").size(), 1u);
  EXPECT_EQ(table.BetsOf("ana")[0].stake, 100);
  ASSERT_TRUE(table.Launch(At(30)).ok());
  ExpectRejected(table.Launch(At(30)).status(),
                 absl::StatusCode::kFailedPrecondition,
                 "the ball is already spinning");

  TableConfig few;
  few.max_bets_per_player = 1;
  Table small = Make(few);
  ASSERT_TRUE(
      small.PlaceBet("ana", "b1", Outside(BetKind::kRed, 100), At(1)).ok());
  ExpectRejected(
      small.PlaceBet("ana", "b2", Outside(BetKind::kRed, 100), At(1)).status(),
      absl::StatusCode::kResourceExhausted,
      "at most 1 bets per player in a round");
  few.max_players = 1;
  Table lonely = Make(few);
  ASSERT_TRUE(
      lonely.PlaceBet("ana", "b1", Outside(BetKind::kRed, 100), At(1)).ok());
  ExpectRejected(
      lonely.PlaceBet("rui", "b1", Outside(BetKind::kRed, 100), At(1)).status(),
      absl::StatusCode::kResourceExhausted,
      "the wheel has its maximum of 1 players");
}

TEST(RouletteTable, BadConfigsAreRejected) {
  TableConfig c;
  c.min_bet = 0;
  ExpectRejected(c.Validate(), absl::StatusCode::kInvalidArgument,
                 "roulette config: min_bet must be positive");
  c = TableConfig{};
  c.history_size = 0;
  ExpectRejected(c.Validate(), absl::StatusCode::kInvalidArgument,
                 "roulette config: history_size must be 1..500");
  c = TableConfig{};
  c.wheel = WheelKind::kAmericanDoubleZero;
  c.min_bet = 100;
  c.max_per_number = 50;
  ExpectRejected(c.Validate(), absl::StatusCode::kInvalidArgument,
                 "roulette config: max_bet for straight (50) is below its "
                 "minimum (100)");
}

// RFD-31a/32a: an individual wheel's player idle for more than three
// minutes is invited to end the session, warned a minute later, and the
// session ends a minute after that; a bet starts the count again.
TEST(RouletteTable, IdleIndividualPlayerInvitedWarnedThenEnded_RFD_31a_RFD_32) {
  Table table = Make(Individual());
  EXPECT_TRUE(table.CheckInactivity(At(1000)).empty());  // nobody yet
  ASSERT_TRUE(
      table.PlaceBet("ana", "b", Outside(BetKind::kOdd, 100), At(0)).ok());
  SettleOn(table, 1, At(0));
  EXPECT_TRUE(table.CheckInactivity(At(180)).empty());  // not more than 3 min
  auto kinds = [&](int t) {
    std::vector<SessionNotice::Kind> out;
    for (const SessionNotice& n : table.CheckInactivity(At(t))) {
      EXPECT_EQ(n.player, "ana");
      out.push_back(n.kind);
    }
    return out;
  };
  EXPECT_THAT(kinds(181), ElementsAre(SessionNotice::Kind::kInvited));
  EXPECT_THAT(kinds(200), ElementsAre());
  EXPECT_THAT(kinds(241), ElementsAre(SessionNotice::Kind::kWarned));
  ASSERT_TRUE(
      table.PlaceBet("ana", "b2", Outside(BetKind::kOdd, 100), At(250)).ok());
  SettleOn(table, 1, At(250));
  EXPECT_THAT(kinds(400), ElementsAre());
  EXPECT_THAT(kinds(431), ElementsAre(SessionNotice::Kind::kInvited));
  EXPECT_THAT(kinds(491), ElementsAre(SessionNotice::Kind::kWarned));
  EXPECT_THAT(kinds(551), ElementsAre(SessionNotice::Kind::kEnded));
  // The operator ends the session; the wheel stays ana's, and nothing more
  // is said until she bets again (no idle time without a session).
  ASSERT_TRUE(table.Leave("ana").ok());
  EXPECT_THAT(kinds(552), ElementsAre());
  EXPECT_THAT(kinds(5000), ElementsAre());
  EXPECT_FALSE(table.Totals("ana").has_value());
  ASSERT_TRUE(
      table.PlaceBet("ana", "b3", Outside(BetKind::kOdd, 100), At(5000)).ok());
  SettleOn(table, 1, At(5000));
  EXPECT_THAT(kinds(5181), ElementsAre(SessionNotice::Kind::kInvited));
}

// RFD-31b/32b: on a multi-player wheel, more than 5 consecutive rounds
// without a bet: invitation (6th), warning (7th), end (8th).
TEST(RouletteTable, IdleMultiPlayerInvitedAfterFiveRounds_RFD_31b_RFD_32) {
  Table table = Make();
  int t = 0;
  ASSERT_TRUE(
      table.PlaceBet("ana", "b", Outside(BetKind::kOdd, 100), At(t)).ok());
  std::vector<std::vector<SessionNotice::Kind>> seen;
  for (int round = 0; round < 9; ++round) {
    ASSERT_TRUE(table
                    .PlaceBet("rui", absl::StrCat("r", round),
                              Outside(BetKind::kOdd, 100), At(t))
                    .ok());
    t += 30;
    RoundSettled settled = SettleOn(table, 1, At(t));
    std::vector<SessionNotice::Kind> kinds;
    for (const SessionNotice& n : settled.notices) {
      EXPECT_EQ(n.player, "ana");
      kinds.push_back(n.kind);
    }
    seen.push_back(kinds);
  }
  using K = SessionNotice::Kind;
  // Round 1 ana bet; rounds 2..6 are her 1st..5th idle rounds.
  for (int i = 0; i < 6; ++i) EXPECT_TRUE(seen[i].empty()) << i;
  EXPECT_THAT(seen[6], ElementsAre(K::kInvited));
  EXPECT_THAT(seen[7], ElementsAre(K::kWarned));
  EXPECT_THAT(seen[8], ElementsAre(K::kEnded));

  TableConfig quiet;
  quiet.invite_inactive = false;
  Table silent = Make(quiet);
  ASSERT_TRUE(
      silent.PlaceBet("ana", "b", Outside(BetKind::kOdd, 100), At(0)).ok());
  for (int round = 0; round < 8; ++round) {
    RoundSettled settled = SettleOn(silent, 1, At(30 * (round + 1)));
    EXPECT_TRUE(settled.notices.empty());
  }
}

}  // namespace
}  // namespace banca::games::roulette
