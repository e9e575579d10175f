// The director's seats: the start (the seat draw given), a seat by draw,
// and the tables balanced and broken (TN-39, TN-47/48).
#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/balancing.h"
#include "libs/games/tournament/bounty.h"
#include "libs/games/tournament/director.h"
#include "libs/games/tournament/director_internal.h"
#include "libs/games/tournament/guarantee.h"
#include "libs/games/tournament/hand_for_hand.h"
#include "libs/games/tournament/limits.h"
#include "libs/ledger/account.h"

namespace banca::games::tournament {

using internal::NextSeat;
using internal::OrderFromButton;

// --- The start ----------------------------------------------------------

absl::Status Director::Start(absl::Span<const StartTable> tables) {
  if (phase_ != Phase::kRegistering) {
    return absl::FailedPreconditionError(
        absl::StrCat("the tournament is ", ToAbsl(PhaseName(phase_))));
  }
  const int registered = static_cast<int>(entries_.size());
  if (registered < config_.min_players) {
    return absl::FailedPreconditionError(
        absl::StrCat(registered, " registered: fewer than min_players (",
                     config_.min_players, ", TN-7h)"));
  }
  if (registered < static_cast<int>(config_.payouts_bps.size())) {
    return absl::FailedPreconditionError(
        absl::StrCat(registered, " registered: fewer than the ",
                     config_.payouts_bps.size(), " paid places"));
  }
  RETURN_IF_ERROR(CheckCount("tables", tables.size(), kMaxTables));
  std::set<std::string> names;
  std::set<std::string> seated;
  int fewest = kMaxSeatsPerTable;
  int most = 0;
  for (size_t i = 0; i < tables.size(); ++i) {
    const StartTable& t = tables[i];
    const std::string at = absl::StrCat("tables[", i, "]");
    if (!ledger::IsValidId(t.name) || !names.insert(t.name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(at, ".table: \"", t.name, "\" is not a new table id"));
    }
    std::set<int> seats;
    for (const auto& [player, seat] : t.seats) {
      auto p = players_.find(player);
      if (p == players_.end() || p->second.live_entry < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(at, ".seats: ", player, " is not registered"));
      }
      if (seat < 1 || seat > config_.seats_per_table ||
          !seats.insert(seat).second) {
        return absl::InvalidArgumentError(
            absl::StrCat(at, ".seats: seat ", seat, " of ", player,
                         " is not a free seat 1..", config_.seats_per_table));
      }
      if (!seated.insert(player).second) {
        return absl::InvalidArgumentError(
            absl::StrCat(at, ".seats: ", player, " is seated twice"));
      }
    }
    if (!seats.contains(t.button)) {
      return absl::InvalidArgumentError(absl::StrCat(
          at, ".button: seat ", t.button, " has no player (TN-40)"));
    }
    fewest = std::min(fewest, static_cast<int>(t.seats.size()));
    most = std::max(most, static_cast<int>(t.seats.size()));
  }
  if (static_cast<int>(seated.size()) != registered) {
    return absl::InvalidArgumentError(
        absl::StrCat("tables: ", seated.size(), " seated, but ", registered,
                     " registered: every entrant takes one seat (TN-39)"));
  }
  if (fewest < 2 || most - fewest > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tables: ", fewest, " to ", most,
        " players a table; at least 2 each, within one of each other "
        "(TN-47)"));
  }
  for (size_t i = 0; i < tables.size(); ++i) {
    TableState t;
    t.name = tables[i].name;
    t.number = static_cast<int>(i) + 1;
    t.seats.assign(config_.seats_per_table, "");
    t.button = tables[i].button;
    for (const auto& [player, seat] : tables[i].seats) {
      t.seats[seat - 1] = player;
      PlayerState& p = players_.at(player);
      p.table = t.name;
      p.seat = seat;
      p.chips = config_.starting_chips;
    }
    t.players = static_cast<int>(tables[i].seats.size());
    seated_ += t.players;
    CountTable(t, +1);
    in_play_.push_back(t.number);
    table_order_.push_back(t.name);
    tables_.emplace(t.name, std::move(t));
  }
  for (Entry& e : entries_) e.active = true;
  phase_ = Phase::kRunning;
  notices_.push_back(
      absl::StrCat("Started players=", registered, " tables=", tables.size()));
  MaybeFixPrizes();
  return absl::OkStatus();
}

// --- Seats --------------------------------------------------------------

void Director::SeatByDraw(const std::string& player) {
  // TN-48: a table with the fewest players, the table and seat drawn.
  int fewest = kMaxSeatsPerTable;
  for (int n = 0; n < config_.seats_per_table; ++n) {
    if (tables_seating_[n] > 0) {
      fewest = n;
      break;
    }
  }
  std::vector<std::pair<std::string, int>> free;
  for (int number : in_play_) {
    const std::string& name = table_order_[number - 1];
    const TableState& t = tables_.at(name);
    if (t.players != fewest) continue;
    for (size_t s = 0; s < t.seats.size(); ++s) {
      if (t.seats[s].empty()) free.emplace_back(name, s + 1);
    }
  }
  if (free.empty()) {
    // Every table is full: a new one (balanced at the next hand's end).
    TableState t;
    t.number = static_cast<int>(table_order_.size()) + 1;
    t.name = absl::StrCat("t", t.number);
    while (tables_.contains(t.name)) t.name += "x";
    t.seats.assign(config_.seats_per_table, "");
    t.button = 1;
    CountTable(t, +1);
    in_play_.push_back(t.number);
    table_order_.push_back(t.name);
    free.emplace_back(t.name, 1);
    tables_.emplace(t.name, std::move(t));
    balance_due_ = true;
  }
  const int k = draw_(static_cast<int>(free.size()));
  BANCA_CHECK(k >= 0 && k < static_cast<int>(free.size()));
  auto [table, seat] = free[k];
  SitAt(tables_.at(table), seat, player);
  PlayerState& p = players_.at(player);
  p.table = table;
  p.seat = seat;
  notices_.push_back(
      absl::StrCat("Seated player=", player, " table=", table, " seat=", seat));
}

void Director::CountTable(const TableState& t, int delta) {
  BANCA_CHECK(!t.closed && t.players >= 0 &&
              t.players <= config_.seats_per_table);
  tables_seating_[t.players] += delta;
  BANCA_CHECK(tables_seating_[t.players] >= 0);
}

void Director::SitAt(TableState& t, int seat, const std::string& player) {
  BANCA_CHECK(t.seats[seat - 1].empty());
  CountTable(t, -1);
  t.seats[seat - 1] = player;
  ++t.players;
  ++seated_;
  CountTable(t, +1);
}

void Director::Unseat(const std::string& player) {
  PlayerState& p = players_.at(player);
  if (p.table.empty()) return;
  TableState& t = tables_.at(p.table);
  BANCA_CHECK(t.seats[p.seat - 1] == player);
  CountTable(t, -1);
  t.seats[p.seat - 1].clear();
  --t.players;
  --seated_;
  CountTable(t, +1);
  t.orbit_left.erase(player);
  p.table.clear();
  p.seat = 0;
}

int Director::NextBigBlindSeat(const TableState& t) const {
  auto occupied = [&](int s) { return !t.seats[s - 1].empty(); };
  int n = 0;
  for (const std::string& s : t.seats) n += s.empty() ? 0 : 1;
  if (n == 0) return 0;
  const int button = t.dealt || !occupied(t.button)
                         ? NextSeat(t.seats, t.button, occupied)
                         : t.button;
  if (n == 1) return button;
  if (n == 2) {
    return config_.heads_up == poker::HeadsUpBlinds::kLiteral
               ? button
               : NextSeat(t.seats, button, occupied);
  }
  return NextSeat(t.seats, NextSeat(t.seats, button, occupied), occupied);
}

bool Director::Balanced() const {
  // As tournament::Rebalance decides: ceil(seated / seats) tables kept,
  // the rest broken; moves while two tables differ by more than one.
  const int seats = config_.seats_per_table;
  const int keep = (seated_ + seats - 1) / seats;
  int fewest = seats + 1;
  int most = -1;
  for (int n = 0; n <= seats; ++n) {
    if (tables_seating_[n] == 0) continue;
    fewest = std::min(fewest, n);
    most = std::max(most, n);
  }
  return keep == static_cast<int>(in_play_.size()) && most - fewest <= 1;
}

void Director::Rebalance() {
  if (!balance_due_) return;
  if (in_play_.size() >= 2 && Balanced()) {
    balance_due_ = false;  // nothing to move: no draw either
    return;
  }
  std::vector<TournamentTable> open;
  open.reserve(in_play_.size());
  for (int number : in_play_) {
    const TableState& t = tables_.at(table_order_[number - 1]);
    open.push_back(TournamentTable{t.number, t.seats, NextBigBlindSeat(t)});
  }
  if (open.size() < 2) {
    balance_due_ = false;
    return;
  }
  absl::StatusOr<Rebalancing> r =
      tournament::Rebalance(open, [this](int n) { return draw_(n); });
  BANCA_CHECK(r.ok());
  auto busy = [&](int number) {
    const TableState& t = tables_.at(table_order_[number - 1]);
    return t.hand && !t.hand->finished();
  };
  for (const TableMove& m : r->moves) {
    if (busy(m.from_table)) return;  // again when that hand ends
  }
  for (int number : r->broken_tables) {
    if (busy(number)) return;
  }
  balance_due_ = false;
  for (const TableMove& m : r->moves) {
    const std::string& to = table_order_[m.to_table - 1];
    const std::string from = players_.at(m.player).table;
    Unseat(m.player);
    SitAt(tables_.at(to), m.to_seat, m.player);
    PlayerState& p = players_.at(m.player);
    p.table = to;
    p.seat = m.to_seat;
    ++balancing_moves_;
    notices_.push_back(absl::StrCat("PlayerMoved player=", m.player,
                                    " from=", from, " to=", to,
                                    " seat=", m.to_seat, " (TN-47/48)"));
  }
  for (int number : r->broken_tables) {
    TableState& t = tables_.at(table_order_[number - 1]);
    CountTable(t, -1);
    t.closed = true;
    in_play_.erase(std::find(in_play_.begin(), in_play_.end(), number));
    notices_.push_back(absl::StrCat("TableBroken table=", t.name));
  }
}

}  // namespace banca::games::tournament
