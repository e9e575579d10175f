#include "libs/tables/roulette_table_state.h"

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace banca::tables {
namespace {

namespace rl = games::roulette;

constexpr int64_t kStart = 1'767'225'600'000'000;
constexpr int64_t kWindow = 30'000'000;  // RFD-13's 30 s

class RouletteStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    v1::BankedTableCreated created;
    created.set_table_id("t1");
    created.set_game(v1::BANKED_GAME_ROULETTE_FRENCH);
    absl::StatusOr<std::unique_ptr<RouletteTableState>> t =
        RouletteTableState::Create(created, kStart);
    ASSERT_TRUE(t.ok()) << t.status();
    table_ = *std::move(t);
  }

  absl::Status Apply(v1::BankedTableEvent e, int64_t at) {
    e.set_table_id("t1");
    e.set_at_micros(at);
    std::vector<v1::BankedTableEvent> derived;
    return table_->Apply(e, &derived);
  }

  // ana joins and bets `amount` on red; the wallet captures the stake.
  void BetRed(int64_t amount) {
    v1::BankedTableEvent join;
    join.mutable_joined()->set_player_id("ana");
    if (!table_->Joined("ana")) {
      ASSERT_TRUE(Apply(join, kStart).ok());
    }
    v1::PlaceBankedBetRequest bet;
    bet.set_round(table_->round());
    bet.set_amount_minor(amount);
    bet.mutable_roulette()->set_kind("red");
    absl::StatusOr<v1::BankedTableEvent> stake =
        table_->BetEvent("ana", bet, kStart);
    ASSERT_TRUE(stake.ok()) << stake.status();
    ASSERT_TRUE(Apply(*stake, kStart).ok());
    v1::BankedTableEvent captured;
    captured.mutable_stake_captured()->set_saga_id(
        stake->stake_requested().saga_id());
    ASSERT_TRUE(Apply(captured, kStart).ok());
  }

  v1::BankedTableEvent Spin(const std::string& number, int revolutions) {
    v1::BankedTableEvent e;
    e.mutable_spin()->set_round(table_->round());
    e.mutable_spin()->set_number(number);
    e.mutable_spin()->set_revolutions(revolutions);
    return e;
  }

  std::unique_ptr<RouletteTableState> table_;
};

TEST_F(RouletteStateTest, TheLastOutcomeIsTheSpinsResult_RFD19) {
  BetRed(100);
  ASSERT_TRUE(Apply(Spin("1", 10), kStart + kWindow).ok());
  const RouletteTableState::Outcome& last = table_->last_outcome();
  ASSERT_TRUE(last.spin.has_value());
  const auto* settled = std::get_if<rl::RoundSettled>(&*last.spin);
  ASSERT_NE(settled, nullptr);
  EXPECT_EQ(settled->round, 1);
  ASSERT_EQ(settled->bets.size(), 1u);
  EXPECT_EQ(settled->bets[0].player, "ana");
  EXPECT_EQ(settled->bets[0].returned, 200);  // 1 is red: even money
  EXPECT_FALSE(last.voided.has_value());
  EXPECT_EQ(table_->engine().round(), 2);
}

TEST_F(RouletteStateTest, AnInvalidSpinKeepsTheBets_RFD23a) {
  BetRed(100);
  ASSERT_TRUE(Apply(Spin("1", 2), kStart + kWindow).ok());
  const RouletteTableState::Outcome& last = table_->last_outcome();
  ASSERT_TRUE(last.spin.has_value());
  EXPECT_TRUE(std::holds_alternative<rl::SpinInvalid>(*last.spin));
  EXPECT_EQ(table_->engine().BetsOf("ana").size(), 1u);
}

TEST_F(RouletteStateTest, LeavingEndsTheSessionWithItsTotals_RFD29) {
  BetRed(100);
  ASSERT_TRUE(Apply(Spin("2", 10), kStart + kWindow).ok());  // black: lost
  v1::BankedTableEvent leave;
  leave.mutable_leaving()->set_player_id("ana");
  ASSERT_TRUE(Apply(leave, kStart + kWindow).ok());
  const RouletteTableState::Outcome& last = table_->last_outcome();
  ASSERT_EQ(last.ended.size(), 1u);
  EXPECT_EQ(last.ended[0].first, "ana");
  EXPECT_EQ(last.ended[0].second.staked, 100);
  EXPECT_EQ(last.ended[0].second.net, -100);
  EXPECT_FALSE(last.spin.has_value());
  // A refused event leaves no outcome behind.
  EXPECT_FALSE(Apply(leave, kStart + kWindow).ok());
  EXPECT_TRUE(table_->last_outcome().ended.empty());
}

TEST_F(RouletteStateTest, AVoidRefundsTheBoard) {
  BetRed(300);
  v1::BankedTableEvent e;
  e.mutable_void_requested()->set_round(1);
  ASSERT_TRUE(Apply(e, kStart + 1'000'000).ok());
  const RouletteTableState::Outcome& last = table_->last_outcome();
  ASSERT_TRUE(last.voided.has_value());
  ASSERT_EQ(last.voided->refunds.size(), 1u);
  EXPECT_EQ(last.voided->refunds[0].stake, 300);
}

// A repeat of a request is answered by its stake (banked_table_service):
// the state knows each recent request's stake and how a refused one ended,
// and forgets a captured one (its repeat answers the view).
TEST_F(RouletteStateTest, EachRecentRequestNamesItsStakeAndItsOutcome) {
  using State = StakeOutcome::State;
  v1::BankedTableEvent join;
  join.mutable_joined()->set_player_id("ana");
  ASSERT_TRUE(Apply(join, kStart).ok());
  auto stake = [&](const std::string& request) {
    v1::PlaceBankedBetRequest bet;
    bet.set_round(table_->round());
    bet.set_amount_minor(100);
    bet.mutable_roulette()->set_kind("red");
    absl::StatusOr<v1::BankedTableEvent> e =
        table_->BetEvent("ana", bet, kStart);
    EXPECT_TRUE(e.ok()) << e.status();
    e->set_request_id(request);
    EXPECT_TRUE(Apply(*e, kStart).ok());
    return e->stake_requested().saga_id();
  };
  EXPECT_EQ(table_->sagas().OutcomeOf("r0").state, State::kUnknown);
  const std::string first = stake("r0");
  EXPECT_EQ(table_->sagas().OutcomeOf("r0").state, State::kPending);
  EXPECT_EQ(table_->sagas().OutcomeOf("r0").saga_id, first);
  v1::BankedTableEvent refused;
  refused.mutable_stake_refused()->set_saga_id(first);
  refused.mutable_stake_refused()->set_reason("the wallet did not answer");
  refused.mutable_stake_refused()->set_timed_out(true);
  ASSERT_TRUE(Apply(refused, kStart).ok());
  StakeOutcome out = table_->sagas().OutcomeOf("r0");
  EXPECT_EQ(out.state, State::kRefused);
  EXPECT_EQ(out.reason, "the wallet did not answer");
  const std::string second = stake("r1");
  v1::BankedTableEvent captured;
  captured.mutable_stake_captured()->set_saga_id(second);
  ASSERT_TRUE(Apply(captured, kStart).ok());
  EXPECT_EQ(table_->sagas().OutcomeOf("r1").state, State::kUnknown);
  EXPECT_EQ(table_->sagas().OutcomeOf("r0").state, State::kRefused);
}

// A captured stake's request is forgotten (its repeat answers the view, as
// a capture does); past kRecentStakeRefusals the oldest refusal is too.
TEST(StakeSagasTest, OnlyStakesInFlightAndRecentRefusalsAreKept) {
  using State = StakeOutcome::State;
  StakeSagas sagas;
  sagas.NoteRequest("c", "sc");
  sagas.NoteCaptured("sc");
  EXPECT_EQ(sagas.OutcomeOf("c").state, State::kUnknown);
  for (size_t i = 0; i <= kRecentStakeRefusals; ++i) {
    sagas.NoteRequest(absl::StrCat("r", i), absl::StrCat("s", i));
    sagas.NoteRefused(absl::StrCat("s", i), absl::StrCat("why ", i));
  }
  EXPECT_EQ(sagas.OutcomeOf("r0").state, State::kUnknown);
  EXPECT_EQ(sagas.OutcomeOf("r1").state, State::kRefused);
  EXPECT_EQ(sagas.OutcomeOf("r1").reason, "why 1");
  // A request noted again keeps its first stake.
  sagas.NoteRequest("r2", "other");
  EXPECT_EQ(sagas.OutcomeOf("r2").saga_id, "s2");
}

}  // namespace
}  // namespace banca::tables
