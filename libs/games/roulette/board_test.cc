#include "libs/games/roulette/board.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/games/roulette/bet.h"
#include "libs/games/roulette/test_util.h"

namespace banca::games::roulette {
namespace {

using testing::Bet;
using ::testing::ElementsAre;
using testing::OO;
using testing::Outside;

constexpr WheelKind kFr = WheelKind::kFrench;
constexpr WheelKind kUs38 = WheelKind::kAmericanDoubleZero;
constexpr WheelKind kUs37 = WheelKind::kAmericanSingleZero;

NumberSet Covered(WheelKind wheel, const BetRequest& r) {
  absl::StatusOr<std::vector<Chip>> chips = LayOut(wheel, r);
  EXPECT_TRUE(chips.ok()) << chips.status();
  if (!chips.ok() || chips->size() != 1) return {};
  return (*chips)[0].position.numbers;
}

std::string Error(WheelKind wheel, const BetRequest& r) {
  absl::StatusOr<std::vector<Chip>> chips = LayOut(wheel, r);
  EXPECT_FALSE(chips.ok());
  if (chips.ok()) return "accepted";
  EXPECT_EQ(chips.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(chips.status().message());
}

// RF-6d: three columns of twelve, the column boxes after 34, 35 and 36.
TEST(Board, ThreeColumnsOfTwelveHeadedBy34_35_36_RF_6d) {
  EXPECT_THAT(Covered(kFr, Outside(BetKind::kColumn, 100, {1})).Pockets(),
              ElementsAre(1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34));
  EXPECT_THAT(Covered(kFr, Outside(BetKind::kColumn, 100, {2})).Pockets(),
              ElementsAre(2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35));
  EXPECT_THAT(Covered(kFr, Outside(BetKind::kColumn, 100, {3})).Pockets(),
              ElementsAre(3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36));
}

TEST(FrenchRoulette, MultipleChancesCoverTheirNumbers_RF_7a) {
  EXPECT_EQ(Covered(kFr, Bet(BetKind::kStraight, {17}, 100)).size(), 1);
  EXPECT_EQ(Covered(kFr, Bet(BetKind::kSplit, {17, 20}, 100)).size(), 2);
  EXPECT_EQ(Covered(kFr, Bet(BetKind::kStreet, {16, 17, 18}, 100)).size(), 3);
  EXPECT_EQ(Covered(kFr, Bet(BetKind::kCorner, {17, 18, 20, 21}, 100)).size(),
            4);
  EXPECT_EQ(
      Covered(kFr, Bet(BetKind::kLine, {13, 14, 15, 16, 17, 18}, 100)).size(),
      6);
  EXPECT_EQ(Covered(kFr, Outside(BetKind::kDozen, 100, {1})),
            NumberSet::Range(1, 12));
  EXPECT_EQ(Covered(kFr, Outside(BetKind::kDozen, 100, {2})),
            NumberSet::Range(13, 24));
  EXPECT_EQ(Covered(kFr, Outside(BetKind::kDozen, 100, {3})),
            NumberSet::Range(25, 36));
  EXPECT_EQ(Covered(kFr, Outside(BetKind::kDozenSplit, 100, {2, 1})),
            NumberSet::Range(1, 24));
  NumberSet two_columns =
      Covered(kFr, Outside(BetKind::kColumnSplit, 100, {2, 3}));
  EXPECT_EQ(two_columns.size(), 24);
  EXPECT_FALSE(two_columns.Contains(1));
  EXPECT_TRUE(two_columns.Contains(36));
}

TEST(FrenchRoulette, SimpleChances_RF_7b) {
  auto covered = [](BetKind kind) { return Covered(kFr, Outside(kind, 100)); };
  for (Pocket n = 1; n <= 36; ++n) {
    EXPECT_EQ(covered(BetKind::kEven).Contains(n), n % 2 == 0);
    EXPECT_EQ(covered(BetKind::kOdd).Contains(n), n % 2 == 1);
    EXPECT_EQ(covered(BetKind::kLow).Contains(n), n <= 18);
    EXPECT_EQ(covered(BetKind::kHigh).Contains(n), n >= 19);
    EXPECT_EQ(covered(BetKind::kRed).Contains(n), ColourOf(n) == Colour::kRed);
    EXPECT_EQ(covered(BetKind::kBlack).Contains(n),
              ColourOf(n) == Colour::kBlack);
  }
  for (BetKind kind : {BetKind::kEven, BetKind::kOdd, BetKind::kLow,
                       BetKind::kHigh, BetKind::kRed, BetKind::kBlack}) {
    EXPECT_EQ(covered(kind).size(), 18);
    EXPECT_FALSE(covered(kind).Contains(0));
  }
}

// RFD-7: bordering numbers on the board; RF-10 / RA-9: every such
// combination is offered (digest gap 7 for those with zeros).
TEST(FrenchRoulette, EveryBorderingCombination_RFD_7_RF_10) {
  EXPECT_EQ(LegalInsidePositions(kFr, Chance::kStraight).size(), 37u);
  EXPECT_EQ(LegalInsidePositions(kFr, Chance::kSplit).size(), 60u);
  EXPECT_EQ(LegalInsidePositions(kFr, Chance::kStreet).size(), 14u);
  EXPECT_EQ(LegalInsidePositions(kFr, Chance::kCorner).size(), 23u);
  EXPECT_EQ(LegalInsidePositions(kFr, Chance::kLine).size(), 11u);
  EXPECT_EQ(LegalInsidePositions(kUs37, Chance::kSplit).size(), 60u);
  // Zero combinations, in any order.
  EXPECT_EQ(Covered(kFr, Bet(BetKind::kSplit, {3, 0}, 100)),
            NumberSet::Of({0, 3}));
  EXPECT_EQ(Covered(kFr, Bet(BetKind::kStreet, {2, 0, 3}, 100)),
            NumberSet::Of({0, 2, 3}));
  EXPECT_EQ(Covered(kFr, Bet(BetKind::kCorner, {0, 1, 2, 3}, 100)).size(), 4);
  // Splits across a row and down a column.
  EXPECT_EQ(Covered(kFr, Bet(BetKind::kSplit, {35, 36}, 100)).size(), 2);
  EXPECT_EQ(Covered(kFr, Bet(BetKind::kSplit, {33, 36}, 100)).size(), 2);
}

TEST(AmericanRoulette, TheSameChancesWithDoubleZero_RA_7_RA_9) {
  EXPECT_EQ(LegalInsidePositions(kUs38, Chance::kStraight).size(), 38u);
  EXPECT_EQ(LegalInsidePositions(kUs38, Chance::kSplit).size(), 62u);
  EXPECT_EQ(LegalInsidePositions(kUs38, Chance::kStreet).size(), 15u);
  EXPECT_EQ(LegalInsidePositions(kUs38, Chance::kCorner).size(), 22u);
  EXPECT_EQ(LegalInsidePositions(kUs38, Chance::kLine).size(), 11u);
  EXPECT_EQ(Covered(kUs38, Bet(BetKind::kSplit, {0, OO}, 100)).size(), 2);
  EXPECT_EQ(Covered(kUs38, Bet(BetKind::kStreet, {OO, 2, 3}, 100)).size(), 3);
  EXPECT_EQ(Covered(kUs38, Bet(BetKind::kStraight, {OO}, 100)),
            NumberSet::Of({OO}));
  EXPECT_THAT(Error(kUs38, Bet(BetKind::kCorner, {0, 1, 2, 3}, 100)),
              "corner 0-1-2-3 is not a block of four bordering numbers on the "
              "board (RFD-7)");
  EXPECT_EQ(Error(kUs38, Bet(BetKind::kSplit, {OO, 1}, 100)),
            "split 1-00 is not two bordering numbers on the board (RFD-7)");
}

TEST(FrenchRoulette, NumbersThatDoNotBorderAreRejected_RFD_7) {
  EXPECT_EQ(Error(kFr, Bet(BetKind::kSplit, {1, 5}, 100)),
            "split 1-5 is not two bordering numbers on the board (RFD-7)");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kSplit, {3, 4}, 100)),
            "split 3-4 is not two bordering numbers on the board (RFD-7)");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kStreet, {2, 3, 4}, 100)),
            "street 2-3-4 is not a row of three or a zero trio on the board "
            "(RFD-7)");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kStreet, {0, 1, 3}, 100)),
            "street 0-1-3 is not a row of three or a zero trio on the board "
            "(RFD-7)");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kCorner, {2, 3, 4, 5}, 100)),
            "corner 2-3-4-5 is not a block of four bordering numbers on the "
            "board (RFD-7)");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kLine, {0, 1, 2, 3, 4, 5}, 100)),
            "line 0-1-2-3-4-5 is not two adjacent rows of three on the board "
            "(RFD-7)");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kLine, {1, 2, 3, 7, 8, 9}, 100)),
            "line 1-2-3-7-8-9 is not two adjacent rows of three on the board "
            "(RFD-7)");
}

TEST(FrenchRoulette, MalformedBetsAreRejected) {
  EXPECT_EQ(Error(kFr, Bet(BetKind::kSplit, {1, 2, 3}, 100)),
            "split covers 2 numbers, got 3");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kStraight, {}, 100)),
            "straight covers 1 number, got 0");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kSplit, {4, 4}, 100)),
            "number 4 appears twice in the split");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kStraight, {37}, 100)),
            "number 37 is not on the wheel (0..36)");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kStraight, {OO}, 100)),
            "00 is only on a double-zero wheel");
  EXPECT_EQ(Error(kUs37, Bet(BetKind::kSplit, {0, OO}, 100)),
            "00 is only on a double-zero wheel");
  EXPECT_EQ(Error(kFr, Outside(BetKind::kDozen, 100, {4})),
            "dozen index must be 1, 2 or 3, got 4");
  EXPECT_EQ(Error(kFr, Outside(BetKind::kColumn, 100, {})),
            "column needs one index (1, 2 or 3), got 0");
  EXPECT_EQ(Error(kFr, Outside(BetKind::kDozenSplit, 100, {1, 3})),
            "dozen_split needs two adjacent indexes (1 and 2, or 2 and 3), "
            "got 1 and 3");
  EXPECT_EQ(Error(kFr, Outside(BetKind::kColumnSplit, 100, {2})),
            "column_split needs two indexes, got 1");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kRed, {1}, 100)), "red takes no numbers");
  EXPECT_EQ(Error(kFr, Outside(BetKind::kRed, 100, {1})), "red takes no index");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kDozen, {1}, 100)),
            "dozen takes no numbers");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kStraight, {17}, 0)),
            "straight amount must be positive, got 0");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kStraight, {17}, -5)),
            "straight amount must be positive, got -5");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kStraight, {17}, 1'000'000'000'000'001)),
            "straight amount 1000000000000001 is above the largest amount "
            "(1000000000000000)");
  EXPECT_EQ(ParseBetKind("pleno").status().message(),
            "\"pleno\" is not a roulette bet");
}

// RFD-12, every chance: winnings = stake × the table's multiple; the stake
// stays the player's. RFD-20: a bet wins when it includes the number.
TEST(FrenchRoulette, PayoutsPerChance_RFD_12_RFD_20) {
  struct Case {
    BetRequest bet;
    Pocket winner;
    Pocket loser;
    int64_t returned;
  };
  const Case cases[] = {
      {Bet(BetKind::kStraight, {17}, 100), 17, 18, 3600},
      {Bet(BetKind::kSplit, {17, 20}, 100), 20, 18, 1800},
      {Bet(BetKind::kStreet, {16, 17, 18}, 100), 16, 19, 1200},
      {Bet(BetKind::kCorner, {17, 18, 20, 21}, 100), 21, 19, 900},
      {Bet(BetKind::kLine, {13, 14, 15, 16, 17, 18}, 100), 13, 19, 600},
      {Outside(BetKind::kDozen, 100, {2}), 24, 25, 300},
      {Outside(BetKind::kColumn, 100, {3}), 36, 35, 300},
      {Outside(BetKind::kDozenSplit, 100, {2, 3}), 13, 12, 150},
      {Outside(BetKind::kColumnSplit, 100, {1, 2}), 35, 36, 150},
      {Outside(BetKind::kEven, 100), 36, 35, 200},
      {Outside(BetKind::kOdd, 100), 35, 36, 200},
      {Outside(BetKind::kLow, 100), 18, 19, 200},
      {Outside(BetKind::kHigh, 100), 19, 18, 200},
      {Outside(BetKind::kRed, 100), 1, 2, 200},
      {Outside(BetKind::kBlack, 100), 2, 1, 200},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(BetKindName(c.bet.kind));
    absl::StatusOr<std::vector<Chip>> chips = LayOut(kFr, c.bet);
    ASSERT_TRUE(chips.ok()) << chips.status();
    ASSERT_EQ(chips->size(), 1u);
    EXPECT_EQ(ChipReturn((*chips)[0], c.winner), c.returned);
    EXPECT_EQ(ChipReturn((*chips)[0], c.loser), 0);
    const ChanceRules& rules = RulesOf((*chips)[0].position.chance);
    EXPECT_EQ(c.returned,
              100 + 100 * rules.pays_numerator / rules.pays_denominator);
  }
  EXPECT_EQ(RulesOf(Chance::kStraight).pays_numerator, 35);
  EXPECT_EQ(RulesOf(Chance::kSplit).pays_numerator, 17);
  EXPECT_EQ(RulesOf(Chance::kStreet).pays_numerator, 11);
  EXPECT_EQ(RulesOf(Chance::kCorner).pays_numerator, 8);
  EXPECT_EQ(RulesOf(Chance::kLine).pays_numerator, 5);
}

// Digest gap 8: half-stake payouts would leave half cents on odd stakes.
TEST(FrenchRoulette, TwoDozenAndTwoColumnStakesAreEven_RFD_12_Decision) {
  EXPECT_EQ(Error(kFr, Outside(BetKind::kDozenSplit, 101, {1, 2})),
            "dozen_split pays half the stake, so the stake must be an even "
            "number of cents, got 101");
  EXPECT_EQ(Error(kFr, Outside(BetKind::kColumnSplit, 3, {1, 2})),
            "column_split pays half the stake, so the stake must be an even "
            "number of cents, got 3");
}

// RFD-21: a zero makes every simple chance lose (no partage, no prison),
// and every multiple chance without it, while straights, splits, streets
// and corners that include it win.
TEST(FrenchRoulette, ZeroLosesSimpleChances_RFD_21) {
  for (BetKind kind : {BetKind::kEven, BetKind::kOdd, BetKind::kLow,
                       BetKind::kHigh, BetKind::kRed, BetKind::kBlack}) {
    auto chips = LayOut(kFr, Outside(kind, 100));
    EXPECT_EQ(ChipReturn((*chips)[0], 0), 0) << BetKindName(kind);
  }
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(
        ChipReturn((*LayOut(kFr, Outside(BetKind::kDozen, 100, {i})))[0], 0),
        0);
    EXPECT_EQ(
        ChipReturn((*LayOut(kFr, Outside(BetKind::kColumn, 100, {i})))[0], 0),
        0);
  }
  EXPECT_EQ(ChipReturn((*LayOut(kFr, Bet(BetKind::kStraight, {0}, 100)))[0], 0),
            3600);
  EXPECT_EQ(ChipReturn((*LayOut(kFr, Bet(BetKind::kSplit, {0, 2}, 100)))[0], 0),
            1800);
  EXPECT_EQ(
      ChipReturn((*LayOut(kFr, Bet(BetKind::kStreet, {0, 1, 2}, 100)))[0], 0),
      1200);
  EXPECT_EQ(ChipReturn(
                (*LayOut(kFr, Bet(BetKind::kCorner, {0, 1, 2, 3}, 100)))[0], 0),
            900);
}

// RA gap 3: 00 behaves like 0 on a double-zero wheel.
TEST(AmericanRoulette, DoubleZeroBehavesLikeZero_RA_gap3) {
  for (BetKind kind : {BetKind::kEven, BetKind::kOdd, BetKind::kLow,
                       BetKind::kHigh, BetKind::kRed, BetKind::kBlack}) {
    auto chips = LayOut(kUs38, Outside(kind, 100));
    EXPECT_EQ(ChipReturn((*chips)[0], OO), 0) << BetKindName(kind);
  }
  EXPECT_EQ(
      ChipReturn((*LayOut(kUs38, Bet(BetKind::kStraight, {OO}, 100)))[0], OO),
      3600);
  EXPECT_EQ(
      ChipReturn((*LayOut(kUs38, Bet(BetKind::kStraight, {0}, 100)))[0], OO),
      0);
  EXPECT_EQ(
      ChipReturn((*LayOut(kUs38, Bet(BetKind::kStreet, {0, OO, 2}, 100)))[0],
                 OO),
      1200);
}

// RFD-12: a two-dozen chip pays half its stake, so LayOut takes only even
// stakes. A chip with an odd one cannot be paid to the cent: paying it
// stops rather than rounding.
TEST(RouletteChipDeathTest, AnOddTwoDozenChipIsNeverPaid_RFD_12) {
  absl::StatusOr<std::vector<Chip>> chips =
      LayOut(kFr, Outside(BetKind::kDozenSplit, 100, {1, 2}));
  ASSERT_TRUE(chips.ok()) << chips.status();
  Chip chip = (*chips)[0];
  chip.amount = 101;
  EXPECT_DEATH(ChipReturn(chip, 5), "BANCA_CHECK failed: chip.amount \\*");
}

}  // namespace
}  // namespace banca::games::roulette
