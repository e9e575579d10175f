// Splitting what players put into a hand into the main pot and side pots
// (HE-41, HE-42), and the rake on them (HE-17a, HE-19).
#ifndef BANCA_LIBS_GAMES_POKER_POTS_H_
#define BANCA_LIBS_GAMES_POKER_POTS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/games/poker/events.h"

namespace banca::games::poker {

struct Contribution {
  int seat = 0;
  int64_t amount = 0;  // everything put in this hand, uncalled part included
  bool folded = false;
};

struct Pot {
  int64_t amount = 0;
  SmallList<int, kMaxSeats> eligible;  // seats that may win it
  bool operator==(const Pot&) const = default;
};

struct PotSplit {
  // The uncalled part of the largest bet (HE gap 7: returned, not raked).
  SeatAmount returned;
  // Main pot first, then one side pot per distinct all-in amount below the
  // largest (HE-42).
  SmallList<Pot, kMaxSeats> pots;
};

// Pots from the contributions of every player dealt in (at least one not
// folded). Pot amounts plus the returned bet sum to the contributions.
PotSplit SplitPots(absl::Span<const Contribution> contributions);

// Rake per pot (HE-19), rounded down to the cent (HE gap 7). A positive
// `cap` bounds the hand's total; pots take their rake in order, main pot
// first, until the cap is used up.
SmallList<int64_t, kMaxSeats> RakePots(absl::Span<const Pot> pots, int32_t bps,
                                       int64_t cap);

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_POTS_H_
