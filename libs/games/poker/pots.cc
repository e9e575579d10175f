#include "libs/games/poker/pots.h"

#include <algorithm>
#include <array>

#include "libs/common/check.h"
#include "libs/money/money.h"

namespace banca::games::poker {

PotSplit SplitPots(absl::Span<const Contribution> contributions) {
  PotSplit split;
  const int n = static_cast<int>(contributions.size());
  BANCA_CHECK(n >= 1 && n <= kMaxSeats);
  std::array<int64_t, kMaxSeats> amount{};
  int top = -1;
  int64_t put_in = 0;
  for (int i = 0; i < n; ++i) {
    amount[i] = contributions[i].amount;
    BANCA_CHECK(amount[i] >= 0);
    put_in += amount[i];
    if (top < 0 || amount[i] > amount[top]) top = i;
  }
  int64_t second = 0;
  for (int i = 0; i < n; ++i) {
    if (i != top) second = std::max(second, amount[i]);
  }
  if (amount[top] > second) {
    split.returned = {contributions[top].seat, amount[top] - second};
    amount[top] = second;
  }

  // Distinct levels of the players still in: each level closes a pot.
  std::array<int64_t, kMaxSeats> levels{};
  int num_levels = 0;
  for (int i = 0; i < n; ++i) {
    if (contributions[i].folded) continue;
    levels[num_levels++] = amount[i];
  }
  BANCA_CHECK(num_levels >= 1);
  std::sort(levels.begin(), levels.begin() + num_levels);
  num_levels = static_cast<int>(
      std::unique(levels.begin(), levels.begin() + num_levels) -
      levels.begin());

  // Every chip put in ends in exactly one pot or is returned, and each pot
  // can be won by someone.
  int64_t accounted = split.returned.amount;
  int64_t previous = 0;
  for (int l = 0; l < num_levels; ++l) {
    // Chips of folded players above the last live level cannot exist (a
    // folded player never out-bets a caller), but if they did they would
    // belong to the top pot rather than vanish.
    const bool last = l + 1 == num_levels;
    const int64_t level = levels[l];
    // Without data-dependent branches: who folded and who reached a level
    // is random, and the mispredictions were most of this function's time.
    int64_t pot_amount = 0;
    std::array<int, kMaxSeats> eligible;
    int num_eligible = 0;
    for (int i = 0; i < n; ++i) {
      const int64_t upper = last ? amount[i] : std::min(amount[i], level);
      pot_amount += std::max<int64_t>(upper - previous, 0);
      eligible[num_eligible] = contributions[i].seat;
      num_eligible += static_cast<int>(!contributions[i].folded) &
                      static_cast<int>(amount[i] >= level);
    }
    previous = level;
    if (pot_amount == 0) continue;  // a level of 0: a player who put nothing
    BANCA_CHECK(pot_amount > 0 && num_eligible > 0);
    accounted += pot_amount;
    Pot pot;
    pot.amount = pot_amount;
    for (int k = 0; k < num_eligible; ++k) pot.eligible.push_back(eligible[k]);
    split.pots.push_back(pot);
  }
  BANCA_CHECK(accounted == put_in);
  return split;
}

SmallList<int64_t, kMaxSeats> RakePots(absl::Span<const Pot> pots, int32_t bps,
                                       int64_t cap) {
  SmallList<int64_t, kMaxSeats> rake;
  int64_t left = cap > 0 ? cap : money::kMaxAmountMinor * kMaxSeats;
  for (const Pot& pot : pots) {
    absl::StatusOr<int64_t> r =
        money::ApplyBps(pot.amount, bps, money::Rounding::kDown);
    BANCA_CHECK(r.ok());
    const int64_t take = std::min(*r, left);
    // Rake is never negative, never more than its pot, never past the cap.
    BANCA_CHECK(take >= 0 && take <= pot.amount && take <= left);
    left -= take;
    rake.push_back(take);
  }
  return rake;
}

}  // namespace banca::games::poker
