#include "libs/games/tournament/seat_order.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/limits.h"
#include "libs/money/money.h"

namespace banca::games::tournament {
namespace {

// The players, ordered from the button.
std::vector<SeatedPlayer> FromButton(absl::Span<const SeatedPlayer> players) {
  std::vector<SeatedPlayer> sorted(players.begin(), players.end());
  std::sort(sorted.begin(), sorted.end(),
            [](const SeatedPlayer& a, const SeatedPlayer& b) {
              return a.order_from_button < b.order_from_button;
            });
  return sorted;
}

}  // namespace

absl::Status CheckSeatedPlayers(std::string_view field,
                                absl::Span<const SeatedPlayer> players,
                                size_t max) {
  RETURN_IF_ERROR(CheckCount(field, players.size(), max));
  std::vector<std::string_view> ids;
  for (const SeatedPlayer& p : players) {
    RETURN_IF_ERROR(CheckPlayerId(field, p.player));
    if (p.order_from_button < 1 || p.order_from_button > kMaxOrderFromButton) {
      return absl::InvalidArgumentError(absl::StrCat(
          ToAbsl(field), ": order_from_button ", p.order_from_button,
          " is outside 1..", kMaxOrderFromButton));
    }
    ids.push_back(p.player);
  }
  std::sort(ids.begin(), ids.end());
  if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(field), ": a player appears twice"));
  }
  const std::vector<SeatedPlayer> sorted = FromButton(players);
  for (size_t i = 1; i < sorted.size(); ++i) {
    if (sorted[i].order_from_button == sorted[i - 1].order_from_button) {
      return absl::InvalidArgumentError(
          absl::StrCat(ToAbsl(field), ": two players have order_from_button ",
                       sorted[i].order_from_button));
    }
  }
  return absl::OkStatus();
}

std::vector<PlayerAmount> ShareFromButton(
    int64_t amount, absl::Span<const SeatedPlayer> players) {
  BANCA_CHECK(amount >= 0 && amount <= kMaxAmountMinor);
  const std::vector<SeatedPlayer> sorted = FromButton(players);
  absl::StatusOr<std::vector<int64_t>> shares =
      money::SplitEvenly(amount, static_cast<int>(sorted.size()));
  BANCA_CHECK(shares.ok());
  std::vector<PlayerAmount> out;
  out.reserve(sorted.size());
  int64_t sum = 0;
  for (size_t i = 0; i < sorted.size(); ++i) {
    out.push_back({sorted[i].player, (*shares)[i]});
    sum += (*shares)[i];
  }
  BANCA_CHECK(sum == amount);
  return out;
}

}  // namespace banca::games::tournament
