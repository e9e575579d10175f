// The odd-cent rule of the tournament (the digest's decisions for TN-50/51
// and TN-7p, after HE-33/62): money shared equally among players at one
// table goes in equal shares, and the indivisible cents go one each to the
// players seated first clockwise from the button.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_SEAT_ORDER_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_SEAT_ORDER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace banca::games::tournament {

struct SeatedPlayer {
  std::string player;
  // 1 = the first seat clockwise from the button, 2 = the next, …; the
  // button's own seat is the last. 1..kMaxOrderFromButton, distinct. When
  // players at several tables share (hand-for-hand, TN-49), the caller
  // numbers them in one order.
  int order_from_button = 0;
};

struct PlayerAmount {
  std::string player;
  int64_t amount = 0;
  bool operator==(const PlayerAmount&) const = default;
};

// INVALID_ARGUMENT naming `field` unless there are 1..max players with
// valid, distinct ids and distinct orders in 1..kMaxOrderFromButton.
absl::Status CheckSeatedPlayers(std::string_view field,
                                absl::Span<const SeatedPlayer> players,
                                size_t max);

// `amount` in equal shares, one per player, in order from the button; the
// first `amount % players` of them get a cent more. The shares sum to the
// amount. The players must have passed CheckSeatedPlayers; amount in
// 0..kMaxAmountMinor.
std::vector<PlayerAmount> ShareFromButton(
    int64_t amount, absl::Span<const SeatedPlayer> players);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_SEAT_ORDER_H_
