// Elimination prizes (TN-7p): the bounty set aside from an eliminated
// player's entry (payment.h) goes to whoever won the pot that eliminated
// them, shared equally among that pot's winners, the odd cents by the seat
// rule (seat_order.h). The eliminating pot is the last pot in which the
// player had chips (with side pots, the highest one they were eligible
// for); the caller names its winners.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_BOUNTY_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_BOUNTY_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/games/tournament/seat_order.h"

namespace banca::games::tournament {

// Who gets what of `bounty`, in order from the button; the amounts sum to
// the bounty. INVALID_ARGUMENT naming the field: bounty outside
// 0..kMaxAmountMinor, a bad eliminated id, 1..kMaxPotWinners valid winners
// (seat_order.h) not given, or the eliminated player among them.
absl::StatusOr<std::vector<PlayerAmount>> PayBounty(
    int64_t bounty, std::string_view eliminated,
    absl::Span<const SeatedPlayer> pot_winners);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_BOUNTY_H_
