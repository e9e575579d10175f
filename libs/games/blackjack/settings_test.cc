#include "libs/games/blackjack/settings.h"

#include "gtest/gtest.h"

namespace banca::games::blackjack {
namespace {

TEST(BlackjackSettings, DefaultsAreTheDigestDecision_BJ_Decision) {
  const TableSettings s;
  ASSERT_TRUE(s.Validate().ok());
  EXPECT_EQ(s.decks, 6);
  EXPECT_FALSE(s.dealer_hits_soft_17);
  EXPECT_EQ(s.blackjack_pays_num, 3);
  EXPECT_EQ(s.blackjack_pays_den, 2);
  EXPECT_TRUE(s.dealer_peek);
  EXPECT_EQ(s.double_on, DoubleOn::kAnyTwoCards);
  EXPECT_EQ(s.max_split_hands, 4);
  EXPECT_FALSE(s.resplit_aces);
  EXPECT_TRUE(s.double_after_split);
  EXPECT_TRUE(s.insurance);
  EXPECT_EQ(s.surrender, Surrender::kNone);
  EXPECT_FALSE(s.special_prize_on_split_hands);
  EXPECT_EQ(s.inactive_seconds, 180);
  EXPECT_EQ(s.inactive_rounds, 5);
}

TEST(BlackjackSettings, BadSettingsNameTheField) {
  auto bad = [](TableSettings s, const char* field) {
    absl::Status st = s.Validate();
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << field;
    EXPECT_NE(st.message().find(field), absl::string_view::npos)
        << st.message();
  };
  TableSettings s;
  s.seats = 0;
  bad(s, "seats");
  s = {};
  s.seats = 8;
  bad(s, "seats");
  s = {};
  s.min_bet = 0;
  bad(s, "min_bet");
  s = {};
  s.max_bet = s.min_bet - 1;
  bad(s, "max_bet");
  s = {};
  s.decks = 9;
  bad(s, "decks");
  s = {};
  s.blackjack_pays_den = 0;
  bad(s, "blackjack_pays");
  s = {};
  s.max_split_hands = 5;
  bad(s, "max_split_hands");
  s = {};
  s.inactive_rounds = 0;
  bad(s, "inactive_rounds");
  s = {};
  s.inactive_seconds = -1;
  bad(s, "inactive_seconds");
}

}  // namespace
}  // namespace banca::games::blackjack
