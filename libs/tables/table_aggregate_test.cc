// The poker table and the banked games are the one aggregate the table
// host runs (services/common/table_host.h).
#include "libs/tables/table_aggregate.h"

#include "gtest/gtest.h"
#include "libs/tables/banked_game_state.h"
#include "libs/tables/table_state.h"

namespace banca::tables {
namespace {

static_assert(TableAggregate<TableState>);
static_assert(TableAggregate<BankedGameState>);

TEST(TableAggregateTest, OnlyTheCreationEventOpensATable) {
  v1::TableEvent poker;
  EXPECT_FALSE(TableState::Opens(poker));
  poker.mutable_table_created()->set_table_id("t1");
  EXPECT_TRUE(TableState::Opens(poker));
  v1::BankedTableEvent banked;
  banked.mutable_joined()->set_player_id("p");
  EXPECT_FALSE(BankedGameState::Opens(banked));
  banked.mutable_created()->set_table_id("r1");
  EXPECT_TRUE(BankedGameState::Opens(banked));
}

TEST(TableAggregateTest, OpenRefusesBadSettings) {
  v1::TableEvent poker;
  poker.mutable_table_created()->set_table_id("BAD ID");
  EXPECT_FALSE(TableState::Open(poker).ok());
  v1::BankedTableEvent banked;
  banked.mutable_created()->set_table_id("r1");  // no game
  EXPECT_FALSE(BankedGameState::Open(banked).ok());
}

}  // namespace
}  // namespace banca::tables
