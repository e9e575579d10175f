#include "libs/games/tournament/chip_share.h"

#include <algorithm>
#include <numeric>

#include "libs/common/check.h"
#include "libs/games/tournament/limits.h"

namespace banca::games::tournament {
namespace {

// Indices of the stacks, largest first, equal stacks by lower seat.
std::vector<size_t> LargestFirst(absl::Span<const Stack> stacks) {
  std::vector<size_t> order(stacks.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (stacks[a].chips != stacks[b].chips) {
      return stacks[a].chips > stacks[b].chips;
    }
    return stacks[a].seat < stacks[b].seat;
  });
  return order;
}

}  // namespace

std::vector<PlayerAmount> ShareByChips(int64_t amount,
                                       absl::Span<const Stack> stacks) {
  BANCA_CHECK(amount >= 0 && amount <= kMaxAmountMinor);
  BANCA_CHECK(!stacks.empty() && stacks.size() <= kMaxEntries);
  int64_t total_chips = 0;  // ≤ kMaxEntries × kMaxChips < 2^63
  for (const Stack& s : stacks) {
    BANCA_CHECK(s.chips >= 1 && s.chips <= kMaxChips);
    total_chips += s.chips;
  }
  std::vector<PlayerAmount> shares;
  int64_t floored = 0;
  for (const Stack& s : stacks) {
    const int64_t share = static_cast<int64_t>(static_cast<__int128>(amount) *
                                               s.chips / total_chips);
    shares.push_back({s.player, share});
    floored += share;
  }
  const int64_t leftover = amount - floored;
  // Each floor drops less than a cent.
  BANCA_CHECK(leftover >= 0 && leftover < static_cast<int64_t>(stacks.size()));
  const std::vector<size_t> order = LargestFirst(stacks);
  for (int64_t i = 0; i < leftover; ++i) ++shares[order[i]].amount;
  int64_t sum = 0;
  for (size_t i = 0; i < shares.size(); ++i) {
    // Within a cent above the exact proportional share.
    const __int128 exact = static_cast<__int128>(amount) * stacks[i].chips;
    BANCA_CHECK(static_cast<__int128>(shares[i].amount) * total_chips <=
                exact + total_chips);
    BANCA_CHECK(static_cast<__int128>(shares[i].amount) * total_chips +
                    total_chips >
                exact);
    sum += shares[i].amount;
  }
  BANCA_CHECK(sum == amount);
  return shares;
}

}  // namespace banca::games::tournament
