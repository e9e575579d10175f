#include "libs/cards/seeded_random.h"

#include <sodium.h>

#include <algorithm>
#include <bit>
#include <cstring>

namespace banca::cards::testing {
namespace {

void InitSodium() {
  static const bool ok = sodium_init() >= 0;
  // ChaCha20 and BLAKE2b need no entropy; a failed init only means the
  // library could not pick its fastest implementations.
  (void)ok;
}

}  // namespace

SeededRandomSource::SeededRandomSource(const std::array<uint8_t, 32>& key)
    : key_(key) {
  InitSodium();
}

SeededRandomSource SeededRandomSource::FromSeed(uint64_t seed) {
  InitSodium();
  static constexpr char kLabel[] = "banca.cards.SeededRandomSource.v1";
  uint8_t input[sizeof(kLabel) + 8];
  std::memcpy(input, kLabel, sizeof(kLabel));
  for (int i = 0; i < 8; ++i) {
    input[sizeof(kLabel) + i] = static_cast<uint8_t>(seed >> (8 * i));
  }
  std::array<uint8_t, 32> key;
  crypto_generichash(key.data(), key.size(), input, sizeof(input), nullptr, 0);
  return SeededRandomSource(key);
}

SeededRandomSource::~SeededRandomSource() {
  sodium_memzero(key_.data(), key_.size());
  sodium_memzero(buffer_.data(), buffer_.size());
}

void SeededRandomSource::Refill() {
  std::memset(buffer_.data(), 0, buffer_.size());
  // XOR with zeros yields the raw keystream starting at block next_block_.
  crypto_stream_chacha20_xor_ic(buffer_.data(), buffer_.data(), buffer_.size(),
                                nonce_.data(), next_block_, key_.data());
  next_block_ += kBufferBytes / 64;
  pos_ = 0;
}

void SeededRandomSource::Fill(absl::Span<uint8_t> out) {
  size_t done = 0;
  while (done < out.size()) {
    if (pos_ == kBufferBytes) Refill();
    size_t n = std::min(out.size() - done, kBufferBytes - pos_);
    std::memcpy(out.data() + done, buffer_.data() + pos_, n);
    pos_ += n;
    done += n;
  }
}

uint32_t SeededRandomSource::NextU32() {
  if (kBufferBytes - pos_ < 4) {
    // Keep the byte stream contiguous whatever mix of calls a test makes.
    uint8_t b[4];
    Fill(absl::MakeSpan(b));
    return uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 |
           uint32_t{b[3]} << 24;
  }
  uint32_t v;
  static_assert(std::endian::native == std::endian::little);
  std::memcpy(&v, buffer_.data() + pos_, 4);
  pos_ += 4;
  return v;
}

}  // namespace banca::cards::testing
