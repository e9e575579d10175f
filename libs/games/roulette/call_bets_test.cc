#include "libs/games/roulette/call_bets.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/common/string_view.h"
#include "libs/games/roulette/test_util.h"

namespace banca::games::roulette {
namespace {

using testing::Bet;
using ::testing::ElementsAre;
using testing::Neighbours;
using testing::OO;
using ::testing::UnorderedElementsAreArray;

constexpr WheelKind kFr = WheelKind::kFrench;

// Every number a set of chips covers, and how many chips (in units) each.
std::set<Pocket> CoveredBy(const std::vector<Chip>& chips) {
  std::set<Pocket> out;
  for (const Chip& c : chips) {
    for (Pocket p : c.position.numbers.Pockets()) out.insert(p);
  }
  return out;
}

std::vector<Chip> Chips(WheelKind wheel, const BetRequest& r) {
  absl::StatusOr<std::vector<Chip>> chips = LayOut(wheel, r);
  EXPECT_TRUE(chips.ok()) << chips.status();
  return chips.ok() ? *chips : std::vector<Chip>{};
}

std::string Error(WheelKind wheel, const BetRequest& r) {
  absl::StatusOr<std::vector<Chip>> chips = LayOut(wheel, r);
  EXPECT_FALSE(chips.ok());
  if (chips.ok()) return "accepted";
  EXPECT_EQ(chips.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(chips.status().message());
}

std::map<std::string, int64_t> ByPosition(const std::vector<Chip>& chips) {
  std::map<std::string, int64_t> out;
  for (const Chip& c : chips) {
    out[absl::StrCat(ToAbsl(RulesOf(c.position.chance).name), " ",
                     c.position.numbers.ToString())] += c.amount;
  }
  return out;
}

TEST(CallBets, VoisinsNineUnitsOnTheSeventeenNumbers_RF_8a) {
  std::vector<Chip> chips = Chips(kFr, Bet(BetKind::kVoisins, {}, 900));
  EXPECT_EQ(chips.size(), 7u);
  EXPECT_THAT(CoveredBy(chips),
              UnorderedElementsAreArray({22, 18, 29, 7, 28, 12, 35, 3, 26, 0,
                                         32, 15, 19, 4, 21, 2, 25}));
  EXPECT_EQ(ByPosition(chips),
            (std::map<std::string, int64_t>{{"street 0-2-3", 200},
                                            {"split 4-7", 100},
                                            {"split 12-15", 100},
                                            {"split 18-21", 100},
                                            {"split 19-22", 100},
                                            {"corner 25-26-28-29", 200},
                                            {"split 32-35", 100}}));
}

TEST(CallBets, TiersSixSplitsOnTheTwelveNumbers_RF_8b) {
  std::vector<Chip> chips = Chips(kFr, Bet(BetKind::kTiers, {}, 600));
  EXPECT_EQ(chips.size(), 6u);
  EXPECT_THAT(CoveredBy(chips),
              UnorderedElementsAreArray(
                  {27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33}));
  for (const Chip& c : chips) {
    EXPECT_EQ(c.position.chance, Chance::kSplit);
    EXPECT_EQ(c.amount, 100);
  }
}

TEST(CallBets, OrphelinsFiveUnitsOnTheEightNumbers_RF_8c) {
  std::vector<Chip> chips = Chips(kFr, Bet(BetKind::kOrphelins, {}, 500));
  EXPECT_THAT(CoveredBy(chips),
              UnorderedElementsAreArray({17, 34, 6, 1, 20, 14, 31, 9}));
  EXPECT_EQ(ByPosition(chips),
            (std::map<std::string, int64_t>{{"straight 1", 100},
                                            {"split 6-9", 100},
                                            {"split 14-17", 100},
                                            {"split 17-20", 100},
                                            {"split 31-34", 100}}));
}

// RF-8a-c between them cover the whole French wheel exactly once.
TEST(CallBets, TheThreeSectionsPartitionTheWheel_RF_8) {
  std::multiset<Pocket> all;
  for (BetKind kind :
       {BetKind::kVoisins, BetKind::kTiers, BetKind::kOrphelins}) {
    for (Pocket p : CoveredBy(Chips(kFr, Bet(kind, {}, 900 * 6 * 5)))) {
      all.insert(p);
    }
  }
  EXPECT_EQ(all.size(), 37u);
  EXPECT_EQ(std::set<Pocket>(all.begin(), all.end()).size(), 37u);
}

// Digest gap 4: "2, 4 or 6 neighbours" = that many in all, half each side.
TEST(CallBets, ANumberAndTwoFourOrSixNeighbours_RF_8d) {
  auto straights = [](WheelKind wheel, Pocket centre, int count) {
    std::vector<Pocket> out;
    for (const Chip& c :
         Chips(wheel, Neighbours(centre, count, 100 * (count + 1)))) {
      EXPECT_EQ(c.position.chance, Chance::kStraight);
      out.push_back(c.position.numbers.Pockets()[0]);
    }
    return out;
  };
  EXPECT_THAT(straights(kFr, 17, 2), ElementsAre(25, 17, 34));
  EXPECT_THAT(straights(kFr, 0, 4), ElementsAre(3, 26, 0, 32, 15));
  EXPECT_THAT(straights(kFr, 26, 6), ElementsAre(12, 35, 3, 26, 0, 32, 15));
  // The table's own wheel order: 00 sits between 1 and 27.
  EXPECT_THAT(straights(WheelKind::kAmericanDoubleZero, OO, 2),
              ElementsAre(1, OO, 27));
  EXPECT_THAT(straights(WheelKind::kAmericanSingleZero, 1, 2),
              ElementsAre(13, 1, 27));
  std::vector<Chip> chips = Chips(kFr, Neighbours(17, 4, 500));
  for (const Chip& c : chips) EXPECT_EQ(c.amount, 100);
}

TEST(CallBets, FinalsEveryNumberEndingInTheDigit_RF_8e) {
  auto finals = [](WheelKind wheel, int digit, int64_t amount) {
    std::vector<Pocket> out;
    for (const Chip& c : Chips(wheel, Bet(BetKind::kFinals, {digit}, amount))) {
      EXPECT_EQ(c.position.chance, Chance::kStraight);
      out.push_back(c.position.numbers.Pockets()[0]);
    }
    return out;
  };
  EXPECT_THAT(finals(kFr, 0, 400), ElementsAre(0, 10, 20, 30));
  EXPECT_THAT(finals(kFr, 6, 400), ElementsAre(6, 16, 26, 36));
  EXPECT_THAT(finals(kFr, 7, 300), ElementsAre(7, 17, 27));
  EXPECT_THAT(finals(WheelKind::kAmericanDoubleZero, 0, 400),
              ElementsAre(0, 10, 20, 30));
}

TEST(CallBets, AmountMustDivideIntoTheChips_RF_8_Decision) {
  EXPECT_EQ(Error(kFr, Bet(BetKind::kVoisins, {}, 1000)),
            "voisins is 9 units, so its amount must divide by 9; got 1000");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kTiers, {}, 100)),
            "tiers is 6 units, so its amount must divide by 6; got 100");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kOrphelins, {}, 4)),
            "orphelins is 5 units, so its amount must divide by 5; got 4");
  EXPECT_EQ(Error(kFr, Neighbours(5, 6, 100)),
            "neighbours is 7 units, so its amount must divide by 7; got 100");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kFinals, {8}, 100)),
            "finals is 3 units, so its amount must divide by 3; got 100");
}

TEST(CallBets, MalformedCallBetsAreRejected) {
  EXPECT_EQ(Error(kFr, Neighbours(17, 3, 400)),
            "neighbours count must be 2, 4 or 6 (RF-8d), got 3");
  EXPECT_EQ(Error(kFr, Neighbours(37, 2, 300)),
            "number 37 is not on the wheel (0..36)");
  EXPECT_EQ(Error(kFr, Neighbours(OO, 2, 300)),
            "00 is only on a double-zero wheel");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kNeighbours, {1, 2}, 300)),
            "neighbours needs one centre number, got 2");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kFinals, {10}, 300)),
            "finals digit must be 0..9, got 10");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kFinals, {}, 300)),
            "finals needs one digit, got 0");
  EXPECT_EQ(Error(kFr, Bet(BetKind::kVoisins, {0}, 900)),
            "voisins takes no numbers or count");
}

// The three sections follow the French wheel; the American wheel orders
// its pockets differently (RA gap 5: RA lists no call bets).
TEST(CallBets, FrenchSectionsAreNotOfferedOnTheAmericanWheel_RA_gap5) {
  for (WheelKind wheel :
       {WheelKind::kAmericanSingleZero, WheelKind::kAmericanDoubleZero}) {
    EXPECT_EQ(Error(wheel, Bet(BetKind::kTiers, {}, 600)),
              "tiers is a section of the French wheel (RF-8); not offered on "
              "the American wheel");
  }
}

}  // namespace
}  // namespace banca::games::roulette
