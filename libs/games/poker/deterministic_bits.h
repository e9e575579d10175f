// Deterministic bits and random table set-ups for tests, benchmarks and the
// PokerKit differential test: reproducible from a seed, never secure. The
// table service draws decks from libs/cards' CSPRNG, never from this.
#ifndef BANCA_LIBS_GAMES_POKER_DETERMINISTIC_BITS_H_
#define BANCA_LIBS_GAMES_POKER_DETERMINISTIC_BITS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "libs/cards/card.h"
#include "libs/games/poker/hand_record.h"

namespace banca::games::poker {

// SplitMix64.
struct DeterministicBits {
  uint64_t state;
  uint64_t operator()() {
    uint64_t z = (state += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }
  // In [lo, hi]; the slight modulo bias does not matter for tests.
  int64_t Between(int64_t lo, int64_t hi) {
    return lo +
           static_cast<int64_t>((*this)() % static_cast<uint64_t>(hi - lo + 1));
  }
};

namespace internal {

template <int... k>
void ShuffleFullDeck(DeterministicBits& bits, cards::Card* deck,
                     std::integer_sequence<int, k...>) {
  // i = 51 down to 1, as the loop in ShuffleDeck.
  ((std::swap(deck[cards::kNumCards - 1 - k],
              deck[bits() % uint64_t{cards::kNumCards - k}])),
   ...);
}

}  // namespace internal

// Fisher-Yates over `deck`.
inline void ShuffleDeck(DeterministicBits& bits,
                        std::vector<cards::Card>& deck) {
  if (deck.size() == cards::kNumCards) {
    // The same draws as the loop below, but with every modulus a constant:
    // a multiplication each instead of a 64-bit division, which was most
    // of the time of a shuffle (and a sixth of the engine benchmark's).
    internal::ShuffleFullDeck(
        bits, deck.data(),
        std::make_integer_sequence<int, cards::kNumCards - 1>());
    return;
  }
  for (int i = static_cast<int>(deck.size()) - 1; i > 0; --i) {
    std::swap(deck[i], deck[bits.Between(0, i)]);
  }
}

// 2..10 players on random seats of a 10-seat table, ascending, with stacks
// from a few chips (often short of the blinds) to deep, so that all-ins and
// multi-way side pots are common.
inline std::vector<SeatedPlayer> RandomPlayers(DeterministicBits& bits,
                                               int64_t big_blind) {
  std::vector<SeatedPlayer> players;
  const int n = static_cast<int>(bits.Between(2, 10));
  for (int seat = 1, k = 0; seat <= 10 && k < n; ++seat) {
    if (10 - seat + 1 > n - k && bits.Between(0, 2) == 0) continue;
    int64_t stack;
    switch (bits.Between(0, 3)) {
      case 0:
        stack = bits.Between(1, 2 * big_blind);
        break;
      case 1:
        stack = bits.Between(1, 20 * big_blind);
        break;
      default:
        stack = bits.Between(50 * big_blind, 200 * big_blind);
    }
    players.push_back({seat, "p" + std::to_string(seat), stack});
    ++k;
  }
  return players;
}

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_DETERMINISTIC_BITS_H_
