#include "libs/games/tournament/guarantee.h"

#include <algorithm>

#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/prize_structure.h"

namespace banca::games::tournament {

absl::StatusOr<int64_t> Overlay(int64_t collected, int64_t guarantee) {
  RETURN_IF_ERROR(CheckAmount("pool", collected));
  RETURN_IF_ERROR(CheckAmount("guarantee", guarantee));
  const int64_t overlay = collected < guarantee ? guarantee - collected : 0;
  BANCA_CHECK(overlay >= 0 && overlay <= guarantee);
  BANCA_CHECK(collected + overlay == std::max(collected, guarantee));
  return overlay;
}

absl::StatusOr<FixedPrizes> FixPrizes(int64_t collected, int64_t guarantee,
                                      absl::Span<const int32_t> payouts_bps,
                                      int players) {
  RETURN_IF_ERROR(CheckPayoutsForPlayers(payouts_bps, players));
  ASSIGN_OR_RETURN(const int64_t overlay, Overlay(collected, guarantee));
  FixedPrizes fixed{collected, overlay, collected + overlay, {}};
  ASSIGN_OR_RETURN(fixed.prizes, PrizeAmounts(fixed.pool, payouts_bps));
  // The pool meets the guarantee and is paid out to the cent.
  BANCA_CHECK(fixed.pool >= guarantee);
  int64_t paid = 0;
  for (int64_t prize : fixed.prizes) paid += prize;
  BANCA_CHECK(paid == fixed.pool);
  return fixed;
}

}  // namespace banca::games::tournament
