// TEST AND OFFLINE USE ONLY. A deterministic generator for reproducible tests,
// simulations and benchmarks. It lives in its own library target
// (banca_cards_seeded_for_tests); no service or engine target may link it,
// and nothing reachable from the network can construct it: production deals
// only from SystemRandomSource (random.h). See docs/rng.md.
#ifndef BANCA_LIBS_CARDS_SEEDED_RANDOM_H_
#define BANCA_LIBS_CARDS_SEEDED_RANDOM_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "libs/cards/random.h"

namespace banca::cards::testing {

// The ChaCha20 keystream (libsodium crypto_stream_chacha20, 64-bit block
// counter) under a 256-bit key: 256 bits of seed, well above the 226 bits
// (log2 52! ≈ 225.6) needed for every deck order to be reachable.
class SeededRandomSource final : public RandomSource {
 public:
  explicit SeededRandomSource(const std::array<uint8_t, 32>& key);
  // Convenience for tests: the key is BLAKE2b-256 of the seed and a domain
  // label. Only 2^64 keys are reachable this way, which is fine for tests.
  static SeededRandomSource FromSeed(uint64_t seed);
  ~SeededRandomSource() override;

  void Fill(absl::Span<uint8_t> out) override;
  uint32_t NextU32() override;

 private:
  void Refill();

  static constexpr size_t kBufferBytes = 4096;  // 64 ChaCha20 blocks.
  std::array<uint8_t, 32> key_;
  std::array<uint8_t, 8> nonce_{};
  uint64_t next_block_ = 0;
  std::array<uint8_t, kBufferBytes> buffer_{};
  size_t pos_ = kBufferBytes;
};

}  // namespace banca::cards::testing

#endif  // BANCA_LIBS_CARDS_SEEDED_RANDOM_H_
