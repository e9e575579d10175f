#include "libs/tables/table_state.h"

#include <type_traits>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/money/money.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/tables/poker_config.h"
#include "libs/tables/session_notices.h"
#include "libs/wire/table_codec.h"

namespace banca::tables {
namespace poker = games::poker;

namespace {

v1::SessionSummary SummaryFrom(const std::string& table_id,
                               const std::string& player,
                               const poker::SessionStats& s) {
  v1::SessionSummary out;
  out.set_table_id(table_id);
  out.set_player_id(player);
  out.set_bought_in_minor(s.bought_in);
  out.set_rake_paid_minor(s.rake_paid);
  out.set_total_bet_minor(s.total_bet);
  out.set_total_won_minor(s.total_won);
  out.set_net_minor(s.net);
  out.set_hands_played(s.hands_played);
  return out;
}

}  // namespace

v1::TableEvent Compensation(const std::string& table_id,
                            const PendingBuyIn& b) {
  v1::TableEvent e;
  e.set_table_id(table_id);
  v1::PlayerLeft* left = e.mutable_player_left();
  left->set_player_id(b.player);
  left->set_seat(b.seat);
  left->set_stack_minor(b.paid - b.rake);
  left->set_rake_refund_minor(b.rake);
  left->set_compensates_saga_id(b.saga_id);
  return e;
}

absl::StatusOr<std::unique_ptr<TableState>> TableState::Create(
    const v1::TableCreated& created) {
  if (!wire::IsValidTableId(created.table_id())) {
    return absl::InvalidArgumentError("table_id must be 1-32 of [a-z0-9-]");
  }
  ASSIGN_OR_RETURN(v1::PokerTableConfig config,
                   tables::NormalizeConfig(created.config()));
  ASSIGN_OR_RETURN(
      poker::Table engine,
      poker::Table::Create(tables::EngineConfig(config), created.table_id()));
  return std::unique_ptr<TableState>(new TableState(
      std::move(engine), created.table_id(), created.name(), config));
}

std::string TableState::NextSagaId() const {
  return absl::StrCat("table/", id_, "/buyin/", sagas_started_ + 1);
}

const PendingBuyIn* TableState::FindSaga(const std::string& saga_id) const {
  auto it = pending_.find(saga_id);
  return it == pending_.end() ? nullptr : &it->second;
}

int64_t TableState::WaitingRebuy(const std::string& player) const {
  auto it = waiting_rebuys_.find(player);
  if (it == waiting_rebuys_.end()) return 0;
  int64_t net = 0;
  for (const PendingBuyIn& b : it->second) net += b.paid - b.rake;
  return net;
}

absl::Status TableState::CheckBuyIn(const std::string& player, int seat,
                                    int64_t paid, bool rebuy) const {
  for (const auto& [id, p] : pending_) {
    if (p.player == player) {
      return absl::FailedPreconditionError(
          absl::StrCat(player, " already has a buy-in in progress (", id, ")"));
    }
    if (!rebuy && !p.rebuy && p.seat == seat) {
      return absl::FailedPreconditionError(
          absl::StrCat("seat ", seat, " is being taken"));
    }
  }
  const poker::TableConfig& c = engine_.config();
  if (paid <= 0 || paid > money::kMaxAmountMinor) {
    return absl::InvalidArgumentError("the amount must be positive");
  }
  if (!rebuy) {
    if (seat < 1 || seat > c.seats) {
      return absl::InvalidArgumentError(
          absl::StrCat("seat ", seat, " is not 1..", c.seats));
    }
    if (std::optional<int> at = engine_.SeatOf(player)) {
      return absl::FailedPreconditionError(absl::StrCat(
          player, " already has seat ", *at, ": one seat per player (HE-9)"));
    }
    for (const poker::Table::SeatInfo& taken : engine_.Seats()) {
      if (taken.seat == seat) {
        return absl::FailedPreconditionError(
            absl::StrCat("seat ", seat, " is taken"));
      }
    }
    if (paid < c.buy_in_min || paid > c.buy_in_max) {
      return absl::InvalidArgumentError(
          absl::StrCat("buy-in ", paid, " is outside ", c.buy_in_min, "..",
                       c.buy_in_max, " (HE-8)"));
    }
    return absl::OkStatus();
  }
  std::optional<int64_t> stack = engine_.Stack(player);
  if (!stack)
    return absl::NotFoundError(absl::StrCat(player, " is not seated"));
  const int64_t after =
      *stack + WaitingRebuy(player) + paid - poker::BuyInRake(c, paid);
  if (after > c.buy_in_max) {
    return absl::InvalidArgumentError(
        absl::StrCat("rebuy would make the stack ", after,
                     ", above the table maximum ", c.buy_in_max, " (HE-12)"));
  }
  return absl::OkStatus();
}

v1::TableEvent TableState::Derived() const {
  v1::TableEvent e;
  e.set_table_id(id_);
  return e;
}

absl::Status TableState::Apply(const v1::TableEvent& event,
                               std::vector<v1::TableEvent>* derived) {
  if (event.table_id() != id_) {
    return absl::InternalError("event for another table");
  }
  switch (event.kind_case()) {
    case v1::TableEvent::kHandSettled:
    case v1::TableEvent::kSessionNotice:
      ++version_;
      return absl::OkStatus();  // derived: nothing to change
    case v1::TableEvent::kPlayerLeft:
      if (!event.player_left().compensates_saga_id().empty()) {
        ended_[event.player_left().compensates_saga_id()].end =
            SagaEnd::kCompensated;
        ++version_;
        return absl::OkStatus();
      }
      last_sessions_[event.player_left().player_id()] =
          event.player_left().summary();
      ++version_;
      return absl::OkStatus();
    default:
      break;
  }
  RETURN_IF_ERROR(ApplyInput(event, derived));
  ++version_;
  return Collect(derived);
}

absl::Status TableState::ApplyInput(const v1::TableEvent& event,
                                    std::vector<v1::TableEvent>* derived) {
  switch (event.kind_case()) {
    case v1::TableEvent::kBuyInRequested: {
      const v1::BuyInRequested& r = event.buy_in_requested();
      if (r.saga_id() != NextSagaId()) {
        return absl::InternalError(
            absl::StrCat("saga ", r.saga_id(), " out of order"));
      }
      RETURN_IF_ERROR(
          CheckBuyIn(r.player_id(), r.seat(), r.paid_minor(), r.rebuy()));
      if (r.rake_minor() !=
          poker::BuyInRake(engine_.config(), r.paid_minor())) {
        return absl::InternalError("buy-in rake differs from the table's");
      }
      ++sagas_started_;
      pending_[r.saga_id()] =
          PendingBuyIn{r.saga_id(),    r.player_id(),  r.seat(),
                       r.paid_minor(), r.rake_minor(), r.rebuy()};
      if (r.rebuy()) SyncRebuyPending(r.player_id());
      return absl::OkStatus();
    }
    case v1::TableEvent::kBuyInCompleted:
      return CompleteBuyIn(event.buy_in_completed().saga_id(), derived);
    case v1::TableEvent::kBuyInFailed: {
      auto it = pending_.find(event.buy_in_failed().saga_id());
      if (it == pending_.end()) {
        return absl::FailedPreconditionError("no such buy-in in progress");
      }
      ended_[it->first] = EndedSaga{SagaEnd::kFailed, it->second};
      const std::string player = it->second.player;
      pending_.erase(it);
      SyncRebuyPending(player);
      return absl::OkStatus();
    }
    case v1::TableEvent::kLeaveRequested:
      return engine_
          .Leave(event.leave_requested().player_id(),
                 LeaveReasonFromProto(event.leave_requested().reason()))
          .status();
    case v1::TableEvent::kSitOutChanged: {
      const v1::SitOutChanged& e = event.sit_out_changed();
      if (!e.sitting_out()) {
        RETURN_IF_ERROR(engine_.SitIn(e.player_id()));
        rest_since_.erase(e.player_id());
        return absl::OkStatus();
      }
      RETURN_IF_ERROR(engine_.SitOut(e.player_id()));
      // A repeated SitOut does not restart the rest (HE-68).
      rest_since_.try_emplace(e.player_id(), e.at_micros());
      return absl::OkStatus();
    }
    case v1::TableEvent::kDecisionTimeExtended: {
      const v1::DecisionTimeExtended& e = event.decision_time_extended();
      RETURN_IF_ERROR(CheckCurrentHand(e.hand_number()));
      if (e.seconds() != engine_.config().extra_time_seconds) {
        return absl::InternalError("extra time differs from the table's");
      }
      return engine_.GrantExtraTime(e.player_id()).status();
    }
    case v1::TableEvent::kHandStarted: {
      const v1::HandStarted& e = event.hand_started();
      if (e.hand_number() != hands_started_ + 1) {
        return absl::InternalError(absl::StrCat("hand ", e.hand_number(),
                                                " out of order (next ",
                                                hands_started_ + 1, ")"));
      }
      ASSIGN_OR_RETURN(std::vector<cards::Card> deck,
                       wire::CardsFromStrings(e.deck()));
      RETURN_IF_ERROR(engine_.StartHand(e.button_draw(), std::move(deck)));
      ++hands_started_;
      return absl::OkStatus();
    }
    case v1::TableEvent::kActionApplied: {
      const v1::ActionApplied& e = event.action_applied();
      RETURN_IF_ERROR(CheckCurrentHand(e.hand_number()));
      if (e.timeout()) return engine_.Timeout(e.player_id());
      ASSIGN_OR_RETURN(poker::Action action,
                       tables::ActionFromProto(e.action(), e.amount_minor()));
      return engine_.Act(e.player_id(), action);
    }
    case v1::TableEvent::kHandVoidRequested:
      if (event.hand_void_requested().hand_number() != hands_started_) {
        return absl::FailedPreconditionError("that hand is not in progress");
      }
      return engine_.Void();
    default:
      return absl::InvalidArgumentError("not a table input event");
  }
}

absl::Status TableState::CheckCurrentHand(int64_t hand_number) const {
  if (hand_number != hands_started_ || !engine_.in_hand()) {
    return absl::FailedPreconditionError(
        absl::StrCat("hand ", hand_number, " is not in progress (current hand ",
                     hands_started_, engine_.in_hand() ? ")" : ", finished)"));
  }
  return absl::OkStatus();
}

void TableState::SyncRebuyPending(const std::string& player) {
  bool pending = false;
  for (const auto& [saga, b] : pending_) {
    pending = pending || (b.rebuy && b.player == player);
  }
  auto waiting = waiting_rebuys_.find(player);
  pending =
      pending || (waiting != waiting_rebuys_.end() && !waiting->second.empty());
  // A player who left meanwhile has no seat to mark: nothing to pause.
  (void)engine_.SetRebuyPending(player, pending);
}

absl::Status TableState::CompleteBuyIn(const std::string& saga_id,
                                       std::vector<v1::TableEvent>* derived) {
  auto it = pending_.find(saga_id);
  if (it == pending_.end()) {
    return absl::FailedPreconditionError("no such buy-in in progress");
  }
  const PendingBuyIn b = it->second;
  pending_.erase(it);
  ended_[saga_id] = EndedSaga{SagaEnd::kCompleted, b};
  absl::Status applied;
  if (!b.rebuy) {
    applied = engine_.Sit(b.player, b.seat, b.paid).status();
  } else if (engine_.in_hand() &&
             engine_.hand()->dealt_in(engine_.SeatOf(b.player).value_or(0))) {
    waiting_rebuys_[b.player].push_back(b);  // HE-11b: after the hand
    return absl::OkStatus();
  } else {
    applied = engine_.Rebuy(b.player, b.paid).status();
    SyncRebuyPending(b.player);
  }
  if (!applied.ok()) {
    // The money is in the seat account but the engine cannot take it (the
    // player left meanwhile): pay it back.
    derived->push_back(Compensation(id_, b));
  }
  return absl::OkStatus();
}

absl::Status TableState::Collect(std::vector<v1::TableEvent>* derived) {
  const poker::Hand* hand = engine_.hand();
  if (hand != nullptr && hand->finished() && hands_settled_ < hands_started_) {
    ++hands_settled_;
    ASSIGN_OR_RETURN(std::vector<v1::LedgerTransaction> txs,
                     settlement::HandTransactions(
                         hand->record(), hand->result(), hand->events()));
    v1::TableEvent e = Derived();
    v1::HandSettled* settled = e.mutable_hand_settled();
    settled->set_hand_number(hands_started_);
    settled->set_hand_id(settlement::HandId(id_, hands_started_));
    for (v1::LedgerTransaction& tx : txs) {
      *settled->add_transactions() = std::move(tx);
    }
    settled->set_rake_minor(hand->result().rake);
    settled->set_voided(hand->result().voided);
    // The hand is over: its deck, sealed in the log since HandStarted, is
    // shown (sealed_decks.h).
    for (std::string& c : wire::CardsToStrings(hand->record().deck)) {
      settled->add_revealed_deck(std::move(c));
    }
    derived->push_back(std::move(e));
    // Rebuys funded during the hand join the stacks now (HE-11b). One that
    // no longer fits under the table maximum (HE-12: the player won the
    // hand meanwhile) is paid back to the player's cash, as a late capture
    // is: the seat account holds that money, the stack never does.
    for (auto& [player, rebuys] : waiting_rebuys_) {
      if (!engine_.SeatOf(player)) continue;  // left: paid out below
      for (const PendingBuyIn& b : rebuys) {
        if (engine_.Rebuy(player, b.paid).ok()) continue;
        ended_[b.saga_id] = EndedSaga{SagaEnd::kCompensated, b};
        derived->push_back(Compensation(id_, b));
      }
      rebuys.clear();
      SyncRebuyPending(player);
    }
  }
  for (; engine_events_seen_ < engine_.events_end(); ++engine_events_seen_) {
    const poker::TableEvent& engine_event = engine_.event(engine_events_seen_);
    if (const auto* sat = std::get_if<poker::PlayerSat>(&engine_event)) {
      ended_notices_.erase(sat->player);
      continue;
    }
    if (std::holds_alternative<poker::SessionEndInvited>(engine_event) ||
        std::holds_alternative<poker::SessionEndWarned>(engine_event)) {
      CollectNotice(engine_event, derived);
      continue;
    }
    const auto* left = std::get_if<poker::PlayerLeft>(&engine_event);
    if (left == nullptr) continue;
    rest_since_.erase(left->player);
    // HE-71/HE-68: the player is told why, then paid out like any leaver.
    if (std::optional<v1::SessionNotice> ended =
            EndedNotice(left->player, left->reason,
                        left->reason == poker::LeaveReason::kRestOver
                            ? 0
                            : engine_.hand_number())) {
      ended_notices_[left->player] = *ended;
      v1::TableEvent notice = Derived();
      *notice.mutable_session_notice() = std::move(*ended);
      derived->push_back(std::move(notice));
    }
    v1::TableEvent e = Derived();
    v1::PlayerLeft* out = e.mutable_player_left();
    out->set_player_id(left->player);
    out->set_seat(left->seat);
    out->set_reason(LeaveReasonToProto(left->reason));
    // A rebuy funded during the hand the player left in goes with them.
    out->set_stack_minor(left->stack + WaitingRebuy(left->player));
    waiting_rebuys_.erase(left->player);
    *out->mutable_summary() = SummaryFrom(id_, left->player, left->stats);
    last_sessions_[left->player] = out->summary();
    derived->push_back(std::move(e));
  }
  for (auto it = waiting_rebuys_.begin(); it != waiting_rebuys_.end();) {
    it = it->second.empty() ? waiting_rebuys_.erase(it) : std::next(it);
  }
  return absl::OkStatus();
}

void TableState::CollectNotice(const poker::TableEvent& engine_event,
                               std::vector<v1::TableEvent>* derived) const {
  std::string player;
  if (const auto* i = std::get_if<poker::SessionEndInvited>(&engine_event)) {
    player = i->player;
  } else if (const auto* w =
                 std::get_if<poker::SessionEndWarned>(&engine_event)) {
    player = w->player;
  } else {
    return;
  }
  // Logged only if it still stands once the hand's waiting rebuys joined
  // the stacks (a rebuy funded during the hand answers HE-70a already).
  std::optional<poker::SessionNotice> standing = engine_.NoticeOf(player);
  if (!standing) return;
  v1::TableEvent e = Derived();
  *e.mutable_session_notice() = NoticeOf(player, *standing);
  derived->push_back(std::move(e));
}

const TableState::EndedSaga* TableState::Ended(
    const std::string& saga_id) const {
  auto it = ended_.find(saga_id);
  return it == ended_.end() ? nullptr : &it->second;
}

std::optional<v1::SessionSummary> TableState::Summary(
    const std::string& player) const {
  if (std::optional<poker::SessionStats> s = engine_.Stats(player)) {
    return SummaryFrom(id_, player, *s);
  }
  auto it = last_sessions_.find(player);
  if (it == last_sessions_.end()) return std::nullopt;
  return it->second;
}

bool TableState::CanStartHand() const {
  return !engine_.in_hand() && engine_.EligibleSeats().size() >= 2;
}

std::map<std::string, int64_t> TableState::RestEnds() const {
  std::map<std::string, int64_t> out;
  if (config_.sit_out_max_seconds() == 0) return out;
  for (const auto& [player, since] : rest_since_) {
    out[player] = since + int64_t{config_.sit_out_max_seconds()} * 1'000'000;
  }
  return out;
}

v1::TableInfo TableState::Info() const {
  v1::TableInfo info;
  info.set_table_id(id_);
  info.set_name(name_);
  *info.mutable_config() = config_;
  const size_t players = engine_.Seats().size();
  info.set_players(static_cast<int32_t>(players));
  info.set_hands_played(hands_started_);
  info.set_in_hand(engine_.in_hand());
  return info;
}

v1::TableView TableState::ViewFor(const std::string& player) const {
  v1::TableView v;
  v.set_table_id(id_);
  v.set_version(version_);
  v.set_hand_number(hands_started_);
  v.set_in_hand(engine_.in_hand());
  v.set_button(engine_.button());
  const int my_seat = engine_.SeatOf(player).value_or(0);
  v.set_my_seat(my_seat);
  const poker::Hand* hand = engine_.hand();
  if (hand != nullptr) {
    const poker::SeatView sv =
        hand->ViewFor(hand->dealt_in(my_seat) ? my_seat : 0);
    v.set_round(sv.round);
    for (const std::string& c : wire::CardsToStrings(sv.board)) v.add_board(c);
    v.set_pot_minor(sv.pot);
    v.set_to_act(engine_.in_hand() ? sv.to_act.value_or(0) : 0);
    for (const poker::PlayerView& p : sv.players) {
      v1::SeatState* s = v.add_seats();
      s->set_seat(p.seat);
      s->set_player_id(p.player);
      s->set_stack_minor(
          engine_.in_hand() ? p.stack : engine_.Stack(p.player).value_or(0));
      s->set_bet_minor(p.bet);
      s->set_folded(p.folded);
      s->set_all_in(p.all_in);
      s->set_in_hand(engine_.in_hand());
      for (const std::string& c : wire::CardsToStrings(p.cards.span())) {
        s->add_cards(c);
      }
    }
    if (engine_.in_hand() && sv.to_act.has_value()) {
      // Public: stacks, bets and the round decide it, and every view shows
      // those.
      FillLegalActions(hand->legal(), v.mutable_to_act_legal());
      if (sv.to_act == my_seat && my_seat != 0) {
        *v.mutable_legal() = v.to_act_legal();
      }
    }
  }
  // Seated players not in the hand (between hands, sitting out, new).
  for (const poker::Table::SeatInfo& seated : engine_.Seats()) {
    v1::SeatState* s = nullptr;
    for (v1::SeatState& listed : *v.mutable_seats()) {
      if (listed.seat() == seated.seat) s = &listed;
    }
    if (s == nullptr) {
      s = v.add_seats();
      s->set_seat(seated.seat);
      s->set_player_id(seated.player);
      s->set_stack_minor(seated.stack);
    }
    s->set_sitting_out(seated.sitting_out);
  }
  if (std::optional<poker::SessionNotice> n = engine_.NoticeOf(player)) {
    *v.mutable_notice() = NoticeOf(player, *n);
  } else if (auto it = ended_notices_.find(player);
             it != ended_notices_.end() && my_seat == 0) {
    *v.mutable_notice() = it->second;
  }
  if (v.has_notice())
    v.mutable_notice()->set_message(NoticeMessage(v.notice()));
  v.set_decision_extended(engine_.DecisionExtended());
  if (auto it = rest_since_.find(player);
      it != rest_since_.end() && config_.sit_out_max_seconds() > 0) {
    v.set_rest_ends_micros(it->second +
                           int64_t{config_.sit_out_max_seconds()} * 1'000'000);
  }
  return v;
}

}  // namespace banca::tables
