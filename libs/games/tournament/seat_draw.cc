#include "libs/games/tournament/seat_draw.h"

#include <algorithm>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/limits.h"

namespace banca::games::tournament {
namespace {

absl::Status CheckEntrants(absl::Span<const std::string> entrants) {
  if (entrants.size() < 2 || entrants.size() > kMaxEntries) {
    return absl::InvalidArgumentError(absl::StrCat(
        "entrants: ", entrants.size(), " is outside 2..", kMaxEntries));
  }
  std::vector<std::string_view> ids;
  for (const std::string& e : entrants) {
    RETURN_IF_ERROR(CheckPlayerId("entrants", e));
    ids.push_back(e);
  }
  std::sort(ids.begin(), ids.end());
  const auto twice = std::adjacent_find(ids.begin(), ids.end());
  if (twice != ids.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("entrants: ", ToAbsl(*twice), " appears twice"));
  }
  return absl::OkStatus();
}

absl::Status CheckPermutation(absl::Span<const int> permutation, size_t n) {
  if (permutation.size() != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "permutation: ", permutation.size(), " items for ", n, " entrants"));
  }
  std::vector<bool> seen(n, false);
  for (int p : permutation) {
    if (p < 0 || static_cast<size_t>(p) >= n || seen[p]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "permutation: ", p, " is outside 0..", n - 1, " or repeated"));
    }
    seen[p] = true;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<TournamentTable>> DrawSeats(
    absl::Span<const std::string> entrants, int seats_per_table,
    absl::Span<const int> permutation) {
  RETURN_IF_ERROR(CheckEntrants(entrants));
  if (seats_per_table < kMinSeatsPerTable ||
      seats_per_table > kMaxSeatsPerTable) {
    return absl::InvalidArgumentError(
        absl::StrCat("seats_per_table: ", seats_per_table, " is outside ",
                     kMinSeatsPerTable, "..", kMaxSeatsPerTable, " (TN-6)"));
  }
  RETURN_IF_ERROR(CheckPermutation(permutation, entrants.size()));
  const int n = static_cast<int>(entrants.size());
  const int count = (n + seats_per_table - 1) / seats_per_table;
  std::vector<TournamentTable> tables(count);
  size_t next = 0;
  for (int t = 0; t < count; ++t) {
    const int players = n / count + (t < n % count ? 1 : 0);
    BANCA_CHECK(players >= 1 && players <= seats_per_table);
    tables[t].number = t + 1;
    tables[t].seats.assign(seats_per_table, "");
    for (int s = 0; s < players; ++s) {
      tables[t].seats[s] = entrants[permutation[next++]];
    }
  }
  BANCA_CHECK(next == entrants.size());
  return tables;
}

}  // namespace banca::games::tournament
