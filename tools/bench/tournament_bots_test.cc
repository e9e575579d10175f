// The tournament bots' pure parts: the policy on a turn, and the checks of
// a finished run (tools/run-tournament-e2e runs the whole).
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tools/bench/tournament_bot_policy.h"
#include "tools/bench/tournament_bots_checks.h"
#include "tools/bench/tournament_bots_config.h"

namespace banca::bench {
namespace {

using ::testing::HasSubstr;

v1::TournamentTableView Turn(std::vector<v1::PokerActionType> legal) {
  v1::TournamentTableView v;
  v.set_my_seat(1);
  v.set_big_blind(100);
  for (v1::PokerActionType a : legal) v.mutable_legal()->add_actions(a);
  return v;
}

void AddSeat(v1::TournamentTableView& v, int seat, int64_t bet, bool all_in) {
  v1::SeatState* s = v.add_seats();
  s->set_seat(seat);
  s->set_player_id("p" + std::to_string(seat));
  s->set_bet_minor(bet);
  s->set_all_in(all_in);
  s->set_in_hand(true);
}

constexpr auto kFold = v1::POKER_ACTION_TYPE_FOLD;
constexpr auto kCheck = v1::POKER_ACTION_TYPE_CHECK;
constexpr auto kCall = v1::POKER_ACTION_TYPE_CALL;
constexpr auto kAllIn = v1::POKER_ACTION_TYPE_ALL_IN;

TEST(TournamentBotPolicy, LooseGoesAllInAndCallsAllIns) {
  v1::TournamentTableView facing = Turn({kFold, kCall, kAllIn});
  AddSeat(facing, 1, 0, false);
  AddSeat(facing, 2, 100, false);
  EXPECT_EQ(DecideTournamentAction(facing, BotMood::kLoose, 0).action, kAllIn);
  EXPECT_EQ(DecideTournamentAction(facing, BotMood::kLoose, 50).action, kCall);
  EXPECT_EQ(DecideTournamentAction(facing, BotMood::kLoose, 99).action, kFold);
  AddSeat(facing, 3, 1'500, true);  // an all-in is called less often
  EXPECT_EQ(DecideTournamentAction(facing, BotMood::kLoose, 20).action, kCall);
  EXPECT_EQ(DecideTournamentAction(facing, BotMood::kLoose, 50).action, kFold);
  const v1::TournamentTableView free = Turn({kCheck, kAllIn});
  EXPECT_EQ(DecideTournamentAction(free, BotMood::kLoose, 99).action, kCheck);
}

TEST(TournamentBotPolicy, OnTheBubbleOnlyLimpsChecksAndFolds) {
  v1::TournamentTableView limp = Turn({kFold, kCall, kAllIn});
  limp.mutable_legal()->set_call_minor(100);
  AddSeat(limp, 1, 0, false);
  limp.mutable_seats(0)->set_stack_minor(1'000);
  AddSeat(limp, 2, 100, false);  // the big blind
  EXPECT_EQ(DecideTournamentAction(limp, BotMood::kBubble, 0).action, kCall);
  EXPECT_EQ(DecideTournamentAction(limp, BotMood::kBubble, 80).action, kFold);
  v1::TournamentTableView short_stack = limp;
  short_stack.mutable_seats(0)->set_stack_minor(100);  // its last chips
  EXPECT_EQ(DecideTournamentAction(short_stack, BotMood::kBubble, 0).action,
            kFold);
  v1::TournamentTableView shove = limp;
  AddSeat(shove, 3, 900, true);
  for (uint32_t roll : {0u, 50u, 99u}) {
    EXPECT_EQ(DecideTournamentAction(shove, BotMood::kBubble, roll).action,
              kFold);
  }
  const v1::TournamentTableView free = Turn({kCheck, kAllIn});
  EXPECT_EQ(DecideTournamentAction(free, BotMood::kBubble, 0).action, kCheck);
}

TEST(TournamentBotPolicy, TheBubbleIsTheFewHandsBeforeThePaidPlaces) {
  EXPECT_EQ(MoodFor(14, 8), BotMood::kLoose);
  EXPECT_EQ(MoodFor(13, 8), BotMood::kBubble);
  EXPECT_EQ(MoodFor(9, 8), BotMood::kBubble);
  EXPECT_EQ(MoodFor(8, 8), BotMood::kLoose);
}

// A finished 10-player run that passes every check: prizes as fixed,
// two players out in one hand at places 9 and 10.
class TournamentRunChecks : public ::testing::Test {
 protected:
  static constexpr int kPlayers = 10;

  TournamentRunChecks() {
    info_.set_phase(v1::TOURNAMENT_PHASE_FINISHED);
    info_.set_entrants(kPlayers);
    info_.set_prizes_fixed(true);
    // 12 payments (10 buy-ins, a rebuy, an add-on): a pool of 10,800.
    info_.set_prize_pool_minor(10'800);
    for (int64_t p : {3'240, 2'160, 1'512, 1'080, 864, 756, 648, 540}) {
      info_.add_prizes_minor(p);
    }
    for (int i = 0; i < kPlayers; ++i) {
      const std::string player = "p" + std::to_string(i);
      v1::TournamentStanding* s = standings_.add_standings();
      s->set_player_id(player);
      s->set_place(i + 1);
      s->set_prize_minor(i < 8 ? info_.prizes_minor(i) : 0);
      money_.cash[player] = 10'000 - kBotPriceMinor + s->prize_minor();
    }
    money_.deposit_each = 10'000;
    money_.house_minor = 1'200;
    record_.away_player = "p9";
    record_.tables_at_start = 2;
    record_.rebuys["p0"] = 1;
    record_.addons["p0"] = 1;
    money_.cash["p0"] -= 2 * kBotPriceMinor;
    record_.hand_for_hand_seen = true;
    record_.table_moves = 3;
    record_.eliminations = {{"p9", "t2", 7}, {"p8", "t2", 7}, {"p7", "t1", 9}};
    record_.hands_before_restart = 60;
    record_.hands_at_resume = 61;
  }

  RunVerdict Check() const {
    return CheckTournamentRun(info_, standings_, record_, money_, kPlayers,
                              /*seats_per_table=*/8);
  }

  v1::TournamentInfo info_;
  v1::TournamentStandings standings_;
  BotsRecord record_;
  MoneyFacts money_;
};

TEST_F(TournamentRunChecks, AFinishedRunPasses) {
  const RunVerdict v = Check();
  EXPECT_THAT(v.failures, ::testing::IsEmpty());
  ASSERT_EQ(v.same_hand_eliminations.size(), 1u);
  EXPECT_THAT(v.same_hand_eliminations[0],
              ::testing::UnorderedElementsAre("p8", "p9"));
  EXPECT_EQ(v.ex_aequo_places, 0);
}

TEST_F(TournamentRunChecks, APrizeOffByACentFails) {
  standings_.mutable_standings(2)->set_prize_minor(1'513);
  money_.cash["p2"] += 1;
  standings_.mutable_standings(3)->set_prize_minor(1'079);
  money_.cash["p3"] -= 1;
  EXPECT_THAT(Check().failures,
              ::testing::Contains(HasSubstr("place 3 (1 players")));
}

TEST_F(TournamentRunChecks, ExAequoPlayersShareTheirPlacesPrizes) {
  // Places 3 and 4 ex aequo (TN-51): 1,512 + 1,080 shared.
  standings_.mutable_standings(3)->set_place(3);
  standings_.mutable_standings(2)->set_prize_minor(1'296);
  standings_.mutable_standings(3)->set_prize_minor(1'296);
  money_.cash["p2"] += 1'296 - 1'512;
  money_.cash["p3"] += 1'296 - 1'080;
  RunVerdict v = Check();
  EXPECT_THAT(v.failures, ::testing::IsEmpty());
  EXPECT_EQ(v.ex_aequo_places, 1);
  // Shared unevenly, it fails.
  standings_.mutable_standings(2)->set_prize_minor(1'298);
  standings_.mutable_standings(3)->set_prize_minor(1'294);
  money_.cash["p2"] += 2;
  money_.cash["p3"] -= 2;
  EXPECT_THAT(Check().failures,
              ::testing::Contains(HasSubstr("place 3 (2 players")));
}

TEST_F(TournamentRunChecks, MoneyNotAccountedForFails) {
  money_.tournament_accounts_minor = 5;
  EXPECT_THAT(
      Check().failures,
      ::testing::Contains(HasSubstr("the tournament's accounts hold 5")));
  money_.tournament_accounts_minor = 0;
  record_.addons["p1"] = 1;  // the bots counted a payment the cash lacks
  EXPECT_THAT(Check().failures, ::testing::Contains(HasSubstr("p1 paid 1000")));
  record_.uncertain.insert("p1");  // unless its call never answered
  EXPECT_THAT(Check().failures, ::testing::IsEmpty());
}

TEST_F(TournamentRunChecks, ABubblePassedInOneHandNeedsNoHandForHand) {
  // p8 (place 9, the bubble with 8 paid) and p9 (place 10) out in one hand:
  // the field went from 10 to 8 and was never one over the paid places.
  record_.hand_for_hand_seen = false;
  EXPECT_THAT(Check().failures, ::testing::IsEmpty());
  // Out in different hands, the bubble was reached and must be seen.
  record_.eliminations = {{"p9", "t2", 7}, {"p8", "t1", 8}, {"p7", "t1", 8}};
  EXPECT_THAT(Check().failures,
              ::testing::Contains("the bubble was never hand-for-hand"));
}

TEST_F(TournamentRunChecks, WhatTheRunMustGoThroughIsChecked) {
  record_.eliminations = {{"p9", "t2", 7}, {"p5", "t2", 7}};  // places apart
  record_.hand_for_hand_seen = false;
  record_.hands_at_resume = 59;
  record_.rebuys["p0"] = 0;
  money_.cash["p0"] += kBotPriceMinor;
  info_.set_prize_pool_minor(9'900);
  money_.house_minor = 1'100;
  // The pool of the 10 buy-ins and the add-on, as fixed.
  const std::vector<int64_t> prizes = {2'970, 1'980, 1'386, 990,
                                       792,   693,   594,   495};
  for (int i = 0; i < 8; ++i) {
    money_.cash["p" + std::to_string(i)] +=
        prizes[i] - standings_.standings(i).prize_minor();
    info_.set_prizes_minor(i, prizes[i]);
    standings_.mutable_standings(i)->set_prize_minor(prizes[i]);
  }
  const RunVerdict v = Check();
  EXPECT_TRUE(v.same_hand_eliminations.empty());
  EXPECT_THAT(v.failures,
              ::testing::UnorderedElementsAre(
                  "no rebuy was made", "the bubble was never hand-for-hand",
                  "no two players were seen going out in one hand",
                  HasSubstr("the restart lost hands")));
}

TEST(BotsRecord, RoundTripsThroughJson) {
  BotsRecord r;
  r.away_player = "e2e-b00";
  r.tables_at_start = 4;
  r.rebuys = {{"a", 2}};
  r.addons = {{"a", 1}, {"b", 0}};
  r.uncertain = {"b"};
  r.paid_back = 3;
  r.eliminations = {{"a", "t1", 12}};
  r.hand_for_hand_seen = true;
  r.hand_for_hand_from = 180;
  r.hand_for_hand_to = 190;
  r.table_moves = 7;
  r.sat_back = 2;
  r.actions = 900;
  r.errors = 1;
  r.first_error = "Act: 3 no";
  r.hands_before_restart = 60;
  r.hands_at_resume = 60;
  absl::StatusOr<BotsRecord> back =
      RecordFromJson(nlohmann::json::parse(RecordToJson(r).dump()));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(RecordToJson(*back), RecordToJson(r));
  EXPECT_EQ(RecordFromJson(nlohmann::json::object()).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace banca::bench
