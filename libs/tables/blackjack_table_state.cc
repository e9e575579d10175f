#include "libs/tables/blackjack_table_state.h"

#include <algorithm>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "libs/cards/random.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/tables/blackjack_wire.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/table_codec.h"

namespace banca::tables {
namespace bj = games::blackjack;
namespace {

// The engine refuses larger clock steps.
constexpr int64_t kMaxClockStep = 86'400;

std::string SeatBetId(int seat, std::string_view bet) {
  return absl::StrCat("seat", seat, ".", ToAbsl(bet));
}

// The decision a stake pays for; the main bet is none.
std::optional<bj::Action> StakeAction(const StakeSagas::Stake& stake) {
  absl::StatusOr<bj::ActionType> type =
      BlackjackActionFromProto(stake.blackjack_action());
  if (!type.ok()) return std::nullopt;
  return bj::Action{*type, stake.stake_minor()};
}

}  // namespace

absl::StatusOr<std::unique_ptr<BlackjackTableState>>
BlackjackTableState::Create(const v1::BankedTableCreated& created,
                            int64_t at_micros) {
  ASSIGN_OR_RETURN(v1::BlackjackTableConfig config,
                   NormalizeBlackjackConfig(created.blackjack()));
  ASSIGN_OR_RETURN(bj::Table engine,
                   bj::Table::Create(BlackjackSettings(config)));
  v1::BankedTableCreated normalized = created;
  normalized.clear_roulette();
  *normalized.mutable_blackjack() = config;
  return std::unique_ptr<BlackjackTableState>(new BlackjackTableState(
      std::move(normalized), std::move(engine), at_micros));
}

int64_t BlackjackTableState::round() const {
  return engine_.rounds_dealt() + (engine_.in_round() ? 0 : 1);
}

int64_t BlackjackTableState::decision_micros() const {
  return int64_t{created_.blackjack().decision_seconds()} * 1'000'000;
}

std::string BlackjackTableState::PlayerAt(int seat) const {
  for (const auto& [player, s] : seats_) {
    if (s == seat) return player;
  }
  return "";
}

absl::Status BlackjackTableState::MoveClock(bj::Table& table,
                                            int64_t at) const {
  int64_t delta = (at - created_micros_) / 1'000'000 - table.now();
  while (delta > 0) {
    const int64_t step = std::min(delta, kMaxClockStep);
    RETURN_IF_ERROR(table.AdvanceClock(step));
    delta -= step;
  }
  return absl::OkStatus();
}

absl::Status BlackjackTableState::ApplyStake(bj::Table& table,
                                             const StakeSagas::Stake& stake) {
  if (std::optional<bj::Action> action = StakeAction(stake)) {
    return table.Act(stake.player_id(), *action);
  }
  return table.PlaceBet(stake.player_id(), stake.stake_minor());
}

absl::StatusOr<v1::BankedTableEvent> BlackjackTableState::BetEvent(
    const std::string& player, const v1::PlaceBankedBetRequest& request,
    int64_t now) const {
  auto seat = seats_.find(player);
  if (seat == seats_.end()) {
    // In the engine's words (games/blackjack/table.cc).
    return absl::FailedPreconditionError(
        absl::StrCat(player, " is not seated at this table"));
  }
  return NewStake(player, SeatBetId(seat->second, "main"), request.round(),
                  request.amount_minor(), now);
}

absl::StatusOr<v1::BankedTableEvent> BlackjackTableState::ActEvent(
    const std::string& player, const v1::BankedActRequest& request,
    int64_t now) const {
  auto seat = seats_.find(player);
  if (seat == seats_.end()) {
    // In the engine's words (games/blackjack/table.cc).
    return absl::FailedPreconditionError(
        absl::StrCat(player, " is not seated at this table"));
  }
  if (!engine_.in_round() || request.round() != engine_.rounds_dealt()) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", request.round(), " is not in play"));
  }
  ASSIGN_OR_RETURN(const bj::ActionType type,
                   BlackjackActionFromProto(request.action()));
  const bj::LegalActions legal = engine_.round()->legal();
  int64_t stake = 0;
  std::string bet;
  switch (type) {
    case bj::ActionType::kDouble:
      stake = legal.double_amount;
      bet = bj::BetId(bj::BetKind::kDouble, legal.hand);
      break;
    case bj::ActionType::kSplit: {
      stake = legal.split_amount;
      const bj::SeatState* s = engine_.round()->seat_state(seat->second);
      bet = bj::BetId(bj::BetKind::kSplit,
                      s == nullptr ? 0 : static_cast<int>(s->hands.size()) + 1);
      break;
    }
    case bj::ActionType::kInsurance:
      stake = request.amount_minor();
      bet = bj::BetId(bj::BetKind::kInsurance, 0);
      break;
    default:
      break;
  }
  // The engine's own checks (turn, legality, amounts) on a copy.
  bj::Table copy = engine_;
  RETURN_IF_ERROR(copy.Act(
      player, bj::Action{type, stake > 0 ? stake : request.amount_minor()}));
  if (stake > 0) {
    ASSIGN_OR_RETURN(v1::BankedTableEvent e,
                     NewStake(player, SeatBetId(seat->second, bet),
                              request.round(), stake, now));
    e.mutable_stake_requested()->set_blackjack_action(request.action());
    return e;
  }
  v1::BankedTableEvent e;
  e.set_table_id(id());
  e.set_at_micros(now);
  v1::ActionRequested* a = e.mutable_action_requested();
  a->set_player_id(player);
  a->set_round(request.round());
  a->set_action(request.action());
  return e;
}

std::optional<v1::BankedTableEvent> BlackjackTableState::Due(
    int64_t now, cards::RandomSource& rng) const {
  v1::BankedTableEvent e;
  e.set_table_id(id());
  e.set_at_micros(now);
  if (engine_.in_round()) {
    // The decision time ran out: insurance declined, the hand stands.
    const bj::LegalActions legal = engine_.round()->legal();
    const std::string player = PlayerAt(legal.seat);
    if (legal.seat != 0 && !player.empty() && !sagas_.AnyFor(player) &&
        now >= turn_started_ + decision_micros()) {
      v1::ActionRequested* a = e.mutable_action_requested();
      a->set_player_id(player);
      a->set_round(engine_.rounds_dealt());
      a->set_timeout(true);
      return e;
    }
    return std::nullopt;
  }
  bool bets = false;
  for (const auto& [player, seat] : seats_) {
    bets |= engine_.PendingBet(player).value_or(0) > 0;
  }
  if (bets && deal_at_ != 0 && !sagas_.any() && now >= deal_at_) {
    absl::StatusOr<std::vector<cards::Card>> shoe = cards::ShuffledDeck(
        rng, cards::DeckSpec{.copies = created_.blackjack().decks()});
    if (!shoe.ok()) return std::nullopt;
    e.mutable_dealt()->set_round(engine_.rounds_dealt() + 1);
    for (const std::string& c : wire::CardsToStrings(*shoe)) {
      e.mutable_dealt()->add_deck(c);
    }
    return e;
  }
  if (engine_.settings().individual() && !seats_.empty()) {
    bj::Table copy = engine_;  // one seat: small
    if (MoveClock(copy, now).ok() && copy.events_end() > engine_.events_end()) {
      e.mutable_inactivity_checked();
      return e;
    }
  }
  return std::nullopt;
}

absl::Status BlackjackTableState::ApplyGame(
    const v1::BankedTableEvent& e, std::vector<v1::BankedTableEvent>* derived) {
  const int64_t at = e.at_micros();
  switch (e.kind_case()) {
    case v1::BankedTableEvent::kJoined: {
      const std::string& player = e.joined().player_id();
      const int seat = e.joined().seat() == 0 && engine_.settings().individual()
                           ? 1
                           : e.joined().seat();
      bj::Table next = engine_;
      RETURN_IF_ERROR(MoveClock(next, at));
      RETURN_IF_ERROR(next.Sit(player, seat));
      engine_ = std::move(next);
      seats_[player] = seat;
      notices_.erase(player);
      break;
    }
    case v1::BankedTableEvent::kLeaving: {
      const std::string& player = e.leaving().player_id();
      if (sagas_.AnyFor(player)) {
        return absl::FailedPreconditionError(
            "a stake of yours is still being captured");
      }
      bj::Table next = engine_;
      RETURN_IF_ERROR(MoveClock(next, at));
      RETURN_IF_ERROR(next.Leave(player));
      engine_ = std::move(next);
      last_left_ = SummaryFor(player);
      break;
    }
    case v1::BankedTableEvent::kStakeRequested:
      return RequestStake(e.stake_requested(), at);
    case v1::BankedTableEvent::kActionRequested:
      RETURN_IF_ERROR(ApplyAction(e.action_requested(), at));
      break;
    case v1::BankedTableEvent::kDealt: {
      if (e.dealt().round() != engine_.rounds_dealt() + 1) {
        return absl::FailedPreconditionError(
            absl::StrCat("round ", e.dealt().round(), " is not the next"));
      }
      ASSIGN_OR_RETURN(std::vector<cards::Card> deck,
                       wire::CardsFromStrings(e.dealt().deck()));
      bj::Table next = engine_;
      RETURN_IF_ERROR(MoveClock(next, at));
      RETURN_IF_ERROR(next.Deal(std::move(deck)));
      engine_ = std::move(next);
      deal_at_ = 0;
      NoteDealt(e.dealt());
      break;
    }
    case v1::BankedTableEvent::kVoidRequested: {
      bj::Table next = engine_;
      RETURN_IF_ERROR(MoveClock(next, at));
      RETURN_IF_ERROR(next.Fail());
      engine_ = std::move(next);
      break;
    }
    case v1::BankedTableEvent::kInactivityChecked:
      RETURN_IF_ERROR(MoveClock(engine_, at));
      break;
    default:
      return absl::InvalidArgumentError("not a blackjack table event");
  }
  RETURN_IF_ERROR(Drain(at, derived));
  NoteTurn(at);
  return absl::OkStatus();
}

// A stake for the round being bet on (the main bet), or for a decision
// (double, split, insurance): the saga starts once the engine would take it.
absl::Status BlackjackTableState::RequestStake(const v1::StakeRequested& r,
                                               int64_t at) {
  if (sagas_.AnyFor(r.player_id())) {
    return absl::FailedPreconditionError(
        "your previous stake is still being captured");
  }
  if (r.round() != round()) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", r.round(), " is not taking this stake; round ",
                     round(), " is"));
  }
  if (!StakeAction(r) && engine_.in_round()) {
    return absl::FailedPreconditionError(
        "a round is in progress: the main bet waits for the next one");
  }
  bj::Table copy = engine_;
  RETURN_IF_ERROR(MoveClock(copy, at));
  RETURN_IF_ERROR(ApplyStake(copy, r));
  return sagas_.Begin(id(), r);
}

// A decision that moves no money (or the player's timer running out).
absl::Status BlackjackTableState::ApplyAction(const v1::ActionRequested& a,
                                              int64_t at) {
  if (!engine_.in_round() || a.round() != engine_.rounds_dealt()) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", a.round(), " is not in play"));
  }
  bj::Table next = engine_;
  RETURN_IF_ERROR(MoveClock(next, at));
  if (a.timeout()) {
    RETURN_IF_ERROR(next.Timeout(a.player_id()));
  } else {
    ASSIGN_OR_RETURN(bj::ActionType type, BlackjackActionFromProto(a.action()));
    RETURN_IF_ERROR(next.Act(a.player_id(), bj::Action{type, 0}));
  }
  engine_ = std::move(next);
  return absl::OkStatus();
}

absl::Status BlackjackTableState::Connection(
    const std::string& player, bool connected, int64_t at,
    std::vector<v1::BankedTableEvent>* derived) {
  // BJ-29/30: the round and the bets stay valid. The engine changes
  // nothing; the player's hands are played out by the decision timeout
  // when their turn comes (insurance declined, the hand stands).
  RETURN_IF_ERROR(connected ? engine_.Reconnect(player)
                            : engine_.Disconnect(player));
  return Drain(at, derived);
}

absl::Status BlackjackTableState::Captured(
    const StakeSagas::Stake& stake, int64_t at,
    std::vector<v1::BankedTableEvent>* derived) {
  bj::Table next = engine_;
  absl::Status s = MoveClock(next, at);
  if (s.ok()) s = ApplyStake(next, stake);
  if (!s.ok()) {
    // The table moved on (a void, the player gone): the stake goes back.
    return PayBack(stake, at, derived);
  }
  engine_ = std::move(next);
  if (!StakeAction(stake) && deal_at_ == 0) {
    // The first bet starts the betting time; alone at the table, the deal
    // comes at once.
    deal_at_ =
        engine_.settings().individual()
            ? at
            : at + int64_t{created_.blackjack().betting_seconds()} * 1'000'000;
  }
  RETURN_IF_ERROR(Drain(at, derived));
  NoteTurn(at);
  return absl::OkStatus();
}

absl::Status BlackjackTableState::Refused(const StakeSagas::Stake&) {
  return absl::OkStatus();  // never applied: nothing to take back
}

absl::Status BlackjackTableState::Drain(
    int64_t at, std::vector<v1::BankedTableEvent>* derived) {
  const int64_t next_round = engine_.rounds_dealt() + 1;
  v1::BankedTableEvent withdrawn = Money(next_round, "withdrawn", at);
  for (; table_events_seen_ < engine_.events_end(); ++table_events_seen_) {
    const bj::TableEvent& te = engine_.event(table_events_seen_);
    if (const auto* back = std::get_if<bj::BetWithdrawn>(&te)) {
      RETURN_IF_ERROR(
          Add(withdrawn, settlement::VoidRefundTransaction(
                             Bet(next_round, back->player,
                                 SeatBetId(back->seat, "main"), back->amount),
                             /*withdrawn=*/true)));
    } else if (const auto* left = std::get_if<bj::PlayerLeft>(&te)) {
      seats_.erase(left->player);
      last_left_ = Summary(left->player, left->stats.rounds_played,
                           left->stats.staked, left->stats.returned);
      if (left->reason == bj::LeaveReason::kInactivity) {
        notices_[left->player] = "ended";
      }
    } else if (const auto* invited = std::get_if<bj::SessionEndInvited>(&te)) {
      notices_[invited->player] = "invited";
    } else if (const auto* warned = std::get_if<bj::SessionEndWarned>(&te)) {
      notices_[warned->player] = "warned";
    } else if (const auto* placed = std::get_if<bj::BetPlaced>(&te)) {
      notices_.erase(placed->player);
    }
  }
  if (withdrawn.money().transactions_size() > 0) {
    derived->push_back(std::move(withdrawn));
  }
  const bj::Round* r = engine_.round();
  if (r == nullptr) return absl::OkStatus();
  v1::BankedTableEvent settled =
      RoundMoney(r->round_number(), r->finished() && r->result().voided, at);
  const auto& round_events = r->events();
  for (size_t i = cursor_.From(r->round_number()); i < round_events.size();
       cursor_.seen = ++i) {
    const auto* bet = std::get_if<bj::BetSettled>(&round_events[i]);
    if (bet == nullptr) continue;
    const bj::BetResult& b = bet->bet;
    const bj::SeatState* seat = r->seat_state(b.seat);
    const settlement::BankedBet banked =
        Bet(r->round_number(), seat == nullptr ? "" : seat->player,
            SeatBetId(b.seat, bj::BetId(b.kind, b.hand)), b.stake);
    RETURN_IF_ERROR(
        Add(settled, b.outcome == bj::Outcome::kVoid
                         ? settlement::VoidRefundTransaction(banked)
                         : settlement::SettleTransaction(banked, b.returned)));
  }
  if (settled.money().transactions_size() > 0) {
    derived->push_back(std::move(settled));
  }
  RevealWhenOver(r->round_number(), r->finished(), at, derived);
  return absl::OkStatus();
}

void BlackjackTableState::NoteTurn(int64_t at) {
  std::string turn;
  if (engine_.in_round()) {
    const bj::LegalActions legal = engine_.round()->legal();
    turn = absl::StrCat(engine_.rounds_dealt(), "/",
                        engine_.round()->decisions().size(), "/", legal.seat,
                        "/", legal.hand);
  }
  if (turn != turn_) {
    turn_ = std::move(turn);
    turn_started_ = at;
  }
}

v1::BankedTableInfo BlackjackTableState::Info() const {
  v1::BankedTableInfo info = InfoHeader(static_cast<int>(seats_.size()));
  *info.mutable_blackjack() = created_.blackjack();
  return info;
}

v1::BankedSessionSummary BlackjackTableState::SummaryFor(
    const std::string& player) const {
  const bj::SessionStats st =
      engine_.Stats(player).value_or(bj::SessionStats{});
  return Summary(player, st.rounds_played, st.staked, st.returned);
}

v1::BankedTableView BlackjackTableState::ViewFor(
    const std::string& player) const {
  v1::BankedTableView view = ViewHeader(player);
  v1::BlackjackView* b = view.mutable_blackjack();
  b->set_in_round(engine_.in_round());
  if (auto it = seats_.find(player); it != seats_.end()) {
    b->set_my_seat(it->second);
  }
  if (!engine_.in_round()) b->set_deal_at_micros(deal_at_);
  // The engine's view hides the hole card until it is revealed.
  if (std::optional<bj::RoundView> rv = engine_.ViewFor(player)) {
    for (const std::string& c : wire::CardsToStrings(rv->dealer_cards)) {
      b->add_dealer_cards(c);
    }
    b->set_hole_card_hidden(rv->hole_card_hidden);
    for (const bj::SeatState& s : rv->seats) {
      v1::BlackjackSeatView* sv = b->add_seats();
      sv->set_seat(s.seat);
      sv->set_player_id(s.player);
      sv->set_insurance_minor(s.insurance);
      for (const bj::PlayerHand& h : s.hands) *sv->add_hands() = HandToProto(h);
    }
    if (engine_.in_round()) {
      b->set_to_act_seat(rv->to_act.seat);
      b->set_to_act_hand(rv->to_act.hand);
      b->set_decision_deadline_micros(turn_started_ + decision_micros());
      if (rv->to_act.seat != 0 && rv->to_act.seat == b->my_seat()) {
        *b->mutable_legal() = LegalToProto(rv->to_act);
      }
    }
  }
  // Bets waiting for the next deal.
  for (const auto& [who, seat] : seats_) {
    const int64_t pending = engine_.PendingBet(who).value_or(0);
    if (pending == 0) continue;
    v1::BlackjackSeatView* sv = nullptr;
    for (v1::BlackjackSeatView& s : *b->mutable_seats()) {
      if (s.seat() == seat) sv = &s;
    }
    if (sv == nullptr) {
      sv = b->add_seats();
      sv->set_seat(seat);
      sv->set_player_id(who);
    }
    sv->set_pending_bet_minor(pending);
  }
  return view;
}

std::vector<v1::BankedRoundRecord> BlackjackTableState::ReplayFor(
    const std::string& player) const {
  std::optional<bj::LastRound> last = engine_.LastRoundOf(player);
  if (!last) return {};
  v1::BankedRoundRecord rec;
  rec.set_table_id(id());
  rec.set_round(last->round_number);
  rec.set_voided(last->voided);
  for (const std::string& c : wire::CardsToStrings(last->dealer_cards)) {
    rec.add_dealer_cards(c);
  }
  rec.set_dealer_total(last->dealer_total.value);
  for (const bj::PlayerHand& h : last->mine.hands) {
    *rec.add_hands() = HandToProto(h);
  }
  for (const bj::BetResult& b : last->bets) {
    v1::BlackjackBetView* bv = rec.add_stake_results();
    bv->set_bet_id(SeatBetId(b.seat, bj::BetId(b.kind, b.hand)));
    bv->set_stake_minor(b.stake);
    bv->set_returned_minor(b.returned);
    bv->set_outcome(std::string(bj::OutcomeName(b.outcome)));
    bv->set_prize_minor(b.prize);
  }
  rec.set_staked_minor(last->staked);
  rec.set_returned_minor(last->returned);
  return {rec};
}

}  // namespace banca::tables
