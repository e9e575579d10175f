#include "libs/games/tournament/same_hand.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/test_util.h"

namespace banca::games::tournament {
namespace {

using Finishes = std::vector<Finish>;

SameHandBust Bust(std::string player, int64_t stack, int order) {
  return {{std::move(player), order}, stack};
}

Finishes Place(const std::vector<SameHandBust>& busts, int first_place,
               const std::vector<int64_t>& prizes) {
  absl::StatusOr<Finishes> f = PlaceSameHandBusts(busts, first_place, prizes);
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? *f : Finishes{};
}

TEST(SameHandBusts, LargerStartingStackTakesTheBetterPlace_TN50) {
  // Places 3 and 4 at stake (5,947 and 4,270): bia began with 8,000 chips,
  // ana with 5,000.
  EXPECT_EQ(
      Place({Bust("ana", 5000, 2), Bust("bia", 8000, 1)}, 3, {5947, 4270}),
      (Finishes{{"bia", 3, 5947}, {"ana", 4, 4270}}));
}

TEST(SameHandBusts, EqualStacksShareThePlacesExAequo_TN51) {
  // Equal stacks: both third, 5,947 + 4,270 = 10,217 shared: 5,108 each
  // and the odd cent to bia, first clockwise from the button.
  EXPECT_EQ(
      Place({Bust("ana", 5000, 3), Bust("bia", 5000, 1)}, 3, {5947, 4270}),
      (Finishes{{"bia", 3, 5109}, {"ana", 3, 5108}}));
}

TEST(SameHandBusts, ThreeEqualStacksOddCentsFromTheButton_TN51) {
  // 1,000 + 700 + 501 = 2,201 = 3 × 733 + 2: the two players first from
  // the button (ana at 2, cai at 5) take a cent more than bia (7).
  EXPECT_EQ(
      Place({Bust("cai", 4000, 5), Bust("ana", 4000, 2), Bust("bia", 4000, 7)},
            4, {1000, 700, 501}),
      (Finishes{{"ana", 4, 734}, {"cai", 4, 734}, {"bia", 4, 733}}));
}

TEST(SameHandBusts, GroupsOfEqualStacksKeepTheirPlaces_TN50_TN51) {
  // dani (9,000) 2nd: 3,000; ana and bia (4,000) 3rd ex aequo: 2,000 +
  // 1,001 = 3,001, 1,501 to bia (order 1) and 1,500 to ana; cai (1,000) 5th.
  EXPECT_EQ(Place({Bust("ana", 4000, 4), Bust("cai", 1000, 2),
                   Bust("dani", 9000, 3), Bust("bia", 4000, 1)},
                  2, {3000, 2000, 1001, 500}),
            (Finishes{{"dani", 2, 3000},
                      {"bia", 3, 1501},
                      {"ana", 3, 1500},
                      {"cai", 5, 500}}));
}

TEST(SameHandBusts, OnTheBubbleTheUnpaidPlaceCountsAsZero_TN50_Gap5) {
  // Place 5 pays 1,001 and place 6 nothing.
  EXPECT_EQ(Place({Bust("ana", 3000, 1), Bust("bia", 3000, 2)}, 5, {1001, 0}),
            (Finishes{{"ana", 5, 501}, {"bia", 5, 500}}));
  EXPECT_EQ(Place({Bust("ana", 2999, 1), Bust("bia", 3000, 2)}, 5, {1001, 0}),
            (Finishes{{"bia", 5, 1001}, {"ana", 6, 0}}));
}

TEST(SameHandBusts, OnePlayerOutTakesThePlace_TN50) {
  EXPECT_EQ(Place({Bust("ana", 1, 1)}, 1, {0}), (Finishes{{"ana", 1, 0}}));
}

TEST(SameHandBusts, LargestValuesWithoutOverflow_TN51) {
  // 500,000,000,000,000 + 499,999,999,999,999 shared by two: one cent odd.
  EXPECT_EQ(Place({Bust("ana", kMaxChips, 2), Bust("bia", kMaxChips, 1)},
                  kMaxPlaces - 1, {500'000'000'000'000, 499'999'999'999'999}),
            (Finishes{{"bia", kMaxPlaces - 1, 500'000'000'000'000},
                      {"ana", kMaxPlaces - 1, 499'999'999'999'999}}));
}

TEST(SameHandBusts, BadPrizesAreRejected) {
  const std::vector<SameHandBust> two = {Bust("ana", 10, 1),
                                         Bust("bia", 20, 2)};
  EXPECT_TRUE(IsInvalid(PlaceSameHandBusts(two, 3, {100}).status(), "prizes"));
  EXPECT_TRUE(
      IsInvalid(PlaceSameHandBusts(two, 3, {100, 200}).status(), "prizes"));
  EXPECT_TRUE(
      IsInvalid(PlaceSameHandBusts(two, 3, {100, -1}).status(), "prizes"));
  EXPECT_TRUE(IsInvalid(
      PlaceSameHandBusts(two, 3, {kMaxAmountMinor, kMaxAmountMinor}).status(),
      "prizes (sum)"));
}

TEST(SameHandBusts, BadPlacesAreRejected) {
  const std::vector<SameHandBust> two = {Bust("ana", 10, 1),
                                         Bust("bia", 20, 2)};
  EXPECT_TRUE(
      IsInvalid(PlaceSameHandBusts(two, 0, {2, 1}).status(), "first_place"));
  EXPECT_TRUE(IsInvalid(PlaceSameHandBusts(two, kMaxPlaces, {2, 1}).status(),
                        "first_place"));
}

TEST(SameHandBusts, BadPlayersAreRejected) {
  auto place = [](std::vector<SameHandBust> busts) {
    const std::vector<int64_t> prizes(busts.size(), 0);
    return PlaceSameHandBusts(busts, 1, prizes).status();
  };
  EXPECT_TRUE(IsInvalid(place({}), "busts"));
  EXPECT_TRUE(IsInvalid(place({Bust("ana", 0, 1)}), "starting_stack"));
  EXPECT_TRUE(
      IsInvalid(place({Bust("ana", kMaxChips + 1, 1)}), "starting_stack"));
  EXPECT_TRUE(IsInvalid(place({Bust("ana", 5, 0)}), "order_from_button"));
  EXPECT_TRUE(IsInvalid(place({Bust("ana", 5, kMaxOrderFromButton + 1)}),
                        "order_from_button"));
  EXPECT_TRUE(IsInvalid(place({Bust("ana", 5, 1), Bust("ana", 6, 2)}),
                        "appears twice"));
  EXPECT_TRUE(IsInvalid(place({Bust("ana", 5, 1), Bust("bia", 6, 1)}),
                        "order_from_button"));
  EXPECT_TRUE(IsInvalid(place({Bust("", 5, 1)}), "player id"));
  EXPECT_TRUE(
      IsInvalid(place({Bust(std::string(65, 'x'), 5, 1)}), "player id"));
}

}  // namespace
}  // namespace banca::games::tournament
