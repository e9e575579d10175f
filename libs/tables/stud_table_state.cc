#include "libs/tables/stud_table_state.h"

#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "libs/cards/random.h"
#include "libs/common/status_macros.h"
#include "libs/tables/stud_wire.h"
#include "libs/wire/table_codec.h"

namespace banca::tables {
namespace stud = games::stud_no_draw;
namespace {

int64_t Ms(int64_t micros) { return micros / 1000; }

bool IsBet(const StakeSagas::Stake& stake) {
  return stake.stud_action() == v1::STUD_ACTION_TYPE_BET;
}

}  // namespace

absl::StatusOr<std::unique_ptr<StudTableState>> StudTableState::Create(
    const v1::BankedTableCreated& created, int64_t) {
  ASSIGN_OR_RETURN(v1::StudTableConfig config,
                   NormalizeStudConfig(created.stud()));
  ASSIGN_OR_RETURN(
      stud::Table engine,
      stud::Table::Create(StudEngineConfig(config), created.table_id()));
  v1::BankedTableCreated normalized = created;
  *normalized.mutable_stud() = config;
  return std::unique_ptr<StudTableState>(
      new StudTableState(std::move(normalized), std::move(engine)));
}

int64_t StudTableState::round() const {
  return engine_.round_open() ? engine_.round()->number()
                              : engine_.rounds_played() + 1;
}

bool StudTableState::Deciding() const {
  return engine_.round_open() &&
         engine_.round()->phase() == stud::Phase::kDecisions;
}

absl::Status StudTableState::ApplyStake(stud::Table& table,
                                        const StakeSagas::Stake& stake,
                                        int64_t at) {
  if (IsBet(stake)) return table.Continue(stake.player_id());
  return table.PlaceAnte(stake.player_id(), stake.stake_minor(), Ms(at));
}

absl::StatusOr<v1::BankedTableEvent> StudTableState::BetEvent(
    const std::string& player, const v1::PlaceBankedBetRequest& request,
    int64_t now) const {
  if (!seats_.contains(player)) {
    return absl::FailedPreconditionError(
        absl::StrCat(player, " has no seat at table ", id()));
  }
  return NewStake(player, absl::StrCat(player, ".ante"), request.round(),
                  request.amount_minor(), now);
}

absl::StatusOr<v1::BankedTableEvent> StudTableState::ActEvent(
    const std::string& player, const v1::BankedActRequest& request,
    int64_t now) const {
  auto seat = seats_.find(player);
  if (seat == seats_.end()) {
    return absl::FailedPreconditionError(
        absl::StrCat(player, " has no seat at table ", id()));
  }
  if (!Deciding() || request.round() != engine_.round()->number()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round ", request.round(), " is not waiting for decisions"));
  }
  stud::Table copy = engine_;
  switch (request.stud_action()) {
    case v1::STUD_ACTION_TYPE_FOLD: {
      RETURN_IF_ERROR(copy.Fold(player));
      v1::BankedTableEvent e;
      e.set_table_id(id());
      e.set_at_micros(now);
      v1::ActionRequested* a = e.mutable_action_requested();
      a->set_player_id(player);
      a->set_round(request.round());
      a->set_stud_action(v1::STUD_ACTION_TYPE_FOLD);
      return e;
    }
    case v1::STUD_ACTION_TYPE_BET: {
      RETURN_IF_ERROR(copy.Continue(player));
      ASSIGN_OR_RETURN(
          v1::BankedTableEvent e,
          NewStake(player, absl::StrCat(player, ".bet"), request.round(),
                   engine_.round()->ViewFor(seat->second).continue_bet, now));
      e.mutable_stake_requested()->set_stud_action(v1::STUD_ACTION_TYPE_BET);
      return e;
    }
    default:
      return absl::InvalidArgumentError("stud_action must be FOLD or BET");
  }
}

std::optional<v1::BankedTableEvent> StudTableState::Due(
    int64_t now, cards::RandomSource& rng) const {
  v1::BankedTableEvent e;
  e.set_table_id(id());
  e.set_at_micros(now);
  if (sagas_.any()) return std::nullopt;  // the clock waits for the wallet
  if (Deciding()) {
    std::optional<int64_t> deadline = engine_.round()->NextDeadline();
    if (deadline && Ms(now) >= *deadline) {
      e.mutable_inactivity_checked();  // SD-31 warning or SD-32 fold
      return e;
    }
    return std::nullopt;
  }
  if (engine_.round_open() && deal_at_ != 0 && now >= deal_at_) {
    absl::StatusOr<std::vector<cards::Card>> deck = cards::ShuffledDeck(rng);
    if (!deck.ok()) return std::nullopt;
    e.mutable_dealt()->set_round(engine_.round()->number());
    for (const std::string& c : wire::CardsToStrings(*deck)) {
      e.mutable_dealt()->add_deck(c);
    }
    return e;
  }
  if (engine_.config().individual() && !seats_.empty()) {
    stud::Table copy = engine_;  // one seat: small
    if (copy.Tick(Ms(now)).ok() && copy.events_end() > engine_.events_end()) {
      e.mutable_inactivity_checked();
      return e;
    }
  }
  return std::nullopt;
}

absl::Status StudTableState::ApplyGame(
    const v1::BankedTableEvent& e, std::vector<v1::BankedTableEvent>* derived) {
  const int64_t at = e.at_micros();
  stud::Table next = engine_;
  switch (e.kind_case()) {
    case v1::BankedTableEvent::kJoined: {
      const std::string& player = e.joined().player_id();
      const int seat = e.joined().seat() == 0 && next.config().individual()
                           ? 1
                           : e.joined().seat();
      RETURN_IF_ERROR(next.Sit(player, seat, Ms(at)));
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
      RETURN_IF_ERROR(next.Leave(player).status());
      break;  // the PlayerLeft event carries the session (Drain)
    }
    case v1::BankedTableEvent::kStakeRequested: {
      const v1::StakeRequested& r = e.stake_requested();
      if (sagas_.AnyFor(r.player_id())) {
        return absl::FailedPreconditionError(
            "your previous stake is still being captured");
      }
      if (r.round() != round()) {
        return absl::FailedPreconditionError(
            absl::StrCat("round ", r.round(),
                         " is not taking this stake; round ", round(), " is"));
      }
      RETURN_IF_ERROR(ApplyStake(next, r, at));
      return sagas_.Begin(id(), r);  // applied once captured
    }
    case v1::BankedTableEvent::kActionRequested: {
      const v1::ActionRequested& a = e.action_requested();
      if (a.timeout()) {
        // SD-31/32 for one player: the pre-warning with the supplementary
        // time, then the fold. The service's own timers run through Tick
        // (InactivityChecked); a host may time one player out. Outside
        // the decisions the engine says why there is nothing to time out.
        if (Deciding() && a.round() != engine_.round()->number()) {
          return absl::FailedPreconditionError(absl::StrCat(
              "round ", a.round(), " is not waiting for decisions"));
        }
        RETURN_IF_ERROR(next.Timeout(a.player_id(), Ms(at)));
        break;
      }
      if (!Deciding() || a.round() != engine_.round()->number()) {
        return absl::FailedPreconditionError(
            absl::StrCat("round ", a.round(), " is not waiting for decisions"));
      }
      if (a.stud_action() != v1::STUD_ACTION_TYPE_FOLD) {
        return absl::InvalidArgumentError("stud_action must be FOLD");
      }
      RETURN_IF_ERROR(next.Fold(a.player_id()));
      break;
    }
    case v1::BankedTableEvent::kDealt: {
      if (!engine_.round_open() ||
          e.dealt().round() != engine_.round()->number()) {
        return absl::FailedPreconditionError(
            absl::StrCat("round ", e.dealt().round(), " is not taking antes"));
      }
      ASSIGN_OR_RETURN(const std::vector<cards::Card> deck,
                       wire::CardsFromStrings(e.dealt().deck()));
      RETURN_IF_ERROR(next.Deal(deck, Ms(at)));
      deal_at_ = 0;
      NoteDealt(e.dealt());
      break;
    }
    case v1::BankedTableEvent::kVoidRequested:
      RETURN_IF_ERROR(next.Void());
      break;
    case v1::BankedTableEvent::kInactivityChecked:
      RETURN_IF_ERROR(next.Tick(Ms(at)));
      break;
    default:
      return absl::InvalidArgumentError("not a póquer sem descarte event");
  }
  engine_ = std::move(next);
  return Drain(at, derived);
}

absl::Status StudTableState::Captured(
    const StakeSagas::Stake& stake, int64_t at,
    std::vector<v1::BankedTableEvent>* derived) {
  stud::Table next = engine_;
  if (!ApplyStake(next, stake, at).ok()) {
    // The round moved on (void, timed out): the stake goes back.
    return PayBack(stake, at, derived);
  }
  engine_ = std::move(next);
  if (!IsBet(stake) && deal_at_ == 0) {
    // SD-14: the betting period runs from the first ante; SD-15: alone at
    // the table, the cards come once the ante is in.
    deal_at_ =
        engine_.config().individual()
            ? at
            : at + int64_t{created_.stud().betting_seconds()} * 1'000'000;
  }
  return Drain(at, derived);
}

absl::Status StudTableState::Connection(
    const std::string& player, bool connected, int64_t at,
    std::vector<v1::BankedTableEvent>* derived) {
  // SD-35: after the ante and before the bet the player is deemed to fold
  // and loses the ante (before the deal: no cards); SD-36: after the bet
  // the player stays in and the round settles as usual.
  stud::Table next = engine_;
  RETURN_IF_ERROR(connected ? next.Reconnect(player) : next.Disconnect(player));
  engine_ = std::move(next);
  return Drain(at, derived);
}

absl::Status StudTableState::Refused(const StakeSagas::Stake&) {
  return absl::OkStatus();  // never applied: nothing to take back
}

absl::Status StudTableState::Drain(int64_t at,
                                   std::vector<v1::BankedTableEvent>* derived) {
  for (; table_events_seen_ < engine_.events_end(); ++table_events_seen_) {
    const stud::TableEvent& te = engine_.event(table_events_seen_);
    if (const auto* left = std::get_if<stud::PlayerLeft>(&te)) {
      seats_.erase(left->player);
      last_left_ = Summary(left->player, left->summary.rounds,
                           left->summary.staked, left->summary.returned);
      if (left->reason == stud::LeaveReason::kInactive) {
        notices_[left->player] = "ended";
      }
    } else if (const auto* invited =
                   std::get_if<stud::SessionEndInvited>(&te)) {
      notices_[invited->player] = "invited";
    }
  }
  // A round that ended before its deal (every ante folded by SD-35, or
  // void) deals nothing: the next round's betting period starts afresh.
  if (!engine_.round_open()) deal_at_ = 0;
  const stud::Round* r = engine_.round();
  if (r == nullptr) return absl::OkStatus();
  v1::BankedTableEvent money =
      RoundMoney(r->number(), r->finished() && r->result().voided, at);
  const auto& round_events = r->events();
  for (size_t i = cursor_.From(r->number()); i < round_events.size();
       cursor_.seen = ++i) {
    const auto* settled = std::get_if<stud::SeatSettled>(&round_events[i]);
    if (settled == nullptr) continue;
    notices_.erase(settled->player);
    const stud::SeatSettlement& s = settled->settlement;
    const bool voided = s.outcome == stud::Outcome::kVoid;
    for (const auto& [spot, b] :
         {std::pair{".ante", s.ante}, std::pair{".bet", s.bet}}) {
      if (b.stake == 0) continue;
      const settlement::BankedBet bet =
          Bet(r->number(), settled->player, absl::StrCat(settled->player, spot),
              b.stake);
      RETURN_IF_ERROR(
          Add(money, voided ? settlement::VoidRefundTransaction(bet)
                            : settlement::SettleTransaction(bet, b.returned)));
    }
  }
  if (money.money().transactions_size() > 0) {
    derived->push_back(std::move(money));
  }
  RevealWhenOver(r->number(), r->finished(), at, derived);
  return absl::OkStatus();
}

v1::BankedTableInfo StudTableState::Info() const {
  v1::BankedTableInfo info = InfoHeader(static_cast<int>(seats_.size()));
  *info.mutable_stud() = created_.stud();
  return info;
}

v1::BankedSessionSummary StudTableState::SummaryFor(
    const std::string& player) const {
  const stud::SessionSummary st =
      engine_.SessionOf(player).value_or(stud::SessionSummary{});
  return Summary(player, st.rounds, st.staked, st.returned);
}

v1::BankedTableView StudTableState::ViewFor(const std::string& player) const {
  v1::BankedTableView view = ViewHeader(player);
  v1::StudView* v = view.mutable_stud();
  const auto seat = seats_.find(player);
  const int my_seat = seat == seats_.end() ? 0 : seat->second;
  v->set_my_seat(my_seat);
  if (engine_.round_open()) v->set_deal_at_micros(deal_at_);
  const stud::Round* r = engine_.round();
  if (r == nullptr) return view;
  // The engine's view: the caller's own cards, the bank's up card, the
  // rest only once the rules turn them.
  const stud::RoundView rv = r->ViewFor(my_seat);
  v->set_phase(rv.phase == stud::Phase::kBetting     ? "BETTING"
               : rv.phase == stud::Phase::kDecisions ? "DECISIONS"
                                                     : "FINISHED");
  if (rv.bank_up) v->set_bank_up_card(cards::CardToString(*rv.bank_up));
  if (rv.bank) {
    for (const std::string& c : wire::CardsToStrings(*rv.bank))
      v->add_bank_cards(c);
    v->set_bank_qualifies(r->finished() && r->result().bank_qualifies);
  }
  for (const stud::SeatView& s : rv.seats) *v->add_seats() = StudSeatToProto(s);
  v->set_can_fold(rv.can_fold);
  v->set_can_bet(rv.can_continue);
  v->set_bet_minor(rv.continue_bet);
  if (rv.deadline_ms) v->set_deadline_micros(*rv.deadline_ms * 1000);
  v->set_warned(rv.warned);
  return view;
}

std::vector<v1::BankedRoundRecord> StudTableState::ReplayFor(
    const std::string& player) const {
  std::optional<stud::LastRound> last = engine_.LastRoundOf(player);
  if (!last) return {};
  v1::BankedRoundRecord rec;
  rec.set_table_id(id());
  rec.set_round(last->number);
  rec.set_voided(last->voided);
  if (last->bank) {
    for (const std::string& c : wire::CardsToStrings(*last->bank)) {
      rec.add_dealer_cards(c);
    }
  }
  rec.set_bank_qualifies(last->bank_qualifies);
  if (last->mine.dealt) {
    for (const std::string& c : wire::CardsToStrings(last->mine.cards)) {
      rec.add_my_cards(c);
    }
  }
  const stud::SeatSettlement& s = last->mine.settlement;
  rec.set_outcome(std::string(stud::OutcomeName(s.outcome)));
  for (const auto& [spot, b] :
       {std::pair{".ante", s.ante}, std::pair{".bet", s.bet}}) {
    if (b.stake == 0) continue;
    v1::BlackjackBetView* bv = rec.add_stake_results();
    bv->set_bet_id(absl::StrCat(player, spot));
    bv->set_stake_minor(b.stake);
    bv->set_returned_minor(b.returned);
    bv->set_outcome(rec.outcome());
  }
  rec.set_staked_minor(s.staked());
  rec.set_returned_minor(s.returned());
  return {rec};
}

}  // namespace banca::tables
