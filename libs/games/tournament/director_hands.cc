// The director's hands: dealing (hand-for-hand, TN-49), decisions,
// timeouts and away players (TN-26/27/43), and the end of a hand.
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

}  // namespace banca::games::tournament
