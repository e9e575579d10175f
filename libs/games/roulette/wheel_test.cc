#include "libs/games/roulette/wheel.h"

#include <algorithm>
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/games/roulette/pocket.h"
#include "libs/games/roulette/test_util.h"

namespace banca::games::roulette {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using testing::OO;

std::set<Pocket> AsSet(absl::Span<const Pocket> order) {
  return {order.begin(), order.end()};
}

std::set<Pocket> ZeroTo36() {
  std::set<Pocket> s;
  for (Pocket p = 0; p <= 36; ++p) s.insert(p);
  return s;
}

TEST(FrenchWheel, ThirtySevenNumbersInTheRulesOrder_RF_6a_RF_6c) {
  absl::Span<const Pocket> order = WheelOrder(WheelKind::kFrench);
  EXPECT_EQ(order.size(), 37u);
  EXPECT_EQ(PocketCount(WheelKind::kFrench), 37);
  EXPECT_EQ(AsSet(order), ZeroTo36());
  // RF-6c, copied digit for digit from the regulation.
  EXPECT_THAT(order, ElementsAreArray({0,  32, 15, 19, 4,  21, 2,  25, 17, 34,
                                       6,  27, 13, 36, 11, 30, 8,  23, 10, 5,
                                       24, 16, 33, 1,  20, 14, 31, 9,  22, 18,
                                       29, 7,  28, 12, 35, 3,  26}));
}

// The draft's sequence (RFD-6e) lost two dashes in the OCR ("0-3215-…",
// "…-28-1235-3-26"); with them restored it is the final's.
TEST(FrenchWheel, DraftSequenceWithDashesRestoredIsTheFinal_RFD_6e) {
  absl::Span<const Pocket> order = WheelOrder(WheelKind::kFrench);
  EXPECT_THAT(order.subspan(0, 3), ElementsAre(0, 32, 15));
  EXPECT_THAT(order.subspan(32, 5), ElementsAre(28, 12, 35, 3, 26));
}

TEST(FrenchWheel, RedAndBlackAlternateZeroGreen_RF_6b) {
  absl::Span<const Pocket> order = WheelOrder(WheelKind::kFrench);
  EXPECT_EQ(ColourOf(0), Colour::kGreen);
  for (size_t i = 1; i + 1 < order.size(); ++i) {
    EXPECT_NE(ColourOf(order[i]), ColourOf(order[i + 1]))
        << order[i] << " and " << order[i + 1];
    EXPECT_NE(ColourOf(order[i]), Colour::kGreen);
  }
}

TEST(RedNumbers, TheStandardEighteen_RF_6b_Decision) {
  std::vector<Pocket> red;
  for (Pocket p = 0; p <= 36; ++p) {
    if (ColourOf(p) == Colour::kRed) red.push_back(p);
  }
  EXPECT_THAT(red, ElementsAre(1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25,
                               27, 30, 32, 34, 36));
  EXPECT_EQ(ColourOf(OO), Colour::kGreen);
  EXPECT_EQ(ColourName(Colour::kRed), "red");
  EXPECT_EQ(ColourName(Colour::kBlack), "black");
  EXPECT_EQ(ColourName(Colour::kGreen), "green");
}

TEST(AmericanWheel, ThirtySevenOrThirtyEightNumbers_RA_6a) {
  EXPECT_EQ(PocketCount(WheelKind::kAmericanSingleZero), 37);
  EXPECT_EQ(PocketCount(WheelKind::kAmericanDoubleZero), 38);
  EXPECT_EQ(AsSet(WheelOrder(WheelKind::kAmericanSingleZero)), ZeroTo36());
  std::set<Pocket> with_00 = ZeroTo36();
  with_00.insert(OO);
  EXPECT_EQ(AsSet(WheelOrder(WheelKind::kAmericanDoubleZero)), with_00);
  EXPECT_EQ(WheelOrder(WheelKind::kAmericanDoubleZero).size(), 38u);
}

TEST(AmericanWheel, TheRulesTwoOrders_RA_6c) {
  EXPECT_THAT(
      WheelOrder(WheelKind::kAmericanSingleZero),
      ElementsAreArray({0,  28, 9,  26, 30, 11, 7,  20, 32, 17, 5,  22, 34,
                        15, 3,  24, 36, 13, 1,  27, 10, 25, 29, 12, 8,  19,
                        31, 18, 6,  21, 33, 16, 4,  23, 35, 14, 2}));
  EXPECT_THAT(
      WheelOrder(WheelKind::kAmericanDoubleZero),
      ElementsAreArray({0,  28, 9,  26, 30, 11, 7,  20, 32, 17, 5,  22, 34,
                        15, 3,  24, 36, 13, 1,  OO, 27, 10, 25, 29, 12, 8,
                        19, 31, 18, 6,  21, 33, 16, 4,  23, 35, 14, 2}));
}

// RA-6b asks for alternating colours; the 38-pocket order alternates, the
// 37-pocket order as printed puts 1 and 27 (both red) side by side (RA
// gap 2). The regulated order is kept.
TEST(AmericanWheel, ColoursAlternateExceptOneBeside27OnSingleZero_RA_6b) {
  for (WheelKind wheel :
       {WheelKind::kAmericanDoubleZero, WheelKind::kAmericanSingleZero}) {
    absl::Span<const Pocket> order = WheelOrder(wheel);
    int clashes = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      Pocket a = order[i], b = order[(i + 1) % order.size()];
      if (IsZero(a) || IsZero(b)) continue;
      if (ColourOf(a) == ColourOf(b)) {
        ++clashes;
        EXPECT_EQ(a, 1);
        EXPECT_EQ(b, 27);
      }
    }
    EXPECT_EQ(clashes, wheel == WheelKind::kAmericanSingleZero ? 1 : 0);
  }
}

TEST(Pocket, NamesAndParsing) {
  EXPECT_EQ(PocketName(0), "0");
  EXPECT_EQ(PocketName(36), "36");
  EXPECT_EQ(PocketName(OO), "00");
  EXPECT_EQ(*ParsePocket(WheelKind::kAmericanDoubleZero, "00"), OO);
  EXPECT_EQ(*ParsePocket(WheelKind::kFrench, "17"), 17);
}

TEST(Pocket, BadNumbersAreRejected) {
  auto bad = [](WheelKind wheel, std::string_view text) {
    return ParsePocket(wheel, text).status();
  };
  EXPECT_EQ(bad(WheelKind::kFrench, "00").message(),
            "00 is only on a double-zero wheel");
  EXPECT_EQ(bad(WheelKind::kAmericanSingleZero, "00").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad(WheelKind::kFrench, "37").message(),
            "number 37 is not on the wheel (0..36)");
  EXPECT_EQ(bad(WheelKind::kFrench, "07").message(),
            "\"07\" is not a roulette number (0..36 or 00)");
  EXPECT_EQ(bad(WheelKind::kFrench, "").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad(WheelKind::kAmericanDoubleZero, "-1").message(),
            "\"-1\" is not a roulette number (0..36 or 00)");
  EXPECT_EQ(CheckPocket(WheelKind::kFrench, -2).message(),
            "number -2 is not on the wheel (0..36)");
  EXPECT_EQ(CheckPocket(WheelKind::kAmericanDoubleZero, 37).message(),
            "number 37 is not on the wheel (0..36)");
}

TEST(Wheel, SectionsWrapAroundZero) {
  EXPECT_THAT(WheelSection(WheelKind::kFrench, 0, 2),
              ElementsAre(3, 26, 0, 32, 15));
  EXPECT_THAT(WheelSection(WheelKind::kAmericanDoubleZero, 1, 1),
              ElementsAre(13, 1, OO));
}

}  // namespace
}  // namespace banca::games::roulette
