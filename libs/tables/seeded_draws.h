// The draws of one tournament event (a seat draw, a seat for a late
// entrant, a player moved to balance the tables: TN-39/48): a ChaCha20
// stream keyed by the 32 bytes the service took from its CSPRNG for that
// event and logged with it. Live and on replay the event draws the same;
// before the event no one knows its seed. (Decks are not drawn this way:
// they come whole from the CSPRNG and are logged sealed.)
#ifndef BANCA_LIBS_TABLES_SEEDED_DRAWS_H_
#define BANCA_LIBS_TABLES_SEEDED_DRAWS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/cards/random.h"

namespace banca::tables {

inline constexpr size_t kDrawSeedBytes = 32;

class SeededDraws final : public cards::RandomSource {
 public:
  // INVALID_ARGUMENT unless the seed is kDrawSeedBytes long.
  static absl::StatusOr<SeededDraws> Create(std::string_view seed);

  void Fill(absl::Span<uint8_t> out) override;

  // A uniform index in 0..n − 1 (n >= 1), without bias.
  int Draw(int n);

 private:
  SeededDraws() = default;

  std::array<uint8_t, kDrawSeedBytes> key_{};
  std::array<uint8_t, 64> block_{};
  size_t used_ = 64;      // of block_
  uint32_t counter_ = 0;  // the next block
};

// kDrawSeedBytes from `rng` (the service's CSPRNG), for an event's seed.
std::string NewDrawSeed(cards::RandomSource& rng);

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_SEEDED_DRAWS_H_
