#include "libs/games/tournament/bounty.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/limits.h"

namespace banca::games::tournament {

absl::StatusOr<std::vector<PlayerAmount>> PayBounty(
    int64_t bounty, std::string_view eliminated,
    absl::Span<const SeatedPlayer> pot_winners) {
  RETURN_IF_ERROR(CheckAmount("bounty", bounty));
  RETURN_IF_ERROR(CheckPlayerId("eliminated", eliminated));
  RETURN_IF_ERROR(
      CheckSeatedPlayers("pot_winners", pot_winners, kMaxPotWinners));
  for (const SeatedPlayer& w : pot_winners) {
    if (w.player == eliminated) {
      return absl::InvalidArgumentError(
          absl::StrCat("pot_winners: ", ToAbsl(eliminated),
                       " won the pot that eliminated them"));
    }
  }
  std::vector<PlayerAmount> shares = ShareFromButton(bounty, pot_winners);
  int64_t paid = 0;
  for (const PlayerAmount& s : shares) paid += s.amount;
  BANCA_CHECK(shares.size() == pot_winners.size());
  BANCA_CHECK(paid == bounty);
  return shares;
}

}  // namespace banca::games::tournament
