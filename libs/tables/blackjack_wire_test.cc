#include "libs/tables/blackjack_wire.h"

#include "gtest/gtest.h"

namespace banca::tables {
namespace {

namespace bj = games::blackjack;

TEST(BlackjackWire, EveryActionGoesToTheApiAndBack) {
  for (bj::ActionType type :
       {bj::ActionType::kHit, bj::ActionType::kStand, bj::ActionType::kDouble,
        bj::ActionType::kSplit, bj::ActionType::kInsurance,
        bj::ActionType::kSurrender}) {
    const v1::BlackjackActionType proto = BlackjackActionToProto(type);
    EXPECT_NE(proto, v1::BLACKJACK_ACTION_TYPE_UNSPECIFIED);
    absl::StatusOr<bj::ActionType> back = BlackjackActionFromProto(proto);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, type);
  }
  EXPECT_FALSE(
      BlackjackActionFromProto(v1::BLACKJACK_ACTION_TYPE_UNSPECIFIED).ok());
}

}  // namespace
}  // namespace banca::tables
