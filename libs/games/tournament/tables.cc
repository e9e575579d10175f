#include "libs/games/tournament/tables.h"

#include <algorithm>
#include <string_view>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/limits.h"

namespace banca::games::tournament {
namespace {

absl::Status CheckTable(size_t i, const TournamentTable& t, size_t seats) {
  // The field's name only for an error: tables are checked often.
  auto at = [i] { return absl::StrCat("tables[", i, "]"); };
  if (t.number < 1 || t.number > kMaxTables) {
    return absl::InvalidArgumentError(absl::StrCat(
        at(), ".number: ", t.number, " is outside 1..", kMaxTables));
  }
  if (t.seats.size() != seats) {
    return absl::InvalidArgumentError(
        absl::StrCat(at(), ".seats: ", t.seats.size(), " seats, not ", seats,
                     " like the first table"));
  }
  for (const std::string& p : t.seats) {
    if (!p.empty() && !CheckPlayerId("", p).ok()) {
      return CheckPlayerId(absl::StrCat(at(), ".seats"), p);
    }
  }
  const int bb = t.next_big_blind_seat;
  const bool occupied =
      bb >= 1 && static_cast<size_t>(bb) <= seats && !t.seats[bb - 1].empty();
  const int players = t.Players();
  if (players == 0 ? bb != 0 : !occupied) {
    return absl::InvalidArgumentError(absl::StrCat(
        at(), ".next_big_blind_seat: ", bb, " is not an occupied seat",
        players == 0 ? " (0 at an empty table)" : ""));
  }
  return absl::OkStatus();
}

}  // namespace

int TournamentTable::Players() const {
  return static_cast<int>(
      std::count_if(seats.begin(), seats.end(),
                    [](const std::string& p) { return !p.empty(); }));
}

absl::Status CheckTables(absl::Span<const TournamentTable> tables) {
  RETURN_IF_ERROR(CheckCount("tables", tables.size(), kMaxTables));
  const size_t seats = tables[0].seats.size();
  if (seats < kMinSeatsPerTable || seats > kMaxSeatsPerTable) {
    return absl::InvalidArgumentError(
        absl::StrCat("tables[0].seats: ", seats, " seats is outside ",
                     kMinSeatsPerTable, "..", kMaxSeatsPerTable, " (TN-6)"));
  }
  std::vector<int> numbers;
  std::vector<std::string_view> players;
  for (size_t i = 0; i < tables.size(); ++i) {
    RETURN_IF_ERROR(CheckTable(i, tables[i], seats));
    numbers.push_back(tables[i].number);
    for (const std::string& p : tables[i].seats) {
      if (!p.empty()) players.push_back(p);
    }
  }
  std::sort(numbers.begin(), numbers.end());
  if (std::adjacent_find(numbers.begin(), numbers.end()) != numbers.end()) {
    return absl::InvalidArgumentError("tables: two tables have one number");
  }
  if (players.empty()) {
    return absl::InvalidArgumentError("tables: no players");
  }
  // Hashed, not sorted: the director balances thousands of tables.
  absl::flat_hash_set<std::string_view> seen;
  seen.reserve(players.size());
  for (std::string_view p : players) {
    if (!seen.insert(p).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("tables: ", ToAbsl(p), " is seated twice"));
    }
  }
  return absl::OkStatus();
}

int NextOccupiedSeat(const TournamentTable& table, int seat) {
  const int n = static_cast<int>(table.seats.size());
  for (int step = 1; step <= n; ++step) {
    const int s = (seat - 1 + step) % n + 1;
    if (!table.seats[s - 1].empty()) return s;
  }
  return 0;
}

}  // namespace banca::games::tournament
