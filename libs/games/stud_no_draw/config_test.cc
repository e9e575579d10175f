#include "libs/games/stud_no_draw/config.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace banca::games::stud_no_draw {
namespace {

using ::testing::HasSubstr;

TEST(StudNoDrawConfig, DefaultsAreValid) {
  EXPECT_TRUE(TableConfig{}.Validate().ok());
}

TEST(StudNoDrawConfig, OneToSevenSeats_SD_6a) {
  TableConfig c;
  for (int seats = 1; seats <= 7; ++seats) {
    c.seats = seats;
    EXPECT_TRUE(c.Validate().ok()) << seats;
  }
  c.seats = 1;
  EXPECT_TRUE(c.individual());  // SD-4: individual or multi-player.
  for (int seats : {0, 8, -1}) {
    c.seats = seats;
    const absl::Status s = c.Validate();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(s.message()), HasSubstr("seats must be 1..7"));
  }
}

TEST(StudNoDrawConfig, MinimumAntePositive_SD_17) {
  TableConfig c;
  c.min_ante = 0;
  EXPECT_EQ(c.Validate().code(), absl::StatusCode::kInvalidArgument);
  c.min_ante = -100;
  EXPECT_EQ(c.Validate().code(), absl::StatusCode::kInvalidArgument);
}

TEST(StudNoDrawConfig, MaximumAnteUpTo25TimesTheMinimum_SD_18) {
  TableConfig c;
  c.min_ante = 100;
  c.max_ante = 2500;
  EXPECT_TRUE(c.Validate().ok());
  c.max_ante = 100;  // Equal limits: a fixed ante.
  EXPECT_TRUE(c.Validate().ok());
  c.max_ante = 2501;
  const absl::Status s = c.Validate();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "stud_no_draw config: max_ante must be at most 25 × min_ante "
            "(SD-18), got 2501 > 25 × 100");
  c.max_ante = 99;  // SD-16: below the minimum.
  EXPECT_EQ(c.Validate().code(), absl::StatusCode::kInvalidArgument);
  c.min_ante = 10'000'000'000'000;  // Far beyond any table: refused.
  c.max_ante = c.min_ante;
  EXPECT_EQ(c.Validate().code(), absl::StatusCode::kInvalidArgument);
}

TEST(StudNoDrawConfig, DecisionTimeSetByOperator_SD_21) {
  TableConfig c;
  c.decision_ms = 0;
  EXPECT_EQ(c.Validate().code(), absl::StatusCode::kInvalidArgument);
  c.decision_ms = kMaxDurationMs + 1;
  EXPECT_EQ(c.Validate().code(), absl::StatusCode::kInvalidArgument);
}

TEST(StudNoDrawConfig, SupplementaryTimeIsMandatory_SD_31) {
  TableConfig c;
  c.extra_ms = 0;
  const absl::Status s = c.Validate();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("SD-31"));
}

TEST(StudNoDrawConfig, IdleLimitsBounded_SD_41) {
  TableConfig c;
  c.idle_invite_ms = 0;
  EXPECT_EQ(c.Validate().code(), absl::StatusCode::kInvalidArgument);
  c = {};
  c.session_grace_ms = -1;
  EXPECT_EQ(c.Validate().code(), absl::StatusCode::kInvalidArgument);
  c = {};
  c.idle_invite_rounds = 0;
  EXPECT_EQ(c.Validate().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace banca::games::stud_no_draw
