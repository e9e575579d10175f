// Money shared in proportion to chips (TN-36b/c, the digest's gap 3): each
// stack gets floor(amount × chips / total chips); the cents left over
// (fewer than the stacks) go one each to the largest stacks, equal stacks
// by the lower seat number.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_CHIP_SHARE_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_CHIP_SHARE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "libs/games/tournament/seat_order.h"

namespace banca::games::tournament {

struct Stack {
  std::string player;
  int64_t chips = 0;  // 1..kMaxChips
  int seat = 0;       // distinct; the lower takes a leftover cent on a tie
};

// One share per stack, in the order given; the shares sum to `amount`.
// Preconditions (checked, fatal): amount in 0..kMaxAmountMinor, 1 to
// kMaxEntries stacks with chips in 1..kMaxChips. Seats should be distinct
// (the caller checks): equal ones leave the order of a tie unspecified.
std::vector<PlayerAmount> ShareByChips(int64_t amount,
                                       absl::Span<const Stack> stacks);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_CHIP_SHARE_H_
