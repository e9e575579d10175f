#include "libs/tables/stud_table_state.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace banca::tables {
namespace {

namespace stud = games::stud_no_draw;

constexpr int64_t kStart = 1'767'225'600'000'000;

class StudStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    v1::BankedTableCreated created;
    created.set_table_id("t1");
    created.set_game(v1::BANKED_GAME_STUD_NO_DRAW);
    absl::StatusOr<std::unique_ptr<StudTableState>> t =
        StudTableState::Create(created, kStart);
    ASSERT_TRUE(t.ok()) << t.status();
    table_ = *std::move(t);
  }

  absl::Status Apply(v1::BankedTableEvent e) {
    e.set_table_id("t1");
    e.set_at_micros(kStart);
    std::vector<v1::BankedTableEvent> derived;
    return table_->Apply(e, &derived);
  }

  // `player` sits at `seat` and antes 100; the wallet captures it.
  void SitAndAnte(const std::string& player, int seat) {
    v1::BankedTableEvent join;
    join.mutable_joined()->set_player_id(player);
    join.mutable_joined()->set_seat(seat);
    ASSERT_TRUE(Apply(join).ok());
    v1::PlaceBankedBetRequest ante;
    ante.set_round(table_->round());
    ante.set_amount_minor(100);
    absl::StatusOr<v1::BankedTableEvent> stake =
        table_->BetEvent(player, ante, kStart);
    ASSERT_TRUE(stake.ok()) << stake.status();
    ASSERT_TRUE(Apply(*stake).ok());
    v1::BankedTableEvent captured;
    captured.mutable_stake_captured()->set_saga_id(
        stake->stake_requested().saga_id());
    ASSERT_TRUE(Apply(captured).ok());
  }

  void Deal() {
    v1::BankedTableEvent e;
    e.mutable_dealt()->set_round(table_->round());
    // A burn card, then five to each of two seats and the bank.
    for (const char* suit : {"c", "d"}) {
      for (const char* rank : {"2", "3", "4", "5", "6", "7", "8", "9"}) {
        e.mutable_dealt()->add_deck(std::string(rank) + suit);
      }
    }
    ASSERT_TRUE(Apply(e).ok());
  }

  v1::BankedTableEvent Timeout(const std::string& player) {
    v1::BankedTableEvent e;
    e.mutable_action_requested()->set_player_id(player);
    e.mutable_action_requested()->set_round(table_->round());
    e.mutable_action_requested()->set_timeout(true);
    return e;
  }

  std::unique_ptr<StudTableState> table_;
};

TEST_F(StudStateTest, ATimeoutWarnsThenFoldsOnePlayer_SD31_SD32) {
  SitAndAnte("ana", 1);
  SitAndAnte("rui", 2);
  Deal();
  ASSERT_TRUE(Apply(Timeout("ana")).ok());
  const stud::Round* round = table_->engine().round();
  ASSERT_NE(round, nullptr);
  EXPECT_TRUE(round->ViewFor(1).warned);   // ana: the pre-warning
  EXPECT_FALSE(round->ViewFor(2).warned);  // rui: untouched
  ASSERT_TRUE(Apply(Timeout("ana")).ok());
  for (const stud::SeatView& s : round->ViewFor(0).seats) {
    EXPECT_EQ(s.decision, s.player == "ana" ? stud::Decision::kFolded
                                            : stud::Decision::kPending);
  }
}

TEST_F(StudStateTest, NoTimeoutBeforeTheDeal) {
  SitAndAnte("ana", 1);
  const absl::Status s = Apply(Timeout("ana"));
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_EQ(table_->engine().round()->phase(), stud::Phase::kBetting);
}

// A table that lives for months keeps only its recent engine events: its
// host calls ForgetTaken after each event (TableAggregate), and what the
// state has turned into log records is released.
TEST_F(StudStateTest, ATableKeepsOnlyTheEngineEventsNotYetTaken) {
  for (int i = 0; i < 200; ++i) {
    v1::BankedTableEvent join;
    join.mutable_joined()->set_player_id("ana");
    join.mutable_joined()->set_seat(1);
    ASSERT_TRUE(Apply(join).ok());
    table_->ForgetTaken();
    v1::BankedTableEvent leave;
    leave.mutable_leaving()->set_player_id("ana");
    ASSERT_TRUE(Apply(leave).ok());
    table_->ForgetTaken();
  }
  // Every sit and every leave was an engine event, numbered on...
  EXPECT_GE(table_->engine().events_end(), 400u);
  // ... and none of them is kept once taken.
  EXPECT_EQ(table_->engine().events_begin(), table_->engine().events_end());
  EXPECT_TRUE(table_->engine().events().empty());
  EXPECT_FALSE(table_->Joined("ana"));
}

}  // namespace
}  // namespace banca::tables
