#include "libs/tables/banked_game_state.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/tables/blackjack_table_state.h"
#include "libs/tables/roulette_table_state.h"
#include "libs/tables/stud_table_state.h"
#include "libs/wire/banked_codec.h"

namespace banca::tables {

absl::StatusOr<std::unique_ptr<BankedGameState>> BankedGameState::Create(
    const v1::BankedTableCreated& created, int64_t at_micros) {
  switch (created.game()) {
    case v1::BANKED_GAME_ROULETTE_FRENCH:
    case v1::BANKED_GAME_ROULETTE_AMERICAN: {
      if (created.has_blackjack() || created.has_stud()) {
        return absl::InvalidArgumentError(
            "roulette tables take the roulette settings only");
      }
      ASSIGN_OR_RETURN(std::unique_ptr<RouletteTableState> t,
                       RouletteTableState::Create(created, at_micros));
      return std::unique_ptr<BankedGameState>(std::move(t));
    }
    case v1::BANKED_GAME_STUD_NO_DRAW: {
      if (created.has_roulette() || created.has_blackjack()) {
        return absl::InvalidArgumentError(
            "póquer sem descarte tables take the stud settings only");
      }
      ASSIGN_OR_RETURN(std::unique_ptr<StudTableState> t,
                       StudTableState::Create(created, at_micros));
      return std::unique_ptr<BankedGameState>(std::move(t));
    }
    case v1::BANKED_GAME_BLACKJACK: {
      if (created.has_roulette() || created.has_stud()) {
        return absl::InvalidArgumentError("blackjack tables take no roulette");
      }
      ASSIGN_OR_RETURN(std::unique_ptr<BlackjackTableState> t,
                       BlackjackTableState::Create(created, at_micros));
      return std::unique_ptr<BankedGameState>(std::move(t));
    }
    default:
      return absl::InvalidArgumentError(
          "game must be ROULETTE_FRENCH, ROULETTE_AMERICAN, BLACKJACK or "
          "STUD_NO_DRAW");
  }
}

absl::StatusOr<v1::BankedTableEvent> BankedGameState::ActEvent(
    const std::string&, const v1::BankedActRequest&, int64_t) const {
  return absl::FailedPreconditionError(absl::StrCat(
      ToAbsl(wire::BankedGameName(game())), " takes no decisions (Act)"));
}

absl::StatusOr<v1::BankedTableEvent> BankedGameState::LaunchEvent(
    const std::string&, int64_t, int64_t, cards::RandomSource&) const {
  return absl::FailedPreconditionError(absl::StrCat(
      ToAbsl(wire::BankedGameName(game())), " tables start on their own"));
}

v1::BankedTableView BankedGameState::ViewHeader(
    const std::string& player) const {
  v1::BankedTableView view;
  view.set_table_id(id());
  view.set_game(game());
  view.set_version(version_);
  view.set_round(round());
  view.set_joined(Joined(player));
  *view.mutable_session() = SummaryFor(player);
  if (auto it = notices_.find(player); it != notices_.end()) {
    view.set_notice(it->second);
  }
  view.set_disconnected(Joined(player) && Disconnected(player));
  return view;
}

v1::BankedTableInfo BankedGameState::InfoHeader(int players) const {
  v1::BankedTableInfo info;
  info.set_table_id(id());
  info.set_name(created_.name());
  info.set_game(game());
  info.set_round(round());
  info.set_players(players);
  return info;
}

v1::BankedSessionSummary BankedGameState::Summary(const std::string& player,
                                                  int64_t rounds,
                                                  int64_t staked,
                                                  int64_t returned) const {
  v1::BankedSessionSummary s;
  s.set_table_id(id());
  s.set_player_id(player);
  s.set_rounds(rounds);
  s.set_total_bet_minor(staked);
  s.set_total_returned_minor(returned);
  s.set_net_minor(returned - staked);
  return s;
}

settlement::BankedBet BankedGameState::Bet(int64_t round,
                                           const std::string& player,
                                           const std::string& bet_id,
                                           int64_t stake) const {
  return settlement::BankedBet{std::string(wire::BankedGameName(game())),
                               id(),
                               round,
                               player,
                               bet_id,
                               stake};
}

absl::StatusOr<v1::BankedTableEvent> BankedGameState::NewStake(
    const std::string& player, const std::string& bet_id, int64_t round,
    int64_t amount, int64_t now) const {
  if (amount <= 0) {
    return absl::InvalidArgumentError("amount_minor must be positive");
  }
  v1::BankedTableEvent e;
  e.set_table_id(id());
  e.set_at_micros(now);
  v1::StakeRequested* r = e.mutable_stake_requested();
  r->set_saga_id(sagas_.NextSagaId(id()));
  r->set_player_id(player);
  r->set_bet_id(bet_id);
  r->set_round(round);
  r->set_stake_minor(amount);
  // A round below 1 is refused by the table (Apply); the transaction needs
  // a valid one to be built.
  ASSIGN_OR_RETURN(*r->mutable_tx(),
                   settlement::StakeTransaction(Bet(std::max<int64_t>(round, 1),
                                                    player, bet_id, amount)));
  return e;
}

v1::BankedTableEvent BankedGameState::Money(int64_t round, const char* cause,
                                            int64_t at) const {
  v1::BankedTableEvent e;
  e.set_table_id(id());
  e.set_at_micros(at);
  e.mutable_money()->set_round(round);
  e.mutable_money()->set_cause(cause);
  return e;
}

void BankedGameState::NoteDealt(const v1::RoundDealt& dealt) {
  dealt_round_ = dealt.round();
  dealt_deck_ = dealt.deck();
}

void BankedGameState::RevealWhenOver(
    int64_t round, bool over, int64_t at,
    std::vector<v1::BankedTableEvent>* derived) {
  if (!over || round != dealt_round_ || revealed_round_ >= round) return;
  revealed_round_ = round;
  v1::BankedTableEvent e;
  e.set_table_id(id());
  e.set_at_micros(at);
  e.mutable_revealed()->set_round(round);
  *e.mutable_revealed()->mutable_deck() = std::move(dealt_deck_);
  dealt_deck_.Clear();
  derived->push_back(std::move(e));
}

absl::Status BankedGameState::Add(v1::BankedTableEvent& money,
                                  absl::StatusOr<v1::LedgerTransaction> tx) {
  ASSIGN_OR_RETURN(*money.mutable_money()->add_transactions(), std::move(tx));
  return absl::OkStatus();
}

absl::Status BankedGameState::PayBack(
    const StakeSagas::Stake& stake, int64_t at,
    std::vector<v1::BankedTableEvent>* derived) const {
  v1::BankedTableEvent money = Money(stake.round(), "compensation", at);
  RETURN_IF_ERROR(Add(money, settlement::VoidRefundTransaction(
                                 Bet(stake.round(), stake.player_id(),
                                     stake.bet_id(), stake.stake_minor()),
                                 /*withdrawn=*/true)));
  derived->push_back(std::move(money));
  return absl::OkStatus();
}

absl::Status BankedGameState::EndStake(
    const v1::BankedTableEvent& e, std::vector<v1::BankedTableEvent>* derived) {
  const bool captured = e.has_stake_captured();
  const std::string& saga =
      captured ? e.stake_captured().saga_id() : e.stake_refused().saga_id();
  const StakeSagas::Stake* pending = sagas_.Pending(saga);
  if (pending == nullptr) {
    // A capture after the table gave up: the stake goes back (BET_RETURNED).
    if (!captured || sagas_.TimedOut(saga) == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat("stake saga ", saga, " is not pending"));
    }
    return PayBack(*sagas_.TakeTimedOut(saga), e.at_micros(), derived);
  }
  const StakeSagas::Stake stake = *pending;
  RETURN_IF_ERROR(captured ? Captured(stake, e.at_micros(), derived)
                           : Refused(stake));
  sagas_.End(saga, !captured && e.stake_refused().timed_out());
  if (captured) {
    sagas_.NoteCaptured(saga);
  } else {
    sagas_.NoteRefused(saga, e.stake_refused().reason());
  }
  if (!sagas_.AnyFor(stake.player_id()) &&
      disconnect_after_stake_.erase(stake.player_id()) > 0) {
    return Connection(stake.player_id(), false, e.at_micros(), derived);
  }
  return absl::OkStatus();
}

absl::Status BankedGameState::ApplyConnection(
    const v1::BankedTableEvent& e, std::vector<v1::BankedTableEvent>* derived) {
  const v1::PlayerConnection& c = e.connection();
  if (!Joined(c.player_id())) {
    return absl::FailedPreconditionError(
        absl::StrCat(c.player_id(), " has no session at table ", id()));
  }
  if (c.connected() != Disconnected(c.player_id())) {
    return absl::FailedPreconditionError(
        absl::StrCat(c.player_id(), " is already ",
                     c.connected() ? "connected" : "disconnected"));
  }
  const bool deferred = c.connected()
                            ? disconnect_after_stake_.erase(c.player_id()) > 0
                            : sagas_.AnyFor(c.player_id());
  if (deferred) {
    if (!c.connected()) disconnect_after_stake_.insert(c.player_id());
  } else {
    RETURN_IF_ERROR(
        Connection(c.player_id(), c.connected(), e.at_micros(), derived));
  }
  if (c.connected()) {
    disconnected_.erase(c.player_id());
  } else {
    disconnected_.insert(c.player_id());
  }
  return absl::OkStatus();
}

absl::Status BankedGameState::ApplyLogged(const v1::BankedTableEvent& event) {
  if (event.has_money() || event.has_revealed()) return absl::OkStatus();
  std::vector<v1::BankedTableEvent> derived;  // already in the log
  return Apply(event, &derived);
}

absl::Status BankedGameState::Apply(
    const v1::BankedTableEvent& e, std::vector<v1::BankedTableEvent>* derived) {
  RETURN_IF_ERROR(e.has_stake_captured() || e.has_stake_refused()
                      ? EndStake(e, derived)
                  : e.has_connection() ? ApplyConnection(e, derived)
                                       : ApplyGame(e, derived));
  if (e.has_stake_requested()) {
    sagas_.NoteRequest(e.request_id(), e.stake_requested().saga_id());
  }
  // The engines seat a returning player connected.
  if (e.has_joined()) disconnected_.erase(e.joined().player_id());
  ++version_;
  return absl::OkStatus();
}

}  // namespace banca::tables
