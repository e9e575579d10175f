#include "libs/tables/seeded_draws.h"

#include <sodium.h>

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"

namespace banca::tables {

absl::StatusOr<SeededDraws> SeededDraws::Create(std::string_view seed) {
  if (seed.size() != kDrawSeedBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "draw_seed must be ", kDrawSeedBytes, " bytes, not ", seed.size()));
  }
  SeededDraws d;
  std::memcpy(d.key_.data(), seed.data(), kDrawSeedBytes);
  return d;
}

void SeededDraws::Fill(absl::Span<uint8_t> out) {
  size_t done = 0;
  while (done < out.size()) {
    if (used_ == block_.size()) {
      // Block `counter_` of the key's stream (nonce 0): zeros encrypted.
      static constexpr std::array<uint8_t,
                                  crypto_stream_chacha20_ietf_NONCEBYTES>
          kNonce{};
      block_.fill(0);
      BANCA_CHECK(crypto_stream_chacha20_ietf_xor_ic(
                      block_.data(), block_.data(), block_.size(),
                      kNonce.data(), counter_++, key_.data()) == 0);
      used_ = 0;
    }
    const size_t n = std::min(out.size() - done, block_.size() - used_);
    std::memcpy(out.data() + done, block_.data() + used_, n);
    used_ += n;
    done += n;
  }
}

int SeededDraws::Draw(int n) {
  BANCA_CHECK(n >= 1);
  return static_cast<int>(cards::UniformInt(*this, static_cast<uint32_t>(n)));
}

std::string NewDrawSeed(cards::RandomSource& rng) {
  std::string seed(kDrawSeedBytes, '\0');
  rng.Fill(
      absl::MakeSpan(reinterpret_cast<uint8_t*>(seed.data()), seed.size()));
  return seed;
}

}  // namespace banca::tables
