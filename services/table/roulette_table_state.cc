#include "services/table/roulette_table_state.h"

#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"
#include "services/table/banked_codec.h"
#include "services/table/banked_settlement.h"
#include "services/table/roulette_wire.h"

namespace banca::table {
namespace rl = games::roulette;
namespace {

std::string NoticeName(rl::SessionNotice::Kind kind) {
  switch (kind) {
    case rl::SessionNotice::Kind::kInvited:
      return "invited";
    case rl::SessionNotice::Kind::kWarned:
      return "warned";
    case rl::SessionNotice::Kind::kEnded:
      return "ended";
  }
  return "";
}

v1::PastNumber PastToProto(int64_t round, rl::Pocket pocket,
                           rl::Colour colour) {
  v1::PastNumber n;
  n.set_round(round);
  n.set_number(rl::PocketName(pocket));
  n.set_colour(std::string(rl::ColourName(colour)));
  return n;
}

std::string BetKey(const std::string& player, const std::string& bet_id) {
  return absl::StrCat(player, "/", bet_id);
}

}  // namespace

absl::StatusOr<std::unique_ptr<RouletteTableState>> RouletteTableState::Create(
    const v1::BankedTableCreated& created, int64_t at_micros) {
  absl::StatusOr<v1::RouletteTableConfig> config =
      NormalizeRouletteConfig(created.game(), created.roulette());
  if (!config.ok()) return config.status();
  absl::StatusOr<rl::Table> engine =
      rl::Table::Create(RouletteEngineConfig(created.game(), *config),
                        absl::FromUnixMicros(at_micros));
  if (!engine.ok()) return engine.status();
  v1::BankedTableCreated normalized = created;
  *normalized.mutable_roulette() = *config;
  return std::unique_ptr<RouletteTableState>(new RouletteTableState(
      std::move(normalized), *std::move(engine), at_micros));
}

absl::Time RouletteTableState::EngineTime(int64_t at_micros) {
  if (at_micros > engine_micros_) engine_micros_ = at_micros;
  return absl::FromUnixMicros(engine_micros_);
}

v1::BankedTableEvent RouletteTableState::Money(int64_t round,
                                               const char* cause) const {
  v1::BankedTableEvent e;
  e.set_table_id(id());
  e.set_at_micros(engine_micros_);
  e.mutable_money()->set_round(round);
  e.mutable_money()->set_cause(cause);
  return e;
}

const RouletteTableState::Stake* RouletteTableState::PendingStake(
    const std::string& saga_id) const {
  auto it = pending_.find(saga_id);
  return it == pending_.end() ? nullptr : &it->second;
}

const RouletteTableState::Stake* RouletteTableState::TimedOutStake(
    const std::string& saga_id) const {
  auto it = timed_out_.find(saga_id);
  return it == timed_out_.end() ? nullptr : &it->second;
}

std::vector<std::string> RouletteTableState::PendingSagas() const {
  std::vector<std::string> out;
  for (const auto& [saga, stake] : pending_) out.push_back(saga);
  return out;
}

std::string RouletteTableState::NextSagaId() const {
  return StakeSagaId(id(), sagas_ + 1);
}

std::string RouletteTableState::NextBetId() const {
  return absl::StrCat("b", bets_ + 1);
}

bool RouletteTableState::SpinDue(int64_t now_micros) const {
  if (joined_.empty() || !pending_.empty()) return false;
  if (engine_.phase() != rl::Table::Phase::kBetting) return false;
  std::optional<absl::Time> closes = engine_.BettingClosesAt();
  return closes && absl::FromUnixMicros(now_micros) >= *closes;
}

bool RouletteTableState::InactivityDue(int64_t now_micros) const {
  if (engine_.config().players != rl::WheelMode::kIndividual) return false;
  if (now_micros < engine_micros_) return false;
  rl::Table copy = engine_;  // one player's wheel: small
  return !copy.CheckInactivity(absl::FromUnixMicros(now_micros)).empty();
}

int RouletteTableState::pockets() const {
  return rl::PocketCount(engine_.config().wheel);
}

std::string RouletteTableState::PocketNameAt(uint32_t index) const {
  // 0..36, then 00 on a double-zero wheel.
  return rl::PocketName(index <= rl::kHighestNumber
                            ? static_cast<rl::Pocket>(index)
                            : rl::kDoubleZero);
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
  if (r.saga_id() != NextSagaId() || r.bet_id() != NextBetId()) {
    return absl::DataLossError(absl::StrCat(
        "stake saga ", r.saga_id(), " / bet ", r.bet_id(), " out of order"));
  }
  absl::StatusOr<rl::BetRequest> request = RouletteBetFromProto(
      engine_.config().wheel, r.roulette(), r.stake_minor());
  if (!request.ok()) return request.status();
  const int64_t before = engine_micros_;
  absl::StatusOr<rl::BetPlaced> placed =
      engine_.PlaceBet(r.player_id(), r.bet_id(), *request,
                       absl::FromUnixMicros(std::max(e.at_micros(), before)));
  if (!placed.ok()) return placed.status();
  EngineTime(e.at_micros());
  ++sagas_;
  ++bets_;
  pending_[r.saga_id()] =
      Stake{r.player_id(), r.bet_id(), r.round(), r.stake_minor()};
  pending_bets_.insert(BetKey(r.player_id(), r.bet_id()));
  requests_[r.bet_id()] = r.roulette();
  notices_.erase(r.player_id());
  return absl::OkStatus();
}

absl::Status RouletteTableState::EndStake(
    const v1::BankedTableEvent& e, std::vector<v1::BankedTableEvent>* derived) {
  const bool captured = e.has_stake_captured();
  const std::string& saga =
      captured ? e.stake_captured().saga_id() : e.stake_refused().saga_id();
  auto it = pending_.find(saga);
  if (it == pending_.end()) {
    // A capture after the table gave up: the stake goes back (BET_RETURNED).
    auto late = timed_out_.find(saga);
    if (!captured || late == timed_out_.end()) {
      return absl::FailedPreconditionError(
          absl::StrCat("stake saga ", saga, " is not pending"));
    }
    const Stake& s = late->second;
    absl::StatusOr<v1::LedgerTransaction> tx = VoidRefundTransaction(
        BankedBet{std::string(BankedGameName(game())), id(), s.round, s.player,
                  s.bet_id, s.stake},
        /*withdrawn=*/true);
    if (!tx.ok()) return tx.status();
    v1::BankedTableEvent money = Money(s.round, "compensation");
    *money.mutable_money()->add_transactions() = *std::move(tx);
    derived->push_back(std::move(money));
    timed_out_.erase(late);
    return absl::OkStatus();
  }
  Stake stake = it->second;
  if (!captured) {
    // Off the board again: the stake never moved. Within the window: the
    // launch waits for every pending stake, so the engine's time is still
    // before the window's end.
    absl::StatusOr<rl::BetWithdrawn> off = engine_.Withdraw(
        stake.player, stake.bet_id, absl::FromUnixMicros(engine_micros_));
    if (!off.ok()) return off.status();
    requests_.erase(stake.bet_id);
    if (e.stake_refused().timed_out()) timed_out_[saga] = stake;
  }
  pending_bets_.erase(BetKey(stake.player, stake.bet_id));
  pending_.erase(it);
  return absl::OkStatus();
}

absl::Status RouletteTableState::EndSession(const std::string& player) {
  absl::StatusOr<rl::SessionTotals> totals = engine_.Leave(player);
  if (!totals.ok() && !absl::IsNotFound(totals.status())) {
    return totals.status();
  }
  last_left_ = SummaryFor(player);
  if (totals.ok()) {
    last_left_.set_rounds(totals->rounds);
    last_left_.set_total_bet_minor(totals->staked);
    last_left_.set_total_returned_minor(totals->returned);
    last_left_.set_net_minor(totals->net);
  }
  joined_.erase(player);
  return absl::OkStatus();
}

void RouletteTableState::NoteSessions(
    const std::vector<rl::SessionNotice>& notices) {
  for (const rl::SessionNotice& n : notices) {
    notices_[n.player] = NoticeName(n.kind);
    // RFD-32: the session ends; the player has no bets (they were idle).
    if (n.kind == rl::SessionNotice::Kind::kEnded) (void)EndSession(n.player);
  }
}

absl::Status RouletteTableState::Apply(
    const v1::BankedTableEvent& e, std::vector<v1::BankedTableEvent>* derived) {
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
    case v1::BankedTableEvent::kStakeCaptured:
    case v1::BankedTableEvent::kStakeRefused:
      status = EndStake(e, derived);
      break;
    case v1::BankedTableEvent::kWithdrawRequested: {
      const v1::BetWithdrawRequested& w = e.withdraw_requested();
      if (pending_bets_.contains(BetKey(w.player_id(), w.bet_id()))) {
        return absl::FailedPreconditionError(absl::StrCat(
            "bet ", w.bet_id(), "'s stake is still being captured"));
      }
      absl::StatusOr<rl::BetWithdrawn> off = engine_.Withdraw(
          w.player_id(), w.bet_id(),
          absl::FromUnixMicros(std::max(e.at_micros(), engine_micros_)));
      if (!off.ok()) return off.status();
      EngineTime(e.at_micros());
      requests_.erase(w.bet_id());
      absl::StatusOr<v1::LedgerTransaction> tx = VoidRefundTransaction(
          BankedBet{std::string(BankedGameName(game())), id(), off->round,
                    off->player, off->bet_id, off->stake},
          /*withdrawn=*/true);
      if (!tx.ok()) return tx.status();
      v1::BankedTableEvent money = Money(off->round, "withdrawn");
      *money.mutable_money()->add_transactions() = *std::move(tx);
      derived->push_back(std::move(money));
      break;
    }
    case v1::BankedTableEvent::kSpin: {
      if (!pending_.empty()) {
        return absl::FailedPreconditionError(
            "a stake is still being captured; the ball waits for it");
      }
      const v1::SpinRecorded& spin = e.spin();
      if (spin.round() != engine_.round()) {
        return absl::FailedPreconditionError(
            absl::StrCat("round ", spin.round(), " is not in play"));
      }
      absl::StatusOr<rl::Pocket> pocket =
          rl::ParsePocket(engine_.config().wheel, spin.number());
      if (!pocket.ok()) return pocket.status();
      absl::StatusOr<rl::SpinResult> result = engine_.Spin(
          rl::SpinOutcome{*pocket, spin.revolutions(), false},
          absl::FromUnixMicros(std::max(e.at_micros(), engine_micros_)));
      if (!result.ok()) return result.status();
      EngineTime(e.at_micros());
      if (const auto* settled = std::get_if<rl::RoundSettled>(&*result)) {
        v1::BankedTableEvent money = Money(settled->round, "settled");
        for (const rl::BetSettlement& b : settled->bets) {
          requests_.erase(b.bet_id);
          absl::StatusOr<v1::LedgerTransaction> tx = SettleTransaction(
              BankedBet{std::string(BankedGameName(game())), id(),
                        settled->round, b.player, b.bet_id, b.stake},
              b.returned);
          if (!tx.ok()) return tx.status();
          *money.mutable_money()->add_transactions() = *std::move(tx);
        }
        if (money.money().transactions_size() > 0) {
          derived->push_back(std::move(money));
        }
        NoteSessions(settled->notices);
      }
      break;
    }
    case v1::BankedTableEvent::kVoidRequested: {
      if (!pending_.empty()) {
        return absl::FailedPreconditionError(
            "a stake is still being captured; void the round once it is "
            "decided");
      }
      absl::StatusOr<rl::FailureResult> failed = engine_.Fail(
          absl::FromUnixMicros(std::max(e.at_micros(), engine_micros_)));
      if (!failed.ok()) return failed.status();
      EngineTime(e.at_micros());
      if (const auto* voided = std::get_if<rl::RoundVoided>(&*failed)) {
        v1::BankedTableEvent money = Money(voided->round, "void");
        for (const rl::BetWithdrawn& b : voided->refunds) {
          requests_.erase(b.bet_id);
          absl::StatusOr<v1::LedgerTransaction> tx = VoidRefundTransaction(
              BankedBet{std::string(BankedGameName(game())), id(), b.round,
                        b.player, b.bet_id, b.stake});
          if (!tx.ok()) return tx.status();
          *money.mutable_money()->add_transactions() = *std::move(tx);
        }
        if (money.money().transactions_size() > 0) {
          derived->push_back(std::move(money));
        }
      }
      break;
    }
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
  if (!status.ok()) return status;
  ++version_;
  return absl::OkStatus();
}

v1::BankedTableInfo RouletteTableState::Info() const {
  v1::BankedTableInfo info;
  info.set_table_id(id());
  info.set_name(created_.name());
  info.set_game(game());
  *info.mutable_roulette() = created_.roulette();
  info.set_round(engine_.round());
  info.set_players(static_cast<int32_t>(joined_.size()));
  return info;
}

v1::BankedSessionSummary RouletteTableState::SummaryFor(
    const std::string& player) const {
  v1::BankedSessionSummary s;
  s.set_table_id(id());
  s.set_player_id(player);
  if (std::optional<rl::SessionTotals> t = engine_.Totals(player)) {
    s.set_rounds(t->rounds);
    s.set_total_bet_minor(t->staked);
    s.set_total_returned_minor(t->returned);
    s.set_net_minor(t->net);
  }
  return s;
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
  v1::BankedTableView view;
  view.set_table_id(id());
  view.set_game(game());
  view.set_version(version_);
  view.set_round(engine_.round());
  view.set_joined(joined_.contains(player));
  *view.mutable_session() = SummaryFor(player);
  if (auto it = notices_.find(player); it != notices_.end()) {
    view.set_notice(it->second);
  }
  v1::RouletteView* r = view.mutable_roulette();
  r->set_phase(engine_.phase() == rl::Table::Phase::kBetting ? "BETTING"
                                                             : "SPINNING");
  if (std::optional<absl::Time> closes = engine_.BettingClosesAt()) {
    r->set_betting_closes_at_micros(absl::ToUnixMicros(*closes));
  }
  r->set_wheel(std::string(BankedGameName(game())));
  for (const rl::BetPlaced& b : engine_.BetsOf(player)) {
    if (pending_bets_.contains(BetKey(player, b.bet_id))) continue;
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

}  // namespace banca::table
