#include "libs/tables/roulette_table_state.h"

#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/tables/roulette_wire.h"
#include "libs/wire/banked_codec.h"

namespace banca::tables {
namespace rl = games::roulette;
namespace {

v1::PastNumber PastToProto(int64_t round, rl::Pocket pocket,
                           rl::Colour colour) {
  v1::PastNumber n;
  n.set_round(round);
  n.set_number(rl::PocketName(pocket));
  n.set_colour(std::string(rl::ColourName(colour)));
  return n;
}

// A virtual wheel's ball always completes a valid number of revolutions
// (RFD-23a concerns a physical launch); recorded for the audit trail.
constexpr int kVirtualRevolutions = 10;

}  // namespace

absl::StatusOr<std::unique_ptr<RouletteTableState>> RouletteTableState::Create(
    const v1::BankedTableCreated& created, int64_t at_micros) {
  ASSIGN_OR_RETURN(v1::RouletteTableConfig config,
                   NormalizeRouletteConfig(created.game(), created.roulette()));
  ASSIGN_OR_RETURN(
      rl::Table engine,
      rl::Table::Create(RouletteEngineConfig(created.game(), config),
                        absl::FromUnixMicros(at_micros)));
  v1::BankedTableCreated normalized = created;
  normalized.clear_blackjack();
  *normalized.mutable_roulette() = config;
  return std::unique_ptr<RouletteTableState>(new RouletteTableState(
      std::move(normalized), std::move(engine), at_micros));
}

absl::Time RouletteTableState::EngineTime(int64_t at_micros) {
  if (at_micros > engine_micros_) engine_micros_ = at_micros;
  return absl::FromUnixMicros(engine_micros_);
}

bool RouletteTableState::PendingBet(const std::string& player,
                                    const std::string& bet_id) const {
  for (const std::string& saga : sagas_.PendingIds()) {
    const StakeSagas::Stake* s = sagas_.Pending(saga);
    if (s->player_id() == player && s->bet_id() == bet_id) return true;
  }
  return false;
}

absl::StatusOr<v1::BankedTableEvent> RouletteTableState::BetEvent(
    const std::string& player, const v1::PlaceBankedBetRequest& request,
    int64_t now) const {
  ASSIGN_OR_RETURN(v1::BankedTableEvent e,
                   NewStake(player, absl::StrCat("b", bets_ + 1),
                            request.round(), request.amount_minor(), now));
  *e.mutable_stake_requested()->mutable_roulette() = request.roulette();
  return e;
}

v1::BankedTableEvent RouletteTableState::Spin(int64_t now,
                                              cards::RandomSource& rng) const {
  // 0..36, then 00 on a double-zero wheel: uniform, no modulo bias.
  const uint32_t index = cards::UniformInt(
      rng, static_cast<uint32_t>(rl::PocketCount(engine_.config().wheel)));
  v1::BankedTableEvent e;
  e.set_table_id(id());
  e.set_at_micros(now);
  e.mutable_spin()->set_round(engine_.round());
  e.mutable_spin()->set_number(rl::PocketName(
      index <= rl::kHighestNumber ? static_cast<rl::Pocket>(index)
                                  : rl::kDoubleZero));
  e.mutable_spin()->set_revolutions(kVirtualRevolutions);
  return e;
}

absl::StatusOr<v1::BankedTableEvent> RouletteTableState::LaunchEvent(
    const std::string& player, int64_t round, int64_t now,
    cards::RandomSource& rng) const {
  if (engine_.config().launch != rl::LaunchMode::kPlayerTriggered) {
    return absl::FailedPreconditionError(
        "this wheel launches when its betting window closes (RFD-13/14)");
  }
  if (!joined_.contains(player)) {
    return absl::PermissionDeniedError(absl::StrCat(
        "the wheel is launched by its player (RFD-16), not ", player));
  }
  if (round != engine_.round()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round ", round, " is not in play; round ", engine_.round(), " is"));
  }
  return Spin(now, rng);
}

std::optional<v1::BankedTableEvent> RouletteTableState::Due(
    int64_t now, cards::RandomSource& rng) const {
  if (!joined_.empty() && !sagas_.any() &&
      engine_.phase() == rl::Table::Phase::kBetting) {
    std::optional<absl::Time> closes = engine_.BettingClosesAt();
    if (closes && absl::FromUnixMicros(now) >= *closes) return Spin(now, rng);
  }
  if (engine_.config().players == rl::WheelMode::kIndividual &&
      now >= engine_micros_) {
    rl::Table copy = engine_;  // one player's wheel: small
    if (!copy.CheckInactivity(absl::FromUnixMicros(now)).empty()) {
      v1::BankedTableEvent e;
      e.set_table_id(id());
      e.set_at_micros(now);
      e.mutable_inactivity_checked();
      return e;
    }
  }
  return std::nullopt;
}

absl::Status RouletteTableState::RequestStake(const v1::BankedTableEvent& e) {
  const v1::StakeRequested& r = e.stake_requested();
  if (!joined_.contains(r.player_id())) {
    return absl::FailedPreconditionError(
        absl::StrCat(r.player_id(), " has not joined table ", id()));
  }
  if (r.round() != engine_.round()) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", r.round(), " is not taking bets; round ",
                     engine_.round(), " is"));
  }
  if (r.bet_id() != absl::StrCat("b", bets_ + 1) ||
      r.saga_id() != sagas_.NextSagaId(id())) {
    return absl::DataLossError(absl::StrCat("stake ", r.saga_id(), " / bet ",
                                            r.bet_id(), " out of order"));
  }
  ASSIGN_OR_RETURN(rl::BetRequest request,
                   RouletteBetFromProto(engine_.config().wheel, r.roulette(),
                                        r.stake_minor()));
  RETURN_IF_ERROR(engine_
                      .PlaceBet(r.player_id(), r.bet_id(), request,
                                absl::FromUnixMicros(
                                    std::max(e.at_micros(), engine_micros_)))
                      .status());
  EngineTime(e.at_micros());
  RETURN_IF_ERROR(sagas_.Begin(id(), r));
  ++bets_;
  requests_[r.bet_id()] = r.roulette();
  notices_.erase(r.player_id());
  return absl::OkStatus();
}

absl::Status RouletteTableState::Captured(const StakeSagas::Stake&, int64_t,
                                          std::vector<v1::BankedTableEvent>*) {
  last_ = Outcome{};
  return absl::OkStatus();  // on the board since it was requested
}

absl::Status RouletteTableState::Refused(const StakeSagas::Stake& stake) {
  last_ = Outcome{};
  // Off the board again: the stake never moved. Within the window: the
  // launch waits for every pending stake, so the engine's time is still
  // before the window's end.
  RETURN_IF_ERROR(engine_
                      .Withdraw(stake.player_id(), stake.bet_id(),
                                absl::FromUnixMicros(engine_micros_))
                      .status());
  requests_.erase(stake.bet_id());
  return absl::OkStatus();
}

absl::Status RouletteTableState::Connection(
    const std::string& player, bool connected, int64_t,
    std::vector<v1::BankedTableEvent>*) {
  last_ = Outcome{};
  // RFD-25/26: no bet changes, the spin settles them as usual. The engine
  // learns of a player at its first bet; before that there is nothing to
  // tell it.
  if (!engine_.Connected(player).has_value()) return absl::OkStatus();
  return connected ? engine_.Reconnect(player) : engine_.Disconnect(player);
}

absl::Status RouletteTableState::EndSession(const std::string& player) {
  absl::StatusOr<rl::SessionTotals> totals = engine_.Leave(player);
  if (!totals.ok() && !absl::IsNotFound(totals.status())) {
    return totals.status();
  }
  last_left_ = totals.ok() ? Summary(player, totals->rounds, totals->staked,
                                     totals->returned)
                           : SummaryFor(player);
  if (totals.ok()) last_.ended.emplace_back(player, *totals);
  joined_.erase(player);
  return absl::OkStatus();
}

void RouletteTableState::NoteSessions(
    const std::vector<rl::SessionNotice>& notices) {
  for (const rl::SessionNotice& n : notices) {
    last_.notices.push_back(n);
    notices_[n.player] = std::string(rl::NoticeKindName(n.kind));
    // RFD-32: the session ends; the player has no bets (they were idle).
    if (n.kind == rl::SessionNotice::Kind::kEnded) (void)EndSession(n.player);
  }
}

absl::Status RouletteTableState::ApplyGame(
    const v1::BankedTableEvent& e, std::vector<v1::BankedTableEvent>* derived) {
  last_ = Outcome{};
  absl::Status status = absl::OkStatus();
  switch (e.kind_case()) {
    case v1::BankedTableEvent::kJoined: {
      const std::string& player = e.joined().player_id();
      if (joined_.contains(player)) {
        return absl::FailedPreconditionError(
            absl::StrCat(player, " has already joined table ", id()));
      }
      if (static_cast<int>(joined_.size()) >= engine_.config().max_players) {
        return absl::ResourceExhaustedError("the table is full");
      }
      if (engine_.config().players == rl::WheelMode::kIndividual &&
          !joined_.empty()) {
        return absl::FailedPreconditionError(absl::StrCat(
            "this individual wheel is ", *joined_.begin(), "'s (RF-4)"));
      }
      joined_.insert(player);
      notices_.erase(player);
      break;
    }
    case v1::BankedTableEvent::kLeaving: {
      const std::string& player = e.leaving().player_id();
      if (!joined_.contains(player)) {
        return absl::FailedPreconditionError(
            absl::StrCat(player, " has not joined table ", id()));
      }
      if (!engine_.BetsOf(player).empty()) {
        return absl::FailedPreconditionError(
            "bets on the board: withdraw them or wait for the spin (RFD-30)");
      }
      status = EndSession(player);
      break;
    }
    case v1::BankedTableEvent::kStakeRequested:
      status = RequestStake(e);
      break;
    case v1::BankedTableEvent::kWithdrawRequested:
      return Withdraw(e, derived);
    case v1::BankedTableEvent::kSpin:
      return SettleSpin(e, derived);
    case v1::BankedTableEvent::kVoidRequested:
      return VoidRound(e, derived);
    case v1::BankedTableEvent::kInactivityChecked:
      if (e.at_micros() < engine_micros_) {
        return absl::InvalidArgumentError("time went backwards");
      }
      NoteSessions(
          engine_.CheckInactivity(absl::FromUnixMicros(e.at_micros())));
      break;
    default:
      return absl::InvalidArgumentError("not a roulette table event");
  }
  return status;
}

// A bet taken off the board before the spin: its stake goes back.
absl::Status RouletteTableState::Withdraw(
    const v1::BankedTableEvent& e, std::vector<v1::BankedTableEvent>* derived) {
  const v1::BetWithdrawRequested& w = e.withdraw_requested();
  if (PendingBet(w.player_id(), w.bet_id())) {
    return absl::FailedPreconditionError(
        absl::StrCat("bet ", w.bet_id(), "'s stake is still being captured"));
  }
  ASSIGN_OR_RETURN(rl::BetWithdrawn off,
                   engine_.Withdraw(w.player_id(), w.bet_id(),
                                    absl::FromUnixMicros(std::max(
                                        e.at_micros(), engine_micros_))));
  EngineTime(e.at_micros());
  requests_.erase(w.bet_id());
  v1::BankedTableEvent money = Money(off.round, "withdrawn", engine_micros_);
  RETURN_IF_ERROR(
      Add(money, settlement::VoidRefundTransaction(
                     Bet(off.round, off.player, off.bet_id, off.stake),
                     /*withdrawn=*/true)));
  derived->push_back(std::move(money));
  return absl::OkStatus();
}

// The ball's number: a valid spin settles the round's bets.
absl::Status RouletteTableState::SettleSpin(
    const v1::BankedTableEvent& e, std::vector<v1::BankedTableEvent>* derived) {
  if (sagas_.any()) {
    return absl::FailedPreconditionError(
        "a stake is still being captured; the ball waits for it");
  }
  const v1::SpinRecorded& spin = e.spin();
  if (spin.round() != engine_.round()) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", spin.round(), " is not in play"));
  }
  ASSIGN_OR_RETURN(rl::Pocket pocket,
                   rl::ParsePocket(engine_.config().wheel, spin.number()));
  ASSIGN_OR_RETURN(
      rl::SpinResult result,
      engine_.Spin(
          rl::SpinOutcome{pocket, spin.revolutions(), false},
          absl::FromUnixMicros(std::max(e.at_micros(), engine_micros_))));
  EngineTime(e.at_micros());
  last_.spin = result;
  if (const auto* settled = std::get_if<rl::RoundSettled>(&result)) {
    v1::BankedTableEvent money =
        Money(settled->round, "settled", engine_micros_);
    for (const rl::BetSettlement& b : settled->bets) {
      requests_.erase(b.bet_id);
      RETURN_IF_ERROR(Add(
          money,
          settlement::SettleTransaction(
              Bet(settled->round, b.player, b.bet_id, b.stake), b.returned)));
    }
    if (money.money().transactions_size() > 0) {
      derived->push_back(std::move(money));
    }
    NoteSessions(settled->notices);
  }
  return absl::OkStatus();
}

// A failed round: every bet on the board goes back.
absl::Status RouletteTableState::VoidRound(
    const v1::BankedTableEvent& e, std::vector<v1::BankedTableEvent>* derived) {
  if (sagas_.any()) {
    return absl::FailedPreconditionError(
        "a stake is still being captured; void the round once it is "
        "decided");
  }
  ASSIGN_OR_RETURN(rl::FailureResult failed,
                   engine_.Fail(absl::FromUnixMicros(
                       std::max(e.at_micros(), engine_micros_))));
  EngineTime(e.at_micros());
  if (const auto* voided = std::get_if<rl::RoundVoided>(&failed)) {
    last_.voided = *voided;
    v1::BankedTableEvent money = Money(voided->round, "void", engine_micros_);
    for (const rl::BetWithdrawn& b : voided->refunds) {
      requests_.erase(b.bet_id);
      RETURN_IF_ERROR(Add(money, settlement::VoidRefundTransaction(Bet(
                                     b.round, b.player, b.bet_id, b.stake))));
    }
    if (money.money().transactions_size() > 0) {
      derived->push_back(std::move(money));
    }
  }
  return absl::OkStatus();
}

v1::BankedTableInfo RouletteTableState::Info() const {
  v1::BankedTableInfo info = InfoHeader(static_cast<int>(joined_.size()));
  *info.mutable_roulette() = created_.roulette();
  return info;
}

v1::BankedSessionSummary RouletteTableState::SummaryFor(
    const std::string& player) const {
  const rl::SessionTotals t =
      engine_.Totals(player).value_or(rl::SessionTotals{});
  return Summary(player, t.rounds, t.staked, t.returned);
}

std::vector<v1::PastNumber> RouletteTableState::LastNumbers() const {
  std::vector<v1::PastNumber> out;
  for (const rl::PastNumber& p : engine_.History()) {
    out.push_back(PastToProto(p.round, p.pocket, p.colour));
  }
  return out;
}

v1::BankedTableView RouletteTableState::ViewFor(
    const std::string& player) const {
  v1::BankedTableView view = ViewHeader(player);
  v1::RouletteView* r = view.mutable_roulette();
  r->set_phase(engine_.phase() == rl::Table::Phase::kBetting ? "BETTING"
                                                             : "SPINNING");
  if (std::optional<absl::Time> closes = engine_.BettingClosesAt()) {
    r->set_betting_closes_at_micros(absl::ToUnixMicros(*closes));
  }
  r->set_wheel(std::string(wire::BankedGameName(game())));
  for (const rl::BetPlaced& b : engine_.BetsOf(player)) {
    if (PendingBet(player, b.bet_id)) continue;
    v1::RouletteBetView* bv = r->add_my_bets();
    bv->set_bet_id(b.bet_id);
    if (auto it = requests_.find(b.bet_id); it != requests_.end()) {
      *bv->mutable_bet() = it->second;
    }
    bv->set_stake_minor(b.stake);
    for (const rl::Chip& chip : b.chips)
      *bv->add_chips() = ChipToProto(chip, 0);
  }
  for (v1::PastNumber& n : LastNumbers()) *r->add_last_numbers() = std::move(n);
  return view;
}

std::vector<v1::BankedRoundRecord> RouletteTableState::ReplayFor(
    const std::string& player) const {
  std::vector<v1::BankedRoundRecord> out;
  for (const rl::ReplayRound& round : engine_.Replay(player)) {
    v1::BankedRoundRecord rec;
    rec.set_table_id(id());
    rec.set_round(round.round);
    rec.set_number(rl::PocketName(round.pocket));
    rec.set_colour(std::string(rl::ColourName(round.colour)));
    int64_t staked = 0;
    int64_t returned = 0;
    for (const rl::BetSettlement& b : round.bets) {
      v1::RouletteBetView* bv = rec.add_bets();
      bv->set_bet_id(b.bet_id);
      *bv->mutable_bet() = RouletteBetToProto(b.request);
      bv->set_stake_minor(b.stake);
      bv->set_returned_minor(b.returned);
      for (const rl::ChipResult& c : b.chips) {
        *bv->add_chips() = ChipToProto(c.chip, c.returned);
      }
      staked += b.stake;
      returned += b.returned;
    }
    rec.set_staked_minor(staked);
    rec.set_returned_minor(returned);
    out.push_back(std::move(rec));
  }
  return out;
}

}  // namespace banca::tables
