#include "libs/games/tournament/prize_structure.h"

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/games/tournament/limits.h"
#include "libs/money/money.h"

namespace banca::games::tournament {

absl::Status CheckPayouts(absl::Span<const int32_t> payouts_bps) {
  RETURN_IF_ERROR(CheckCount("payouts_bps", payouts_bps.size(), kMaxPlaces));
  int64_t sum = 0;
  for (size_t i = 0; i < payouts_bps.size(); ++i) {
    const int32_t bps = payouts_bps[i];
    if (bps <= 0 || bps > money::kBpsPerUnit) {
      return absl::InvalidArgumentError(
          absl::StrCat("payouts_bps: place ", i + 1, " has ", bps,
                       " bps, outside 1..", money::kBpsPerUnit));
    }
    if (i > 0 && bps > payouts_bps[i - 1]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "payouts_bps: place ", i + 1, " (", bps,
          " bps) pays more than place ", i, " (", payouts_bps[i - 1], " bps)"));
    }
    sum += bps;  // at most kMaxPlaces × 10,000: no overflow
  }
  if (sum != money::kBpsPerUnit) {
    return absl::InvalidArgumentError(absl::StrCat(
        "payouts_bps: the shares sum to ", sum, ", not ", money::kBpsPerUnit));
  }
  return absl::OkStatus();
}

absl::Status CheckPayoutsForPlayers(absl::Span<const int32_t> payouts_bps,
                                    int players) {
  RETURN_IF_ERROR(CheckPayouts(payouts_bps));
  if (players < 1 || static_cast<size_t>(players) < payouts_bps.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("payouts_bps: ", payouts_bps.size(), " paid places for ",
                     players, " players"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<int64_t>> PrizeAmounts(
    int64_t pool, absl::Span<const int32_t> payouts_bps) {
  RETURN_IF_ERROR(CheckAmount("pool", pool));
  RETURN_IF_ERROR(CheckPayouts(payouts_bps));
  std::vector<int64_t> prizes;
  prizes.reserve(payouts_bps.size());
  int64_t floored = 0;
  for (int32_t bps : payouts_bps) {
    ASSIGN_OR_RETURN(const int64_t prize,
                     money::ApplyBps(pool, bps, money::Rounding::kDown));
    prizes.push_back(prize);
    floored += prize;  // the floors sum to at most the pool
  }
  const int64_t leftover = pool - floored;
  // Each floor drops less than a cent, so fewer cents than places are left.
  BANCA_CHECK(leftover >= 0 && leftover < static_cast<int64_t>(prizes.size()));
  for (int64_t i = 0; i < leftover; ++i) ++prizes[i];
  int64_t sum = 0;
  for (size_t i = 0; i < prizes.size(); ++i) {
    BANCA_CHECK(prizes[i] >= 0);
    BANCA_CHECK(i == 0 || prizes[i] <= prizes[i - 1]);
    sum += prizes[i];
  }
  BANCA_CHECK(sum == pool);
  return prizes;
}

}  // namespace banca::games::tournament
