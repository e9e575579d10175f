#include "libs/games/poker/table.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/money/money.h"

namespace banca::games::poker {
namespace {

constexpr size_t kMaxPlayerIdLength = 128;

}  // namespace

int64_t BuyInRake(const TableConfig& c, int64_t paid) {
  if (c.rake.mode != RakeMode::kBuyIn) return 0;
  absl::StatusOr<int64_t> r =
      money::ApplyBps(paid, c.rake.bps, money::Rounding::kDown);
  BANCA_CHECK(r.ok());
  BANCA_CHECK(*r >= 0 && *r <= paid);
  return *r;
}

absl::StatusOr<Table> Table::Create(const TableConfig& config,
                                    std::string table_id) {
  RETURN_IF_ERROR(config.Validate());
  Table t;
  t.config_ = config;
  t.table_id_ = std::move(table_id);
  return t;
}

Table::Occupant* Table::Find(const std::string& player, int* seat) {
  for (auto& [s, o] : seats_) {
    if (o.player == player) {
      if (seat != nullptr) *seat = s;
      return &o;
    }
  }
  return nullptr;
}

const Table::Occupant* Table::Find(const std::string& player, int* seat) const {
  return const_cast<Table*>(this)->Find(player, seat);
}

bool Table::InCurrentHand(int seat) const {
  return in_hand() && hand_->dealt_in(seat);
}

absl::StatusOr<PlayerSat> Table::Sit(const std::string& player, int seat,
                                     int64_t buy_in) {
  if (player.empty() || player.size() > kMaxPlayerIdLength) {
    return absl::InvalidArgumentError("player id must be 1..128 characters");
  }
  if (seat < 1 || seat > config_.seats) {
    return absl::InvalidArgumentError(
        absl::StrCat("seat ", seat, " is not 1..", config_.seats));
  }
  int current = 0;
  if (Find(player, &current) != nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        player, " already has seat ", current, ": one seat per player (HE-9)"));
  }
  if (seats_.contains(seat)) {
    return absl::FailedPreconditionError(
        absl::StrCat("seat ", seat, " is taken"));
  }
  if (buy_in < config_.buy_in_min || buy_in > config_.buy_in_max) {
    return absl::InvalidArgumentError(
        absl::StrCat("buy-in ", buy_in, " is outside ", config_.buy_in_min,
                     "..", config_.buy_in_max, " (HE-8)"));
  }
  Occupant o;
  o.player = player;
  const int64_t rake = BuyInRake(config_, buy_in);
  o.stack = buy_in - rake;
  o.stats.bought_in = buy_in;
  o.stats.rake_paid = rake;
  seats_.emplace(seat, std::move(o));
  PlayerSat e{player, seat, buy_in, rake, buy_in - rake};
  events_.push_back(e);
  return e;
}

absl::StatusOr<PlayerRebought> Table::Rebuy(const std::string& player,
                                            int64_t amount) {
  int seat = 0;
  Occupant* o = Find(player, &seat);
  if (o == nullptr) {
    return absl::NotFoundError(absl::StrCat(player, " is not seated"));
  }
  if (InCurrentHand(seat)) {
    return absl::FailedPreconditionError(
        "no rebuy during a hand (HE-11b): wait for it to end");
  }
  if (amount <= 0 || amount > money::kMaxAmountMinor) {
    return absl::InvalidArgumentError("rebuy amount must be positive");
  }
  const int64_t rake = BuyInRake(config_, amount);
  const int64_t stack = o->stack + amount - rake;
  if (stack > config_.buy_in_max) {
    return absl::InvalidArgumentError(
        absl::StrCat("rebuy would make the stack ", stack,
                     ", above the table maximum ", config_.buy_in_max));
  }
  o->stack = stack;
  o->stats.bought_in += amount;
  o->stats.rake_paid += rake;
  if (stack >= config_.big_blind) {
    // HE-70a: topped up, so the invitation or warning is over.
    o->short_hands = 0;
    if (o->notice && o->notice->reason == InvitationReason::kShortStack) {
      o->notice.reset();
    }
  }
  PlayerRebought e{player, amount, rake, stack};
  events_.push_back(e);
  return e;
}

PlayerLeft Table::Remove(int seat, LeaveReason reason) {
  auto it = seats_.find(seat);
  BANCA_CHECK(it != seats_.end());
  PlayerLeft e{it->second.player, seat, it->second.stack, it->second.stats,
               reason};
  seats_.erase(it);
  events_.push_back(e);
  NoteStopped();
  return e;
}

void Table::NoteStopped() {
  if (!in_hand() && EligibleSeats().size() < 2) needs_draw_ = true;
}

absl::StatusOr<std::optional<PlayerLeft>> Table::Leave(
    const std::string& player, LeaveReason reason) {
  int seat = 0;
  Occupant* o = Find(player, &seat);
  if (o == nullptr) {
    return absl::NotFoundError(absl::StrCat(player, " is not seated"));
  }
  if (!InCurrentHand(seat)) {
    return std::optional<PlayerLeft>(Remove(seat, reason));
  }
  // HE-10, gap 13: the player folds, the chips already bet stay in the
  // pot and the rest of the stack leaves with them after the hand.
  o->leaving = true;
  o->leave_reason = reason;
  RETURN_IF_ERROR(AfterHandStep());
  return std::optional<PlayerLeft>();
}

absl::Status Table::SitOut(const std::string& player) {
  Occupant* o = Find(player);
  if (o == nullptr) {
    return absl::NotFoundError(absl::StrCat(player, " is not seated"));
  }
  if (!o->sitting_out) {
    o->sitting_out = true;
    events_.push_back(SittingOut{player, true});
  }
  NoteStopped();
  return absl::OkStatus();
}

absl::Status Table::SetRebuyPending(const std::string& player, bool pending) {
  Occupant* o = Find(player);
  if (o == nullptr) {
    return absl::NotFoundError(absl::StrCat(player, " is not seated"));
  }
  o->rebuy_pending = pending;
  return absl::OkStatus();
}

absl::Status Table::SitIn(const std::string& player) {
  Occupant* o = Find(player);
  if (o == nullptr) {
    return absl::NotFoundError(absl::StrCat(player, " is not seated"));
  }
  if (o->sitting_out) {
    o->sitting_out = false;
    events_.push_back(SittingOut{player, false});
  }
  return absl::OkStatus();
}

std::vector<int> Table::EligibleSeats() const {
  std::vector<int> out;
  for (const auto& [seat, o] : seats_) {
    if (!o.sitting_out && !o.leaving && o.stack >= config_.big_blind) {
      out.push_back(seat);
    }
  }
  return out;
}

absl::Status Table::StartHand(int button_draw, std::vector<cards::Card> deck) {
  if (in_hand()) {
    return absl::FailedPreconditionError("a hand is in progress");
  }
  const std::vector<int> eligible = EligibleSeats();
  if (eligible.size() < 2) {
    // HE-7: the table stops; its next start draws the button again.
    needs_draw_ = true;
    return absl::FailedPreconditionError(
        "a hand needs at least two players in play (HE-7)");
  }
  int button = 0;
  if (needs_draw_) {
    if (button_draw < 0 || button_draw >= static_cast<int>(eligible.size())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "button draw ", button_draw, " is not 0..", eligible.size() - 1));
    }
    button = eligible[button_draw];
  } else {
    // HE-64: the next seat clockwise that is dealt in.
    button = eligible.front();
    for (int seat : eligible) {
      if (seat > button_) {
        button = seat;
        break;
      }
    }
  }
  HandSetup setup;
  setup.config = config_;
  setup.table_id = table_id_;
  setup.hand_number = hand_number_ + 1;
  setup.button = button;
  for (int seat : eligible) {
    setup.players.push_back(
        {seat, seats_.at(seat).player, seats_.at(seat).stack});
  }
  setup.deck = std::move(deck);
  ASSIGN_OR_RETURN(Hand hand, Hand::Start(setup));
  events_.push_back(ButtonMoved{button, needs_draw_});
  hand_ = std::move(hand);
  settled_ = false;
  needs_draw_ = false;
  button_ = button;
  ++hand_number_;
  return AfterHandStep();
}

void Table::FoldLeavers() {
  while (in_hand()) {
    const std::optional<int> seat = hand_->to_act();
    if (!seat) return;
    const Occupant& o = seats_.at(*seat);
    if (!o.leaving) return;
    // A leaver folds even when a check is free: they are gone (HE-10).
    BANCA_CHECK(hand_->Act(*seat, Action{ActionType::kFold, 0}).ok());
  }
}

absl::Status Table::AfterHandStep() {
  FoldLeavers();
  if (hand_ && hand_->finished() && !settled_) Settle();
  return absl::OkStatus();
}

absl::Status Table::Act(const std::string& player, Action action) {
  int seat = 0;
  if (Find(player, &seat) == nullptr) {
    return absl::NotFoundError(absl::StrCat(player, " is not seated"));
  }
  if (!in_hand()) return absl::FailedPreconditionError("no hand in progress");
  RETURN_IF_ERROR(hand_->Act(seat, action));
  return AfterHandStep();
}

absl::Status Table::Timeout(const std::string& player) {
  int seat = 0;
  if (Find(player, &seat) == nullptr) {
    return absl::NotFoundError(absl::StrCat(player, " is not seated"));
  }
  if (!in_hand()) return absl::FailedPreconditionError("no hand in progress");
  RETURN_IF_ERROR(hand_->Timeout(seat));
  return AfterHandStep();
}

absl::StatusOr<ExtraTimeGranted> Table::GrantExtraTime(
    const std::string& player) {
  int seat = 0;
  if (Find(player, &seat) == nullptr) {
    return absl::NotFoundError(absl::StrCat(player, " is not seated"));
  }
  if (config_.extra_time_seconds == 0) {
    return absl::FailedPreconditionError(
        "this table grants no extra decision time (HE-44)");
  }
  if (!in_hand()) return absl::FailedPreconditionError("no hand in progress");
  if (hand_->to_act() != seat) {
    return absl::FailedPreconditionError(
        absl::StrCat(player, " is not the player to act"));
  }
  if (DecisionExtended()) {
    return absl::FailedPreconditionError(
        "this decision already had its extra time (HE-44)");
  }
  extended_hand_ = hand_number_;
  extended_actions_ = hand_->actions().size();
  ExtraTimeGranted e{player, hand_number_, config_.extra_time_seconds};
  events_.push_back(e);
  return e;
}

bool Table::DecisionExtended() const {
  return in_hand() && extended_hand_ == hand_number_ &&
         extended_actions_ == hand_->actions().size();
}

absl::Status Table::Void() {
  if (!in_hand()) return absl::FailedPreconditionError("no hand in progress");
  RETURN_IF_ERROR(hand_->Void());
  return AfterHandStep();
}

void Table::Settle() {
  settled_ = true;
  const HandResult& r = hand_->result();
  auto shared = std::make_shared<const HandResult>(r);
  std::vector<std::pair<int, LeaveReason>> ending;
  // The stacks change by as much as the rake took, no more: no seat ends
  // negative and the table neither makes nor loses a chip.
  int64_t moved = r.rake;
  for (const PlayerResult& p : r.players) {
    Occupant& o = seats_.at(p.seat);
    BANCA_CHECK(o.stack == p.start_stack && p.end_stack >= 0);
    moved += p.end_stack - p.start_stack;
    o.stack = p.end_stack;
    o.stats.total_bet += p.bet;
    o.stats.total_won += p.won;
    o.stats.net = o.stats.total_won - o.stats.total_bet;
    ++o.stats.hands_played;
    o.last = LastHand{hand_number_, p, shared};
    // HE-70b/71, gap 11: blinds are bets; the 6th hand without one invites,
    // the 7th warns, the 8th ends the session.
    const bool bet = p.bet > 0 || r.voided;
    o.hands_without_bet = bet ? 0 : o.hands_without_bet + 1;
    if (bet && o.notice && o.notice->reason == InvitationReason::kInactive) {
      o.notice.reset();
    }
    if (!o.leaving && NoteInactivity(o, o.hands_without_bet, kInactiveHands + 1,
                                     InvitationReason::kInactive)) {
      ending.push_back({p.seat, LeaveReason::kInactive});
    }
  }
  BANCA_CHECK(moved == 0);
  for (auto& [seat, o] : seats_) {
    if (o.leaving) {
      ending.push_back({seat, o.leave_reason});
      continue;
    }
    // HE-70a/71 for every seated player, dealt in or not (a short stack is
    // not dealt in, HE-15): invited after the first hand that ends with the
    // stack below the minimum bet and no rebuy, warned after the next, the
    // session ends after the one after. A rest (HE-68) or a rebuy under
    // way (SetRebuyPending) pauses the count.
    if (o.sitting_out || o.rebuy_pending || o.stack >= config_.big_blind) {
      continue;
    }
    const bool ends =
        std::any_of(ending.begin(), ending.end(),
                    [seat = seat](const auto& e) { return e.first == seat; });
    if (ends) continue;  // already ending for inactivity
    ++o.short_hands;
    if (NoteInactivity(o, o.short_hands, 1, InvitationReason::kShortStack)) {
      ending.push_back({seat, LeaveReason::kShortStack});
    }
  }
  for (const auto& [seat, reason] : ending) Remove(seat, reason);
  NoteStopped();
}

bool Table::NoteInactivity(Occupant& o, int count, int invite_at,
                           InvitationReason reason) {
  if (count == invite_at) {
    o.notice = SessionNotice{false, reason, hand_number_};
    events_.push_back(SessionEndInvited{o.player, reason});
  } else if (count == invite_at + 1) {
    o.notice = SessionNotice{true, reason, hand_number_};
    events_.push_back(SessionEndWarned{o.player, reason});
  }
  return count > invite_at + 1;
}

std::optional<int> Table::SeatOf(const std::string& player) const {
  int seat = 0;
  if (Find(player, &seat) == nullptr) return std::nullopt;
  return seat;
}

std::optional<int64_t> Table::Stack(const std::string& player) const {
  const Occupant* o = Find(player);
  if (o == nullptr) return std::nullopt;
  return o->stack;
}

std::vector<Table::SeatInfo> Table::Seats() const {
  std::vector<SeatInfo> out;
  out.reserve(seats_.size());
  for (const auto& [seat, o] : seats_) {
    out.push_back({seat, o.player, o.stack, o.sitting_out, o.leaving});
  }
  return out;
}

std::optional<SessionStats> Table::Stats(const std::string& player) const {
  const Occupant* o = Find(player);
  if (o == nullptr) return std::nullopt;
  return o->stats;
}

std::optional<SessionNotice> Table::NoticeOf(const std::string& player) const {
  const Occupant* o = Find(player);
  if (o == nullptr) return std::nullopt;
  return o->notice;
}

std::optional<LastHand> Table::LastHandOf(const std::string& player) const {
  const Occupant* o = Find(player);
  if (o == nullptr) return std::nullopt;
  return o->last;
}

}  // namespace banca::games::poker
