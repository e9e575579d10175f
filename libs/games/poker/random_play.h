// Random legal play for tests, the differential test against PokerKit and
// the benchmark. The caller supplies the randomness: the library has no RNG.
#ifndef BANCA_LIBS_GAMES_POKER_RANDOM_PLAY_H_
#define BANCA_LIBS_GAMES_POKER_RANDOM_PLAY_H_

#include <cstdint>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "libs/games/poker/action.h"
#include "libs/games/poker/hand.h"

namespace banca::games::poker {

// Uniform 64-bit values.
using BitSource = absl::FunctionRef<uint64_t()>;

struct RandomDecision {
  Action action;
  bool timeout = false;  // use Hand::Timeout instead of the action
};

// A legal decision for the player to act (the hand must not be finished).
// Biased towards all-ins and calls so that multi-way all-ins and side pots
// are common, with some folds, raises of every size and a few timeouts.
RandomDecision RandomLegalDecision(const Hand& hand, BitSource bits);

// Plays the hand to its end with RandomLegalDecision. An error means the
// engine rejected its own legal() offer: a bug.
absl::Status PlayRandomly(Hand& hand, BitSource bits);

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_RANDOM_PLAY_H_
