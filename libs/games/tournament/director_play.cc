// The director's play: the start, the hands at every table, eliminations
// and places, prizes, tables balanced and broken, and the finish.
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
#include "libs/games/tournament/guarantee.h"
#include "libs/games/tournament/hand_for_hand.h"
#include "libs/games/tournament/limits.h"
#include "libs/ledger/account.h"

namespace banca::games::tournament {
namespace {

// The occupied seat after `seat` clockwise among `seats` (1-based); `seat`
// itself when it is the only one; 0 when none is.
int NextSeat(const std::vector<std::string>& seats, int seat,
             const auto& occupied) {
  const int n = static_cast<int>(seats.size());
  for (int i = 1; i <= n; ++i) {
    const int s = (seat - 1 + i + n) % n + 1;
    if (occupied(s)) return s;
  }
  return 0;
}

// A seat's order at its table for ties and odd cents: the table number ×
// 100 + its position clockwise from the button (1 = the seat after it).
int OrderFromButton(int table_number, int seats, int button, int seat) {
  return table_number * 100 + (seat - button + seats - 1) % seats + 1;
}

}  // namespace

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

// --- Hands --------------------------------------------------------------

bool Director::AnyHandInProgress() const { return hands_in_progress_ > 0; }

bool Director::hand_for_hand() const {
  const int tables = static_cast<int>(in_play_.size());
  absl::StatusOr<bool> h4h =
      HandForHand(std::max(players_left(), 1),
                  static_cast<int>(config_.payouts_bps.size()));
  return phase_ == Phase::kRunning && tables > 1 && h4h.value_or(false);
}

absl::Status Director::CheckCanDeal(const std::string& table) const {
  if (phase_ != Phase::kRunning) {
    return absl::FailedPreconditionError(
        absl::StrCat("the tournament is ", ToAbsl(PhaseName(phase_))));
  }
  auto it = tables_.find(table);
  if (it == tables_.end() || it->second.closed) {
    return absl::NotFoundError(absl::StrCat("no table ", table, " in play"));
  }
  const TableState& t = it->second;
  if (t.hand && !t.hand->finished()) {
    return absl::FailedPreconditionError(
        absl::StrCat("a hand is in progress at ", table));
  }
  int with_chips = 0;
  for (const std::string& p : t.seats) {
    with_chips += !p.empty() && players_.at(p).chips > 0 ? 1 : 0;
  }
  if (with_chips < 2) {
    return absl::FailedPreconditionError(
        absl::StrCat(table, " has fewer than two players with chips"));
  }
  if (time_over_ && t.orbit_left.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the time is up and ", table, " has played its last orbit (TN-52)"));
  }
  // TN-49: in a hand-for-hand round a table deals once; and when the
  // bubble comes while other tables are in a hand, nobody deals until
  // they have all finished, so that the next round starts together.
  if (AnyHandInProgress() &&
      (h4h_ ? h4h_dealt_.contains(table) : hand_for_hand())) {
    return absl::FailedPreconditionError(
        absl::StrCat("hand-for-hand (TN-49): ", table,
                     " waits until every table has finished its hand"));
  }
  return absl::OkStatus();
}

absl::Status Director::Deal(const std::string& table,
                            std::vector<cards::Card> deck, int button) {
  RETURN_IF_ERROR(CheckCanDeal(table));
  TableState& t = tables_.at(table);
  auto with_chips = [&](int s) {
    const std::string& p = t.seats[s - 1];
    return !p.empty() && players_.at(p).chips > 0;
  };
  const int next = !t.dealt && with_chips(t.button)
                       ? t.button
                       : NextSeat(t.seats, t.button, with_chips);
  if (button != 0 && button != next) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the button moves clockwise to seat ", next, " (HE-64), not ", button));
  }
  poker::HandSetup setup;
  setup.config = TableConfigAt(config_, level_);
  setup.table_id = table;
  setup.hand_number = t.hands + 1;
  setup.button = next;
  for (size_t s = 0; s < t.seats.size(); ++s) {
    if (!with_chips(static_cast<int>(s) + 1)) continue;
    setup.players.push_back(poker::SeatedPlayer{
        static_cast<int>(s) + 1, t.seats[s], players_.at(t.seats[s]).chips});
  }
  setup.deck = std::move(deck);
  ASSIGN_OR_RETURN(poker::Hand hand,
                   AsInvalidArgument(poker::Hand::Start(setup)));
  // Decided: the hand starts. Out of chips at this table without a rebuy
  // made: out now (TN-31).
  EliminatePending(table, /*only_without_offer=*/false);
  if (!AnyHandInProgress()) {
    FlushBusts();
    h4h_ = hand_for_hand();
    h4h_dealt_.clear();
    if (h4h_) notices_.push_back("HandForHand round (TN-49)");
  }
  h4h_dealt_.insert(table);
  t.hand = std::move(hand);
  ++hands_in_progress_;  // until EndHand
  t.button = next;
  t.dealt = true;
  t.orbit_left.erase(t.seats[next - 1]);
  ActForAway(t);
  EndHandIfOver(t);
  return absl::OkStatus();
}

absl::StatusOr<std::pair<Director::TableState*, int>> Director::PlayerInHand(
    const std::string& player) {
  auto it = players_.find(player);
  if (it == players_.end() || it->second.table.empty()) {
    return absl::NotFoundError(absl::StrCat(player, " is not seated"));
  }
  TableState& t = tables_.at(it->second.table);
  if (!t.hand || t.hand->finished() || !t.hand->dealt_in(it->second.seat)) {
    return absl::FailedPreconditionError(
        absl::StrCat(player, " is not in a hand at ", t.name));
  }
  return std::make_pair(&t, it->second.seat);
}

absl::Status Director::Act(const std::string& player, poker::Action action) {
  ASSIGN_OR_RETURN(auto at, PlayerInHand(player));
  auto [t, seat] = at;
  RETURN_IF_ERROR(t->hand->Act(seat, action));
  players_.at(player).away = false;  // a decision: the player is back
  ActForAway(*t);
  EndHandIfOver(*t);
  return absl::OkStatus();
}

absl::Status Director::Timeout(const std::string& player) {
  ASSIGN_OR_RETURN(auto at, PlayerInHand(player));
  auto [t, seat] = at;
  RETURN_IF_ERROR(t->hand->Timeout(seat));
  players_.at(player).away = true;  // TN-43
  notices_.push_back(absl::StrCat("SittingOut player=", player, " (TN-43)"));
  ActForAway(*t);
  EndHandIfOver(*t);
  return absl::OkStatus();
}

absl::Status Director::SetAway(const std::string& player, bool away) {
  auto it = players_.find(player);
  if (it == players_.end() || it->second.live_entry < 0) {
    return absl::NotFoundError(absl::StrCat(player, " is not in play"));
  }
  it->second.away = away;
  notices_.push_back(absl::StrCat(away ? "SittingOut" : "SittingIn",
                                  " player=", player, " (TN-26/27)"));
  if (!it->second.table.empty()) {
    TableState& t = tables_.at(it->second.table);
    ActForAway(t);
    EndHandIfOver(t);
  }
  return absl::OkStatus();
}

void Director::ActForAway(TableState& t) {
  // TN-26/27: the blinds were posted; the hand is folded for them.
  while (t.hand && !t.hand->finished()) {
    const std::optional<int> seat = t.hand->to_act();
    if (!seat) return;
    const std::string& player = t.seats[*seat - 1];
    if (!players_.at(player).away) return;
    const bool before_cards = t.hand->round() == 0;
    const absl::Status s =
        before_cards
            ? t.hand->Timeout(*seat)
            : t.hand->Act(*seat, poker::Action{poker::ActionType::kFold, 0});
    BANCA_CHECK(s.ok());
  }
}

void Director::EndHandIfOver(TableState& t) {
  if (t.hand && t.hand->finished() && t.hands < t.hand->record().hand_number) {
    EndHand(t);
  }
}

void Director::EndHand(TableState& t) {
  --hands_in_progress_;
  BANCA_CHECK(hands_in_progress_ >= 0);
  const poker::HandResult& r = t.hand->result();
  ++t.hands;
  ++hands_played_;
  std::vector<PendingBust> busts;
  for (const poker::PlayerResult& pr : r.players) {
    const std::string& player = t.seats[pr.seat - 1];
    players_.at(player).chips = pr.end_stack;
    if (pr.end_stack > 0) continue;
    PendingBust b{player, t.name, t.hands, pr.start_stack, 0, {}};
    auto order = [&](int seat) {
      return OrderFromButton(t.number, static_cast<int>(t.seats.size()),
                             t.button, seat);
    };
    b.order = order(pr.seat);
    for (auto pot = r.pots.rbegin(); pot != r.pots.rend(); ++pot) {
      if (std::find(pot->eligible.begin(), pot->eligible.end(), pr.seat) ==
          pot->eligible.end()) {
        continue;
      }
      for (const poker::SeatAmount& s : pot->shares) {
        b.pot_winners.push_back(
            SeatedPlayer{t.seats[s.seat - 1], order(s.seat)});
      }
      break;
    }
    busts.push_back(std::move(b));
  }
  for (PendingBust& b : busts) {
    if (ChipsCanBeBought(b.player)) {
      notices_.push_back(absl::StrCat("OutOfChips player=", b.player,
                                      " (a rebuy is open, TN-31)"));
      out_of_chips_.insert(b.player);
      players_.at(b.player).busted = std::move(b);
    } else {
      Bust(b);
    }
  }
  if (!h4h_ || !AnyHandInProgress()) FlushBusts();
  MaybeFinish();
  if (phase_ == Phase::kRunning) Rebalance();
}

// --- Eliminations, places, prizes ---------------------------------------

bool Director::ChipsCanBeBought(const std::string& player) const {
  const PlayerState& p = players_.at(player);
  const int level = level_ + 1;
  const bool rebuy = config_.rebuy && level <= config_.rebuy->until_level &&
                     p.rebuys < config_.rebuy->max;
  const bool addon = config_.addon && level == config_.addon->until_level &&
                     p.addons < config_.addon->max;
  return rebuy || addon;
}

void Director::Bust(const PendingBust& bust) {
  PlayerState& p = players_.at(bust.player);
  BANCA_CHECK(p.live_entry >= 0 && p.chips == 0);
  Entry& entry = entries_[p.live_entry];
  entry.active = false;
  const int64_t bounty = entry.payments[0].split.bounty;
  if (bounty > 0 && !bust.pot_winners.empty()) {
    absl::StatusOr<std::vector<PlayerAmount>> paid =
        PayBounty(bounty, bust.player, bust.pot_winners);
    BANCA_CHECK(paid.ok());
    MoneyMove move{MoveKind::kBounty, bust.player, p.live_entry + 1, {}, ""};
    AddPosting(move, BountiesAccount(id_), -bounty);
    for (const PlayerAmount& a : *paid) {
      AddPosting(move, CashAccount(a.player), a.amount);
    }
    move.memo = absl::StrCat("bounty of ", bust.player, " (TN-7p)");
    moves_.push_back(std::move(move));
  }
  p.live_entry = -1;
  --live_players_;
  out_of_chips_.erase(bust.player);
  p.busted.reset();
  p.away = false;
  Unseat(bust.player);
  unplaced_.push_back(bust);
  balance_due_ = true;
}

void Director::ReturnOwnBounty(const std::string& player) {
  // banca: nobody eliminated them, so the bounty on a player still in
  // play at the end is theirs (TN-7p pays bounties for eliminations only).
  const PlayerState& p = players_.at(player);
  const int64_t bounty = entries_[p.live_entry].payments[0].split.bounty;
  if (bounty == 0) return;
  MoneyMove move{MoveKind::kBounty, player, p.live_entry + 1, {}, ""};
  AddPosting(move, BountiesAccount(id_), -bounty);
  AddPosting(move, CashAccount(player), bounty);
  move.memo = absl::StrCat("own bounty back to ", player,
                           ", in play at the end (TN-7p)");
  moves_.push_back(std::move(move));
}

void Director::EliminatePending(const std::string& table,
                                bool only_without_offer) {
  std::vector<PendingBust> out;
  for (const std::string& id : out_of_chips_) {  // by name, as players_
    const PlayerState& p = players_.at(id);
    if (!table.empty() && p.table != table) continue;
    if (only_without_offer && ChipsCanBeBought(id)) continue;
    out.push_back(*p.busted);
  }
  for (const PendingBust& b : out) Bust(b);
}

void Director::FlushBusts() {
  if (unplaced_.empty()) return;
  std::vector<PendingBust> all = std::exchange(unplaced_, {});
  if (h4h_) {
    PlaceGroup(std::move(all));  // TN-50: one hand at every table
    return;
  }
  while (!all.empty()) {
    std::vector<PendingBust> group;
    std::vector<PendingBust> rest;
    const std::string table = all[0].table;
    const int64_t hand = all[0].hand;
    for (PendingBust& b : all) {
      (b.table == table && b.hand == hand ? group : rest)
          .push_back(std::move(b));
    }
    PlaceGroup(std::move(group));
    all = std::move(rest);
  }
}

void Director::PlaceGroup(std::vector<PendingBust> busts) {
  // Orders renumbered 1.. within the group, keeping their order.
  std::sort(busts.begin(), busts.end(),
            [](const PendingBust& a, const PendingBust& b) {
              return a.order < b.order;
            });
  BustGroup g;
  for (size_t i = 0; i < busts.size(); ++i) {
    g.busts.push_back(
        SameHandBust{SeatedPlayer{busts[i].player, static_cast<int>(i) + 1},
                     std::max<int64_t>(busts[i].starting_stack, 1)});
  }
  groups_.push_back(std::move(g));
  CreditDecidedPrizes();
}

std::vector<int> Director::FirstPlaces(size_t from) const {
  // Everyone still in, or out and not yet placed, finishes above them; so
  // does every later group.
  std::vector<int> first(groups_.size() - from);
  int above = players_left() + static_cast<int>(unplaced_.size());
  for (size_t g = groups_.size(); g > from; --g) {
    first[g - 1 - from] = above + 1;
    above += static_cast<int>(groups_[g - 1].busts.size());
  }
  return first;
}

std::vector<Standing> Director::Standings() const {
  std::vector<Standing> out;
  const std::vector<int> firsts = FirstPlaces(0);
  for (size_t g = 0; g < groups_.size(); ++g) {
    const int first = firsts[g];
    std::vector<SameHandBust> busts = groups_[g].busts;
    std::stable_sort(busts.begin(), busts.end(),
                     [](const SameHandBust& a, const SameHandBust& b) {
                       return a.starting_stack > b.starting_stack;
                     });
    for (size_t i = 0; i < busts.size(); ++i) {
      int place = first + static_cast<int>(i);
      for (size_t j = 0; j < i; ++j) {
        if (busts[j].starting_stack == busts[i].starting_stack) {
          place = first + static_cast<int>(j);  // ex aequo (TN-51)
          break;
        }
      }
      out.push_back(Standing{busts[i].seat.player, place,
                             players_.at(busts[i].seat.player).prize});
    }
  }
  std::stable_sort(
      out.begin(), out.end(),
      [](const Standing& a, const Standing& b) { return a.place < b.place; });
  return out;
}

bool Director::WindowsClosed() const {
  const int level = level_ + 1;
  return level > config_.late_registration_level &&
         (!config_.rebuy || level > config_.rebuy->until_level) &&
         (!config_.addon || level > config_.addon->until_level) &&
         (!config_.reentry || level > config_.reentry->until_level);
}

void Director::MaybeFixPrizes() {
  if (!prizes_fixed_ && phase_ == Phase::kRunning && WindowsClosed()) {
    FixPrizesNow();
  }
}

void Director::FixPrizesNow() {
  BANCA_CHECK(!prizes_fixed_);
  absl::StatusOr<FixedPrizes> fixed =
      FixPrizes(collected_, config_.guarantee, config_.payouts_bps,
                static_cast<int>(players_.size()));
  BANCA_CHECK(fixed.ok());
  overlay_ = fixed->overlay;
  if (overlay_ > 0) {
    MoneyMove move{MoveKind::kOverlay, "", 0, {}, ""};
    AddPosting(move, std::string(kOverlayAccount), -overlay_);
    AddPosting(move, PrizePoolAccount(id_), overlay_);
    move.memo = absl::StrCat("overlay ", overlay_, ": the guarantee ",
                             config_.guarantee, " over a pool of ", collected_,
                             " (TN-7m)");
    moves_.push_back(std::move(move));
  }
  prize_amounts_ = std::move(fixed->prizes);
  prizes_fixed_ = true;
  notices_.push_back(
      absl::StrCat("PrizesFixed pool=", prize_pool(), " overlay=", overlay_,
                   " prizes=", absl::StrJoin(prize_amounts_, ","), " (TN-10)"));
  CreditDecidedPrizes();
}

void Director::CreditDecidedPrizes() {
  if (!prizes_fixed_) return;
  const int paid = static_cast<int>(prize_amounts_.size());
  // The groups credited are the first ones: the prizes, once fixed, are
  // credited as each group is placed.
  size_t from = groups_.size();
  while (from > 0 && !groups_[from - 1].credited) --from;
  const std::vector<int> firsts = FirstPlaces(from);
  for (size_t g = from; g < groups_.size(); ++g) {
    BustGroup& group = groups_[g];
    BANCA_CHECK(!group.credited);
    group.credited = true;
    const int first = firsts[g - from];
    if (first > paid) continue;
    std::vector<int64_t> at_stake;
    for (size_t i = 0; i < group.busts.size(); ++i) {
      const int place = first + static_cast<int>(i);
      at_stake.push_back(place <= paid ? prize_amounts_[place - 1] : 0);
    }
    absl::StatusOr<std::vector<tournament::Finish>> finishes =
        PlaceSameHandBusts(group.busts, first, at_stake);
    BANCA_CHECK(finishes.ok());
    for (const tournament::Finish& f : *finishes) {
      notices_.push_back(absl::StrCat("Placed player=", f.player,
                                      " place=", f.place, " prize=", f.prize));
      if (f.prize == 0) continue;
      MoneyMove move{MoveKind::kPrize, f.player, 0, {}, ""};
      AddPosting(move, PrizePoolAccount(id_), -f.prize);
      AddPosting(move,
                 config_.PaysTickets()
                     ? TicketAccount(config_.ticket_target, f.player)
                     : CashAccount(f.player),
                 f.prize);
      move.memo = absl::StrCat(
          "prize for place ", f.place,
          config_.PaysTickets() ? " as an entry to " : "",
          config_.PaysTickets() ? config_.ticket_target : "", " (TN-54)");
      moves_.push_back(std::move(move));
      players_.at(f.player).prize += f.prize;
      prizes_credited_ += f.prize;
    }
  }
  BANCA_CHECK(prizes_credited_ <= prize_pool());
}

void Director::MaybeFinish() {
  if (phase_ != Phase::kRunning || AnyHandInProgress()) return;
  if (players_left() <= 1 && out_of_chips_.empty()) {
    Finish();
    return;
  }
  if (!time_over_) return;
  for (const auto& [name, t] : tables_) {
    if (!t.closed && !t.orbit_left.empty() && CheckCanDeal(name).ok()) return;
  }
  Finish();  // TN-52: every table has played its last orbit
}

void Director::Finish() {
  EliminatePending("", /*only_without_offer=*/false);
  FlushBusts();
  if (!prizes_fixed_) FixPrizesNow();
  // The players left, placed by chips (TN-33; equal stacks ex aequo).
  std::vector<std::pair<int64_t, std::string>> left;
  for (const auto& [id, p] : players_) {
    if (p.live_entry >= 0) left.emplace_back(p.chips, id);
  }
  std::sort(left.begin(), left.end());
  while (!left.empty()) {
    std::vector<PendingBust> group;
    const int64_t chips = left.front().first;
    while (!left.empty() && left.front().first == chips) {
      const std::string player = left.front().second;
      left.erase(left.begin());
      PlayerState& p = players_.at(player);
      // Equal stacks share as TN-51 (gap 6): odd cents from the button.
      const TableState& t = tables_.at(p.table);
      const int order = OrderFromButton(
          t.number, static_cast<int>(t.seats.size()), t.button, p.seat);
      ReturnOwnBounty(player);
      entries_[p.live_entry].active = false;
      p.live_entry = -1;
      --live_players_;
      Unseat(player);
      group.push_back(PendingBust{player, "", 0, chips, order, {}});
    }
    PlaceGroup(std::move(group));
  }
  phase_ = Phase::kFinished;
  notices_.push_back("Finished (TN-52)");
  BANCA_CHECK(prizes_credited_ == prize_pool());
}

}  // namespace banca::games::tournament
