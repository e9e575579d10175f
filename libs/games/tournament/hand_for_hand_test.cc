#include "libs/games/tournament/hand_for_hand.h"

#include "gtest/gtest.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/test_util.h"

namespace banca::games::tournament {
namespace {

bool On(int players_left, int paid_places) {
  absl::StatusOr<bool> h = HandForHand(players_left, paid_places);
  EXPECT_TRUE(h.ok()) << h.status();
  return h.value_or(false);
}

TEST(HandForHand, OnTheBubbleOnly_TN49) {
  // 27 players, 4 paid: hand-for-hand with 5 left, not before or after.
  EXPECT_FALSE(On(27, 4));
  EXPECT_FALSE(On(6, 4));
  EXPECT_TRUE(On(5, 4));
  EXPECT_FALSE(On(4, 4));
  EXPECT_FALSE(On(3, 4));
  EXPECT_TRUE(On(2, 1));
  EXPECT_TRUE(On(kMaxPlaces + 1, kMaxPlaces));
  EXPECT_FALSE(On(kMaxEntries, kMaxPlaces));
}

TEST(HandForHand, BadInputIsRejected) {
  EXPECT_TRUE(IsInvalid(HandForHand(0, 4).status(), "players_left"));
  EXPECT_TRUE(
      IsInvalid(HandForHand(kMaxEntries + 1, 4).status(), "players_left"));
  EXPECT_TRUE(IsInvalid(HandForHand(5, 0).status(), "paid_places"));
  EXPECT_TRUE(
      IsInvalid(HandForHand(5, kMaxPlaces + 1).status(), "paid_places"));
}

}  // namespace
}  // namespace banca::games::tournament
