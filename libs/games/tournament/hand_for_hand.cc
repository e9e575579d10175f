#include "libs/games/tournament/hand_for_hand.h"

#include "absl/strings/str_cat.h"
#include "libs/games/tournament/limits.h"

namespace banca::games::tournament {

absl::StatusOr<bool> HandForHand(int players_left, int paid_places) {
  if (players_left < 1 || players_left > kMaxEntries) {
    return absl::InvalidArgumentError(absl::StrCat(
        "players_left: ", players_left, " is outside 1..", kMaxEntries));
  }
  if (paid_places < 1 || paid_places > kMaxPlaces) {
    return absl::InvalidArgumentError(absl::StrCat(
        "paid_places: ", paid_places, " is outside 1..", kMaxPlaces));
  }
  return players_left == paid_places + 1;
}

}  // namespace banca::games::tournament
