#include "libs/games/tournament/same_hand.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/games/tournament/limits.h"

namespace banca::games::tournament {
namespace {

absl::Status CheckBusts(absl::Span<const SameHandBust> busts) {
  std::vector<SeatedPlayer> seats;
  for (const SameHandBust& b : busts) {
    if (b.starting_stack < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("starting_stack: ", b.seat.player,
                       " began the hand with ", b.starting_stack, " chips"));
    }
    RETURN_IF_ERROR(CheckChips("starting_stack", b.starting_stack));
    seats.push_back(b.seat);
  }
  return CheckSeatedPlayers("busts", seats, kMaxPlaces);
}

// The prizes at stake: one per player, never rising, and their sum.
absl::StatusOr<int64_t> CheckPrizes(absl::Span<const int64_t> prizes,
                                    size_t players) {
  if (prizes.size() != players) {
    return absl::InvalidArgumentError(
        absl::StrCat("prizes: ", prizes.size(), " places at stake for ",
                     players, " players out in the hand"));
  }
  int64_t sum = 0;
  for (size_t i = 0; i < prizes.size(); ++i) {
    RETURN_IF_ERROR(CheckAmount("prizes", prizes[i]));
    if (i > 0 && prizes[i] > prizes[i - 1]) {
      return absl::InvalidArgumentError(
          absl::StrCat("prizes: a worse place pays more (", prizes[i], " > ",
                       prizes[i - 1], ")"));
    }
    sum += prizes[i];  // ≤ kMaxPlaces × kMaxAmountMinor < 2^63
    RETURN_IF_ERROR(CheckAmount("prizes (sum)", sum));
  }
  return sum;
}

absl::Status CheckPlaces(int first_place, size_t players) {
  if (first_place < 1 ||
      static_cast<int64_t>(first_place) + static_cast<int64_t>(players) - 1 >
          kMaxPlaces) {
    return absl::InvalidArgumentError(
        absl::StrCat("first_place: ", first_place, " with ", players,
                     " players is outside places 1..", kMaxPlaces));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<Finish>> PlaceSameHandBusts(
    absl::Span<const SameHandBust> busts, int first_place,
    absl::Span<const int64_t> prizes) {
  RETURN_IF_ERROR(CheckBusts(busts));
  RETURN_IF_ERROR(CheckPlaces(first_place, busts.size()));
  ASSIGN_OR_RETURN(const int64_t at_stake, CheckPrizes(prizes, busts.size()));
  std::vector<SameHandBust> sorted(busts.begin(), busts.end());
  std::sort(sorted.begin(), sorted.end(),
            [](const SameHandBust& a, const SameHandBust& b) {
              return a.starting_stack > b.starting_stack;
            });
  std::vector<Finish> finishes;
  int64_t paid = 0;
  for (size_t begin = 0, end = 0; begin < sorted.size(); begin = end) {
    // One group of equal stacks takes places begin..end−1 ex aequo.
    std::vector<SeatedPlayer> group;
    int64_t group_prizes = 0;
    for (end = begin; end < sorted.size() && sorted[end].starting_stack ==
                                                 sorted[begin].starting_stack;
         ++end) {
      group.push_back(sorted[end].seat);
      group_prizes += prizes[end];
    }
    for (PlayerAmount& share : ShareFromButton(group_prizes, group)) {
      finishes.push_back({std::move(share.player),
                          first_place + static_cast<int>(begin), share.amount});
      paid += share.amount;
    }
  }
  // Every player placed once, and exactly the prizes at stake paid.
  BANCA_CHECK(finishes.size() == busts.size());
  BANCA_CHECK(paid == at_stake);
  return finishes;
}

}  // namespace banca::games::tournament
