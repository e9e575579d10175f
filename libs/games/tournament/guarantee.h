// Fixing the prizes (TN-10) with a guaranteed prize pool (TN-7m): when
// registration, reentries, rebuys and add-ons close, a pool below the
// guarantee is topped up by the house (the overlay, from house/overlay).
// A cancelled tournament pays no overlay (cancellation.h).
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_GUARANTEE_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_GUARANTEE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace banca::games::tournament {

// What the house adds: guarantee − collected if positive, else 0.
// INVALID_ARGUMENT naming the field for an amount outside
// 0..kMaxAmountMinor.
absl::StatusOr<int64_t> Overlay(int64_t collected, int64_t guarantee);

struct FixedPrizes {
  int64_t collected = 0;        // the prize parts paid in (payment.h)
  int64_t overlay = 0;          // added by the house (TN-7m)
  int64_t pool = 0;             // collected + overlay
  std::vector<int64_t> prizes;  // per place, best first; sum to pool
};

// The pool and every prize, once nothing more can be paid in (TN-10).
// `players`: those who took part (no more paid places than players).
// INVALID_ARGUMENT naming the field for bad amounts or payouts_bps.
absl::StatusOr<FixedPrizes> FixPrizes(int64_t collected, int64_t guarantee,
                                      absl::Span<const int32_t> payouts_bps,
                                      int players);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_GUARANTEE_H_
