// Randomness for dealing. Engines and services take a `RandomSource&` so that
// production wires in the OS-seeded CSPRNG (SystemRandomSource) and tests wire
// in the deterministic generator from seeded_random.h (a separate library that
// production targets do not link). Design notes: docs/rng.md.
#ifndef BANCA_LIBS_CARDS_RANDOM_H_
#define BANCA_LIBS_CARDS_RANDOM_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/cards/card.h"

namespace banca::cards {

// A source of independent, uniformly distributed bytes. Not thread-safe: one
// instance per thread (or per table actor).
class RandomSource {
 public:
  virtual ~RandomSource() = default;
  virtual void Fill(absl::Span<uint8_t> out) = 0;
  // Four fresh bytes, little-endian.
  virtual uint32_t NextU32();
};

// The production source: libsodium's randombytes_buf, which reads the
// kernel CSPRNG (getrandom(2)). Output is buffered in small blocks; every
// byte is handed out once and wiped as it is consumed, and a buffer is
// discarded in a forked child so parent and child never deal the same cards.
class SystemRandomSource final : public RandomSource {
 public:
  // INTERNAL when libsodium cannot initialise (no kernel entropy source).
  static absl::StatusOr<std::unique_ptr<SystemRandomSource>> Create();
  ~SystemRandomSource() override;
  SystemRandomSource(const SystemRandomSource&) = delete;
  SystemRandomSource& operator=(const SystemRandomSource&) = delete;

  void Fill(absl::Span<uint8_t> out) override;
  uint32_t NextU32() override;

 private:
  SystemRandomSource() = default;
  void Refill();

  static constexpr size_t kBufferBytes = 256;
  std::array<uint8_t, kBufferBytes> buffer_{};
  size_t pos_ = kBufferBytes;  // Empty: nothing is drawn before first use.
  uint64_t fork_generation_ = 0;
};

// Uniform integer in [0, n) for n ≥ 1 (n = 0 returns 0). Rejection sampling:
// 32-bit draws at or above the largest multiple of n are discarded, so every
// result has probability exactly 1/n (no modulo bias).
uint32_t UniformInt(RandomSource& rng, uint32_t n);

// Fisher–Yates (Durstenfeld): position i takes a uniform pick among positions
// [0, i]. Each of the n! orders has probability exactly 1/n! given uniform
// UniformInt.
template <typename T>
void Shuffle(absl::Span<T> items, RandomSource& rng) {
  for (size_t i = items.size(); i > 1; --i) {
    size_t j = UniformInt(rng, static_cast<uint32_t>(i));
    using std::swap;
    swap(items[i - 1], items[j]);
  }
}

// A freshly shuffled deck built from `spec`.
absl::StatusOr<std::vector<Card>> ShuffledDeck(RandomSource& rng,
                                               const DeckSpec& spec = {});

}  // namespace banca::cards

#endif  // BANCA_LIBS_CARDS_RANDOM_H_
