// Helpers shared by the roulette tests.
#ifndef BANCA_LIBS_GAMES_ROULETTE_TEST_UTIL_H_
#define BANCA_LIBS_GAMES_ROULETTE_TEST_UTIL_H_

#include <initializer_list>
#include <vector>

#include "absl/time/time.h"
#include "libs/games/roulette/bet.h"

namespace banca::games::roulette::testing {

inline constexpr Pocket OO = kDoubleZero;

inline BetRequest Bet(BetKind kind, std::initializer_list<Pocket> numbers,
                      int64_t amount) {
  BetRequest r;
  r.kind = kind;
  r.numbers = numbers;
  r.amount = amount;
  return r;
}

inline BetRequest Outside(BetKind kind, int64_t amount,
                          std::initializer_list<int> index = {}) {
  BetRequest r;
  r.kind = kind;
  r.index = index;
  r.amount = amount;
  return r;
}

inline BetRequest Neighbours(Pocket centre, int count, int64_t amount) {
  BetRequest r = Bet(BetKind::kNeighbours, {centre}, amount);
  r.count = count;
  return r;
}

inline absl::Time T0() { return absl::FromUnixSeconds(1'700'000'000); }
inline absl::Time At(int seconds) { return T0() + absl::Seconds(seconds); }

}  // namespace banca::games::roulette::testing

#endif  // BANCA_LIBS_GAMES_ROULETTE_TEST_UTIL_H_
