// The director's eliminations, places and prizes: players out (TN-31,
// TN-44), places by the same hand (TN-50/51), bounties (TN-7p), the
// prizes fixed with the overlay (TN-10, TN-7m) and credited (TN-54), and
// the finish (TN-52).
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
