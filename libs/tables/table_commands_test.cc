#include "libs/tables/table_commands.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/card.h"
#include "libs/common/status_macros.h"

namespace banca::tables {
namespace {

std::unique_ptr<TableState> NewTable() {
  v1::TableCreated created;
  created.set_table_id("t1");
  v1::PokerTableConfig* c = created.mutable_config();
  c->set_variant(v1::POKER_VARIANT_HOLDEM);
  c->set_small_blind_minor(50);
  c->set_big_blind_minor(100);
  c->set_buy_in_min_minor(1000);
  c->set_buy_in_max_minor(10000);
  c->set_rake_mode(v1::RAKE_MODE_SETTING_BUY_IN);
  c->set_rake_bps(1000);
  return *TableState::Create(created);
}

absl::Status Seat(TableState& t, const std::string& player, int seat) {
  ASSIGN_OR_RETURN(const v1::TableEvent e,
                   BuyInRequest(t, player, seat, 5000, false));
  std::vector<v1::TableEvent> derived;
  RETURN_IF_ERROR(t.Apply(e, &derived));
  v1::TableEvent done;
  done.set_table_id("t1");
  done.mutable_buy_in_completed()->set_saga_id(e.buy_in_requested().saga_id());
  return t.Apply(done, &derived);
}

TEST(TableCommands, BuyInRequestCarriesTheSagaAndTheBuyInRake_HE17b) {
  std::unique_ptr<TableState> t = NewTable();
  absl::StatusOr<v1::TableEvent> e = BuyInRequest(*t, "ana", 2, 5000, false);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->table_id(), "t1");
  const v1::BuyInRequested& r = e->buy_in_requested();
  EXPECT_EQ(r.saga_id(), "table/t1/buyin/1");
  EXPECT_EQ(r.player_id(), "ana");
  EXPECT_EQ(r.seat(), 2);
  EXPECT_EQ(r.paid_minor(), 5000);
  EXPECT_EQ(r.rake_minor(), 500);  // 10 % of the buy-in
  EXPECT_FALSE(r.rebuy());
  // What the table's own checks refuse makes no event (HE-8).
  EXPECT_EQ(BuyInRequest(*t, "ana", 2, 20000, false).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(TableCommands, ARebuyNamesThePlayersSeat) {
  std::unique_ptr<TableState> t = NewTable();
  ASSERT_TRUE(Seat(*t, "ana", 3).ok());
  absl::StatusOr<v1::TableEvent> e = BuyInRequest(*t, "ana", 0, 1000, true);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->buy_in_requested().seat(), 3);
  EXPECT_EQ(e->buy_in_requested().saga_id(), "table/t1/buyin/2");
  EXPECT_TRUE(e->buy_in_requested().rebuy());
  EXPECT_EQ(BuyInRequest(*t, "rui", 0, 1000, true).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(TableCommands, HandStartDealsTheGivenDeckAndDrawsTheButton_HE46) {
  std::unique_ptr<TableState> t = NewTable();
  ASSERT_TRUE(Seat(*t, "ana", 1).ok());
  ASSERT_TRUE(Seat(*t, "rui", 4).ok());
  const std::vector<cards::Card> deck =
      *cards::ParseCards("AsKdQhQs2c7d9hJc3s");
  const v1::TableEvent e = HandStart(*t, deck, 1);
  EXPECT_EQ(e.hand_started().hand_number(), 1);
  EXPECT_EQ(e.hand_started().button_draw(), 1);
  ASSERT_EQ(e.hand_started().deck_size(), 9);
  EXPECT_EQ(e.hand_started().deck(0), "As");
  std::vector<v1::TableEvent> derived;
  ASSERT_TRUE(t->Apply(e, &derived).ok());
  EXPECT_EQ(t->engine().button(), 4);  // the second eligible seat
  EXPECT_EQ(HandStart(*t, deck, 0).hand_started().hand_number(), 2);
}

}  // namespace
}  // namespace banca::tables
