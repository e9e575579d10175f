// The prize structure (TN-9, TN-10, TN-34, TN-54): the share of the prize
// pool each paid place receives, in basis points, best place first, and
// the amounts it gives once the pool is fixed.
//
// Amounts: place i gets floor(pool × payouts_bps[i] / 10,000); the cents
// left over (fewer than the number of places) go one each to places 1, 2,
// … so the prizes sum to the pool exactly.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_PRIZE_STRUCTURE_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_PRIZE_STRUCTURE_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace banca::games::tournament {

// INVALID_ARGUMENT naming payouts_bps unless there are 1..kMaxPlaces
// places, each share is positive, no place pays more than the one above
// it (a better place is never worth less: TN-50 gives "the prize of
// greater value" to the better-placed player), and the shares sum to
// exactly 10,000 (TN-9: the prizes are the whole pool).
absl::Status CheckPayouts(absl::Span<const int32_t> payouts_bps);

// CheckPayouts, and no more paid places than `players`, the players who
// took part (each finishes in one place, whatever their reentries).
absl::Status CheckPayoutsForPlayers(absl::Span<const int32_t> payouts_bps,
                                    int players);

// The prize of each place, best first, for a fixed pool (TN-10).
// INVALID_ARGUMENT for bad payouts_bps or a pool outside
// 0..kMaxAmountMinor. The amounts sum to the pool and never increase from
// one place to the next.
absl::StatusOr<std::vector<int64_t>> PrizeAmounts(
    int64_t pool, absl::Span<const int32_t> payouts_bps);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_PRIZE_STRUCTURE_H_
