#include "libs/games/poker/table_config.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/games/poker/action.h"

namespace banca::games::poker {
namespace {

using ::testing::HasSubstr;

TEST(TableConfigTest, DefaultsAreValid) {
  EXPECT_TRUE(TableConfig{}.Validate().ok());
  EXPECT_EQ(TableConfig{}.HoleCards(), 2);
  TableConfig omaha;
  omaha.variant = Variant::kOmaha;
  EXPECT_EQ(omaha.HoleCards(), 4);
}

TEST(TableConfigTest, TwoToTenSeats_HE4a_HE5) {
  TableConfig c;
  c.seats = 1;
  EXPECT_THAT(c.Validate().message(), HasSubstr("seats"));
  c.seats = 11;
  EXPECT_FALSE(c.Validate().ok());
  c.seats = 10;
  EXPECT_TRUE(c.Validate().ok());
}

TEST(TableConfigTest, BlindsAndMinimumBet_HE22) {
  TableConfig c;
  c.small_blind = 0;
  EXPECT_FALSE(c.Validate().ok());
  c.small_blind = 150;
  EXPECT_THAT(c.Validate().message(), HasSubstr("small_blind"));
  c = TableConfig{};
  c.big_blind = -1;
  EXPECT_FALSE(c.Validate().ok());
}

TEST(TableConfigTest, BuyInRange_HE8_HE14) {
  TableConfig c;
  c.buy_in_min = 50;  // below the big blind
  EXPECT_THAT(c.Validate().message(), HasSubstr("buy_in_min"));
  c.buy_in_min = 20000;
  c.buy_in_max = 10000;
  EXPECT_FALSE(c.Validate().ok());
}

TEST(TableConfigTest, RakeRanges_HE17) {
  TableConfig c;
  c.rake = {RakeMode::kPot, 99, 0};
  EXPECT_THAT(c.Validate().message(), HasSubstr("HE-17a"));
  c.rake = {RakeMode::kPot, 501, 0};
  EXPECT_FALSE(c.Validate().ok());
  c.rake = {RakeMode::kPot, 500, 300};
  EXPECT_TRUE(c.Validate().ok());
  c.rake = {RakeMode::kBuyIn, 499, 0};
  EXPECT_THAT(c.Validate().message(), HasSubstr("HE-17b"));
  c.rake = {RakeMode::kBuyIn, 2000, 0};
  EXPECT_TRUE(c.Validate().ok());
  c.rake = {RakeMode::kPot, 300, -1};
  EXPECT_FALSE(c.Validate().ok());
  c.rake = {RakeMode::kNone, 300, 0};
  EXPECT_FALSE(c.Validate().ok());
}

TEST(TableConfigTest, HoleCards) {
  TableConfig c;
  c.hole_cards = 3;
  EXPECT_FALSE(c.Validate().ok());
  c.variant = Variant::kOmaha;
  c.hole_cards = 5;
  c.seats = 10;
  EXPECT_FALSE(c.Validate().ok());  // 10 x 5 + 5 > 52
  c.seats = 9;
  EXPECT_TRUE(c.Validate().ok());
}

TEST(TableConfigTest, ActionNames) {
  EXPECT_EQ(ActionTypeName(ActionType::kAllIn), "all_in");
  EXPECT_EQ(ActionTypeName(ActionType::kRestraddle), "restraddle");
  EXPECT_EQ(ActionTypeName(ActionType::kFold), "fold");
}

}  // namespace
}  // namespace banca::games::poker
