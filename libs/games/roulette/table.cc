#include "libs/games/roulette/table.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/money/money.h"

namespace banca::games::roulette {
namespace {

absl::Status CheckId(std::string_view what, const std::string& id) {
  if (id.empty() || id.size() > kMaxIdLength) {
    return absl::InvalidArgumentError(absl::StrCat(
        ToAbsl(what), " must be 1..", kMaxIdLength, " characters"));
  }
  return absl::OkStatus();
}

// "straight 17", "dozen 1-12", "red".
std::string Describe(const Position& position) {
  const ChanceRules& rules = RulesOf(position.chance);
  if (rules.simple) return std::string(rules.name);
  return absl::StrCat(ToAbsl(rules.name), " ", position.numbers.ToString());
}

std::string Utc(absl::Time t) {
  return absl::FormatTime(absl::RFC3339_sec, t, absl::UTCTimeZone());
}

}  // namespace

std::string_view DirectionName(LaunchDirection direction) {
  return direction == LaunchDirection::kLeftToRight ? "left_to_right"
                                                    : "right_to_left";
}

absl::StatusOr<Table> Table::Create(const TableConfig& config,
                                    absl::Time opened_at) {
  RETURN_IF_ERROR(config.Validate());
  Table table;
  table.config_ = config;
  table.last_time_ = opened_at;
  table.OpenWindow(opened_at);
  return table;
}

void Table::OpenWindow(absl::Time now) {
  phase_ = Phase::kBetting;
  window_opened_at_ = now;
}

std::optional<absl::Time> Table::BettingClosesAt() const {
  if (config_.launch != LaunchMode::kTimedWindow) return std::nullopt;
  return window_opened_at_ + config_.betting_window;
}

absl::Status Table::CheckTime(absl::Time now) const {
  if (now < last_time_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "time went backwards: ", Utc(now), " is before ", Utc(last_time_)));
  }
  return absl::OkStatus();
}

absl::Status Table::CheckBettingOpen(absl::Time now) const {
  if (phase_ != Phase::kBetting) {
    return absl::FailedPreconditionError(
        "no more bets: the ball has been launched (RFD-14)");
  }
  if (std::optional<absl::Time> closes = BettingClosesAt();
      closes && now >= *closes) {
    // At the closing instant itself the ball is being launched (RFD-14).
    return absl::FailedPreconditionError(
        now == *closes
            ? std::string("no more bets: the betting window has just closed "
                          "(RFD-14)")
            : absl::StrCat("no more bets: the betting window closed ",
                           absl::FormatDuration(now - *closes),
                           " ago (RFD-14)"));
  }
  return absl::OkStatus();
}

absl::Status Table::CheckLimits(const PlayerState* state,
                                const std::vector<Chip>& chips) const {
  // Totals per position after this bet: what the player already has there
  // plus every chip of this bet (a call bet may put two chips on one).
  std::map<Position, int64_t> totals;
  for (const Chip& chip : chips) {
    const Chance chance = chip.position.chance;
    if (chip.amount < config_.MinBet(chance)) {
      return absl::InvalidArgumentError(absl::StrCat(
          Describe(chip.position), ": ", chip.amount,
          " is below the minimum of ", config_.MinBet(chance),
          config_.wheel == WheelKind::kFrench ? " (RFD-10)" : " (RA-10)"));
    }
    totals[chip.position] += chip.amount;
  }
  for (auto& [position, total] : totals) {
    if (state != nullptr) {
      for (const LiveBet& bet : state->bets) {
        for (const Chip& chip : bet.placed.chips) {
          if (chip.position == position) total += chip.amount;
        }
      }
    }
    const int64_t max = config_.MaxBet(position.chance);
    if (total > max) {
      return absl::InvalidArgumentError(absl::StrCat(
          Describe(position), ": ", total,
          " on the position is above the maximum of ", max,
          config_.max_per_number > 0
              ? " (the table's max_bet x the numbers covered)"
              : absl::StrCat(
                    " (RFD-11: ", RulesOf(position.chance).max_multiple,
                    " x the minimum)")));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<BetPlaced> Table::PlaceBet(const std::string& player,
                                          const std::string& bet_id,
                                          const BetRequest& request,
                                          absl::Time now) {
  RETURN_IF_ERROR(CheckId("player", player));
  RETURN_IF_ERROR(CheckId("bet id", bet_id));
  RETURN_IF_ERROR(CheckTime(now));
  RETURN_IF_ERROR(CheckBettingOpen(now));
  if (config_.players == WheelMode::kIndividual && owner_ &&
      *owner_ != player) {
    return absl::FailedPreconditionError(
        absl::StrCat("this individual wheel is ", *owner_, "'s (RF-4)"));
  }
  if (IsCallBet(request.kind) && !config_.call_bets) {
    return absl::FailedPreconditionError(
        "this table offers no call bets (RF-8)");
  }
  auto it = players_.find(player);
  PlayerState* state = it == players_.end() ? nullptr : &it->second;
  if (state == nullptr &&
      static_cast<int>(players_.size()) >= config_.max_players) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the wheel has its maximum of ", config_.max_players, " players"));
  }
  if (state != nullptr) {
    if (state->used_ids.contains(bet_id)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "bet id ", bet_id, " is already used in round ", round_));
    }
    if (static_cast<int>(state->bets.size()) >= config_.max_bets_per_player) {
      return absl::ResourceExhaustedError(
          absl::StrCat("at most ", config_.max_bets_per_player,
                       " bets per player in a round"));
    }
  }
  ASSIGN_OR_RETURN(std::vector<Chip> chips, LayOut(config_.wheel, request));
  RETURN_IF_ERROR(CheckLimits(state, chips));

  // Accepted: from here on nothing fails.
  last_time_ = now;
  if (config_.players == WheelMode::kIndividual) owner_ = player;
  PlayerState& mine = players_[player];
  mine.last_bet_at = now;
  mine.idle_rounds = 0;
  mine.notice.reset();
  BetPlaced placed{round_, player, bet_id, request.amount, std::move(chips)};
  mine.bets.push_back(LiveBet{placed, request, next_seq_++});
  mine.used_ids.insert(bet_id);
  return placed;
}

absl::StatusOr<BetWithdrawn> Table::Withdraw(const std::string& player,
                                             const std::string& bet_id,
                                             absl::Time now) {
  RETURN_IF_ERROR(CheckTime(now));
  RETURN_IF_ERROR(CheckBettingOpen(now));
  auto it = players_.find(player);
  if (it != players_.end()) {
    std::vector<LiveBet>& bets = it->second.bets;
    for (auto bet = bets.begin(); bet != bets.end(); ++bet) {
      if (bet->placed.bet_id != bet_id) continue;
      BetWithdrawn out{round_, player, bet_id, bet->placed.stake};
      bets.erase(bet);
      last_time_ = now;
      return out;
    }
  }
  return absl::NotFoundError(absl::StrCat(player.substr(0, kMaxIdLength),
                                          " has no live bet ",
                                          bet_id.substr(0, kMaxIdLength)));
}

bool Table::AnyBets() const {
  for (const auto& [name, state] : players_) {
    if (!state.bets.empty()) return true;
  }
  return false;
}

absl::StatusOr<BallLaunched> Table::Launch(absl::Time now) {
  RETURN_IF_ERROR(CheckTime(now));
  if (phase_ != Phase::kBetting) {
    return absl::FailedPreconditionError("the ball is already spinning");
  }
  if (config_.launch == LaunchMode::kTimedWindow) {
    const absl::Time closes = *BettingClosesAt();
    if (now < closes) {
      return absl::FailedPreconditionError(
          absl::StrCat("the betting window is open for another ",
                       absl::FormatDuration(closes - now), " (RFD-13)"));
    }
  } else if (!AnyBets()) {
    return absl::FailedPreconditionError(
        "the player launches the ball after betting (RFD-16); no bets");
  }
  last_time_ = now;
  phase_ = Phase::kSpinning;
  // RFD-17: alternate the direction on every launch.
  BallLaunched out{round_, attempt_,
                   launches_ % 2 == 0 ? LaunchDirection::kLeftToRight
                                      : LaunchDirection::kRightToLeft};
  ++launches_;
  return out;
}

absl::Status Table::CheckOutcome(const SpinOutcome& outcome) const {
  RETURN_IF_ERROR(CheckPocket(config_.wheel, outcome.pocket));
  if (outcome.revolutions < 0 || outcome.revolutions > kMaxRevolutions) {
    return absl::InvalidArgumentError(absl::StrCat("revolutions must be 0..",
                                                   kMaxRevolutions, ", got ",
                                                   outcome.revolutions));
  }
  return absl::OkStatus();
}

absl::StatusOr<SpinResult> Table::Stop(const SpinOutcome& outcome,
                                       absl::Time now) {
  RETURN_IF_ERROR(CheckTime(now));
  if (phase_ != Phase::kSpinning) {
    return absl::FailedPreconditionError("the ball has not been launched");
  }
  RETURN_IF_ERROR(CheckOutcome(outcome));
  last_time_ = now;
  if (outcome.interrupted) {
    return Invalidate(SpinInvalid::Reason::kInterrupted, now);
  }
  if (outcome.revolutions < kMinRevolutions) {
    return Invalidate(SpinInvalid::Reason::kTooFewRevolutions, now);
  }
  return Settle(outcome, now);
}

absl::StatusOr<SpinResult> Table::Spin(const SpinOutcome& outcome,
                                       absl::Time now) {
  // Check the outcome first so that a bad one leaves the table betting.
  RETURN_IF_ERROR(CheckTime(now));
  RETURN_IF_ERROR(CheckOutcome(outcome));
  RETURN_IF_ERROR(Launch(now).status());
  absl::StatusOr<SpinResult> result = Stop(outcome, now);
  BANCA_CHECK(result.ok());
  return result;
}

SpinInvalid Table::Invalidate(SpinInvalid::Reason reason, absl::Time now) {
  SpinInvalid out{round_, attempt_, reason};
  ++attempt_;
  OpenWindow(now);  // RFD-24: the bets stay, to keep, change or withdraw
  return out;
}

RoundSettled Table::Settle(const SpinOutcome& outcome, absl::Time now) {
  struct Ordered {
    int64_t seq;
    BetSettlement settlement;
  };
  std::vector<Ordered> all;
  RoundSettled out;
  out.round = round_;
  out.pocket = outcome.pocket;
  out.colour = ColourOf(outcome.pocket);
  out.revolutions = outcome.revolutions;
  for (auto& [name, state] : players_) {
    if (state.bets.empty()) {
      if (std::optional<SessionNotice::Kind> next = NextIdleRound(state)) {
        out.notices.push_back(SessionNotice{name, *next});
      }
      continue;
    }
    ReplayRound replay{round_, out.pocket, out.colour, {}};
    for (const LiveBet& bet : state.bets) {
      BetSettlement s{name, bet.placed.bet_id, bet.request, bet.placed.stake, 0,
                      {}};
      int64_t chip_stakes = 0;
      for (const Chip& chip : bet.placed.chips) {
        const int64_t back = ChipReturn(chip, out.pocket);
        s.chips.push_back(ChipResult{chip, back});
        s.returned += back;
        chip_stakes += chip.amount;
      }
      // The chips are the stake; what they return is never negative and
      // never more than the stake's largest multiple.
      BANCA_CHECK(chip_stakes == s.stake);
      BANCA_CHECK(s.returned >= 0 &&
                  s.returned <= kMaxReturnMultiple * s.stake);
      state.totals.staked += s.stake;
      state.totals.returned += s.returned;
      out.total_staked += s.stake;
      out.total_returned += s.returned;
      replay.bets.push_back(s);
      all.push_back(Ordered{bet.seq, std::move(s)});
    }
    state.totals.net = state.totals.returned - state.totals.staked;
    ++state.totals.rounds;
    state.replay.push_front(std::move(replay));
    while (static_cast<int>(state.replay.size()) > config_.replay_rounds) {
      state.replay.pop_back();
    }
    state.bets.clear();
  }
  // RFD-19: collect the losing bets, then pay the winners.
  std::stable_sort(all.begin(), all.end(),
                   [](const Ordered& a, const Ordered& b) {
                     const bool a_won = a.settlement.returned > 0;
                     const bool b_won = b.settlement.returned > 0;
                     if (a_won != b_won) return !a_won;
                     return a.seq < b.seq;
                   });
  // Every live bet is settled once, and the round's totals are its bets'.
  int64_t staked = 0;
  int64_t returned = 0;
  for (Ordered& o : all) {
    staked += o.settlement.stake;
    returned += o.settlement.returned;
    out.bets.push_back(std::move(o.settlement));
  }
  BANCA_CHECK(staked == out.total_staked && returned == out.total_returned);

  history_.push_front(PastNumber{round_, out.pocket, out.colour});
  while (static_cast<int>(history_.size()) > config_.history_size) {
    history_.pop_back();
  }
  for (auto& [name, state] : players_) state.used_ids.clear();
  ++round_;
  attempt_ = 1;
  OpenWindow(now);  // RFD-14/22: the next round's window
  return out;
}

absl::StatusOr<FailureResult> Table::Fail(absl::Time now) {
  RETURN_IF_ERROR(CheckTime(now));
  last_time_ = now;
  if (phase_ == Phase::kSpinning) {
    return Invalidate(SpinInvalid::Reason::kInterrupted, now);
  }
  std::vector<std::pair<int64_t, BetWithdrawn>> refunds;
  for (auto& [name, state] : players_) {
    for (const LiveBet& bet : state.bets) {
      // A refund is the whole stake, which is positive (LayOut).
      BANCA_CHECK(bet.placed.stake > 0);
      refunds.push_back({bet.seq, BetWithdrawn{round_, name, bet.placed.bet_id,
                                               bet.placed.stake}});
    }
    state.bets.clear();
    state.used_ids.clear();
  }
  std::sort(refunds.begin(), refunds.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  RoundVoided out{round_, {}};
  for (auto& [seq, refund] : refunds) out.refunds.push_back(std::move(refund));
  ++round_;
  attempt_ = 1;
  OpenWindow(now);
  return out;
}

std::optional<SessionNotice::Kind> Table::NextIdleRound(PlayerState& state) {
  if (config_.players != WheelMode::kMultiPlayer || !config_.invite_inactive) {
    return std::nullopt;
  }
  // "More than 5 consecutive rounds": the 6th idle round invites, the 7th
  // warns (no bet in the round after the invitation), the 8th ends it.
  ++state.idle_rounds;
  std::optional<SessionNotice::Kind> next;
  if (!state.notice && state.idle_rounds > kIdleRoundsBeforeInvitation) {
    next = SessionNotice::Kind::kInvited;
  } else if (state.notice == SessionNotice::Kind::kInvited) {
    next = SessionNotice::Kind::kWarned;
  } else if (state.notice == SessionNotice::Kind::kWarned) {
    next = SessionNotice::Kind::kEnded;
  }
  if (next) state.notice = next;
  return next;
}

std::vector<SessionNotice> Table::CheckInactivity(absl::Time now) {
  if (config_.players != WheelMode::kIndividual || !config_.invite_inactive ||
      !owner_ || now < last_time_) {
    return {};
  }
  // Not operator[]: once the session has ended (Leave) the owner has no
  // state until they bet again, and an idle time counted from nothing
  // would invite them at once.
  auto it = players_.find(*owner_);
  if (it == players_.end()) return {};
  PlayerState& state = it->second;
  if (!state.bets.empty() || phase_ != Phase::kBetting) return {};
  const absl::Duration idle = now - state.last_bet_at;
  std::optional<SessionNotice::Kind> next;
  if (!state.notice && idle > kIdleBeforeInvitation) {
    next = SessionNotice::Kind::kInvited;
  } else if (state.notice == SessionNotice::Kind::kInvited &&
             idle > kIdleBeforeInvitation + kGraceAfterNotice) {
    next = SessionNotice::Kind::kWarned;
  } else if (state.notice == SessionNotice::Kind::kWarned &&
             idle > kIdleBeforeInvitation + 2 * kGraceAfterNotice) {
    next = SessionNotice::Kind::kEnded;
  }
  if (!next) return {};
  state.notice = next;
  return {SessionNotice{*owner_, *next}};
}

absl::StatusOr<SessionTotals> Table::Leave(const std::string& player) {
  auto it = players_.find(player);
  if (it == players_.end()) {
    return absl::NotFoundError(absl::StrCat(player.substr(0, kMaxIdLength),
                                            " has not played at this table"));
  }
  if (!it->second.bets.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        player.substr(0, kMaxIdLength),
        " has bets on the table: withdraw them or wait for the spin"));
  }
  SessionTotals totals = it->second.totals;
  players_.erase(it);
  return totals;
}

absl::Status Table::Disconnect(const std::string& player) {
  auto it = players_.find(player);
  if (it == players_.end()) {
    return absl::NotFoundError(absl::StrCat(player.substr(0, kMaxIdLength),
                                            " has not played at this table"));
  }
  it->second.connected = false;
  return absl::OkStatus();
}

absl::Status Table::Reconnect(const std::string& player) {
  auto it = players_.find(player);
  if (it == players_.end()) {
    return absl::NotFoundError(absl::StrCat(player.substr(0, kMaxIdLength),
                                            " has not played at this table"));
  }
  it->second.connected = true;
  return absl::OkStatus();
}

std::vector<BetPlaced> Table::BetsOf(const std::string& player) const {
  std::vector<BetPlaced> out;
  auto it = players_.find(player);
  if (it == players_.end()) return out;
  for (const LiveBet& bet : it->second.bets) out.push_back(bet.placed);
  return out;
}

std::vector<PastNumber> Table::History() const {
  return {history_.begin(), history_.end()};
}

std::vector<ReplayRound> Table::Replay(const std::string& player) const {
  auto it = players_.find(player);
  if (it == players_.end()) return {};
  return {it->second.replay.begin(), it->second.replay.end()};
}

std::optional<SessionTotals> Table::Totals(const std::string& player) const {
  auto it = players_.find(player);
  if (it == players_.end()) return std::nullopt;
  return it->second.totals;
}

std::optional<bool> Table::Connected(const std::string& player) const {
  auto it = players_.find(player);
  if (it == players_.end()) return std::nullopt;
  return it->second.connected;
}

std::string_view NoticeKindName(SessionNotice::Kind kind) {
  switch (kind) {
    case SessionNotice::Kind::kInvited:
      return "invited";
    case SessionNotice::Kind::kWarned:
      return "warned";
    case SessionNotice::Kind::kEnded:
      return "ended";
  }
  return "?";
}

}  // namespace banca::games::roulette
