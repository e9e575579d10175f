// Players eliminated in the same hand (TN-50, TN-51, the digest's gap 5):
// the larger stack at the start of the hand takes the better place; equal
// stacks are placed ex aequo and share the summed prizes of their places
// equally, the odd cents by the seat rule (seat_order.h).
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_SAME_HAND_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_SAME_HAND_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/games/tournament/seat_order.h"

namespace banca::games::tournament {

struct SameHandBust {
  SeatedPlayer seat;
  int64_t starting_stack = 0;  // chips when the hand began, 1..kMaxChips
};

struct Finish {
  std::string player;
  int place = 0;  // ex aequo players all hold the best place of their group
  int64_t prize = 0;
  bool operator==(const Finish&) const = default;
};

// The places and prizes of `busts`, who take the places first_place,
// first_place + 1, … (one per player) whose prizes are `prizes`, best
// first (0 for an unpaid place: on the bubble the rule applies as soon as
// one place at stake is paid). Sorted by place, then from the button.
// INVALID_ARGUMENT naming the field: bad players (seat_order.h), a stack
// outside 1..kMaxChips, first_place outside 1..kMaxPlaces or places past
// it, as many prizes as players, prizes outside 0..kMaxAmountMinor, rising
// from one place to the next, or summing past kMaxAmountMinor.
absl::StatusOr<std::vector<Finish>> PlaceSameHandBusts(
    absl::Span<const SameHandBust> busts, int first_place,
    absl::Span<const int64_t> prizes);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_SAME_HAND_H_
