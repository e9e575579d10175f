// Hand-for-hand (TN-49): "as set in the tournament's specific rules", when
// a multi-table tournament nears the paid places, all tables start each
// hand together and none starts a new one until all have finished.
//
// banca's trigger (the digest's decision; the original leaves the point to
// the specific rules): when the next elimination reaches the paid places,
// i.e. exactly one player more is left than there are paid places (the
// bubble). It ends once that elimination happens: then every player left
// is paid. Several players out in one hand can pass the bubble without it
// ever being exactly one over (TN-50/51 then place them).
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_HAND_FOR_HAND_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_HAND_FOR_HAND_H_

#include "absl/status/statusor.h"

namespace banca::games::tournament {

// players_left == paid_places + 1. With one table left it is true on the
// bubble as well, and changes nothing: one table is already in step.
// INVALID_ARGUMENT naming the field: players_left outside 1..kMaxEntries,
// paid_places outside 1..kMaxPlaces.
absl::StatusOr<bool> HandForHand(int players_left, int paid_places);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_HAND_FOR_HAND_H_
