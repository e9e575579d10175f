#include "libs/games/stud_no_draw/table.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"

namespace banca::games::stud_no_draw {
namespace {

// Bounds the text a caller can make the table keep.
constexpr size_t kMaxIdLength = 128;

}  // namespace

absl::StatusOr<Table> Table::Create(const TableConfig& config,
                                    std::string table_id) {
  RETURN_IF_ERROR(config.Validate());
  if (table_id.empty() || table_id.size() > kMaxIdLength) {
    return absl::InvalidArgumentError("table id must be 1..128 characters");
  }
  Table t;
  t.config_ = config;
  t.table_id_ = std::move(table_id);
  return t;
}

absl::Status Table::CheckTime(int64_t now_ms) const {
  if (now_ms < now_ms_ || now_ms > kMaxClockMs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "time must be ", now_ms_, "..", kMaxClockMs, " ms, got ", now_ms));
  }
  return absl::OkStatus();
}

absl::StatusOr<int> Table::SeatFor(const std::string& player) const {
  auto it = seat_of_.find(player);
  if (it == seat_of_.end()) {
    return absl::NotFoundError(absl::StrCat(player, " is not seated"));
  }
  return it->second;
}

std::optional<int> Table::SeatOf(const std::string& player) const {
  auto it = seat_of_.find(player);
  if (it == seat_of_.end()) return std::nullopt;
  return it->second;
}

absl::Status Table::Sit(const std::string& player, int seat, int64_t now_ms) {
  if (player.empty() || player.size() > kMaxIdLength) {
    return absl::InvalidArgumentError("player id must be 1..128 characters");
  }
  if (seat < 1 || seat > config_.seats) {
    return absl::InvalidArgumentError(absl::StrCat(
        "seat must be 1..", config_.seats, " (SD-6a), got ", seat));
  }
  RETURN_IF_ERROR(CheckTime(now_ms));
  if (seat_of_.contains(player)) {
    return absl::FailedPreconditionError(
        absl::StrCat(player, " is already at seat ", seat_of_[player]));
  }
  if (seats_[seat - 1]) {
    return absl::FailedPreconditionError(
        absl::StrCat("seat ", seat, " is taken"));
  }
  now_ms_ = now_ms;
  Occupant o;
  o.player = player;
  o.last_bet_ms = now_ms;
  seats_[seat - 1] = std::move(o);
  seat_of_[player] = seat;
  events_.push_back(PlayerSat{player, seat});
  return absl::OkStatus();
}

void Table::EndSession(int seat, LeaveReason reason) {
  Occupant& o = *seats_[seat - 1];
  events_.push_back(PlayerLeft{o.player, seat, reason, o.summary});
  seat_of_.erase(o.player);
  seats_[seat - 1].reset();
}

absl::StatusOr<PlayerLeft> Table::Leave(const std::string& player) {
  ASSIGN_OR_RETURN(int seat, SeatFor(player));
  if (round_open() && round_->HasStake(seat)) {
    return absl::FailedPreconditionError(
        absl::StrCat(player, " has a stake in round ", round_->number(),
                     "; the session ends after it is settled"));
  }
  EndSession(seat, LeaveReason::kPlayer);
  return std::get<PlayerLeft>(events_.back());
}

absl::Status Table::PlaceAnte(const std::string& player, int64_t amount,
                              int64_t now_ms) {
  ASSIGN_OR_RETURN(int seat, SeatFor(player));
  RETURN_IF_ERROR(CheckTime(now_ms));
  if (!seats_[seat - 1]->connected) {
    return absl::FailedPreconditionError(
        absl::StrCat(player, " is disconnected"));
  }
  if (round_open() && round_->phase() != Phase::kBetting) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", round_->number(), ": bets are closed (SD-14)"));
  }
  std::optional<Round> fresh;
  Round* r = round_open() ? &*round_ : nullptr;
  if (r == nullptr) {
    absl::StatusOr<Round> opened = Round::Open(config_, rounds_ + 1);
    BANCA_CHECK(opened.ok());  // The config was validated by Create.
    fresh = *std::move(opened);
    r = &*fresh;
  }
  RETURN_IF_ERROR(r->PlaceAnte(seat, player, amount));
  // Only a valid ante opens the round: a rejected one leaves no trace.
  if (fresh) {
    round_ = *std::move(fresh);
    round_accounted_ = false;
    ++rounds_;
  }
  now_ms_ = now_ms;
  Occupant& o = *seats_[seat - 1];
  o.last_bet_ms = now_ms;
  o.idle_rounds = 0;
  o.invited = false;
  return absl::OkStatus();
}

absl::Status Table::Deal(const std::vector<cards::Card>& deck, int64_t now_ms) {
  if (!round_open()) {
    return absl::FailedPreconditionError("no round is taking bets");
  }
  RETURN_IF_ERROR(CheckTime(now_ms));
  RETURN_IF_ERROR(round_->Deal(deck, now_ms));
  now_ms_ = now_ms;
  AfterRoundStep();
  return absl::OkStatus();
}

absl::Status Table::Fold(const std::string& player) {
  ASSIGN_OR_RETURN(int seat, SeatFor(player));
  if (!round_) return absl::FailedPreconditionError("no round has started");
  RETURN_IF_ERROR(round_->Fold(seat));
  AfterRoundStep();
  return absl::OkStatus();
}

absl::Status Table::Continue(const std::string& player) {
  ASSIGN_OR_RETURN(int seat, SeatFor(player));
  if (!round_) return absl::FailedPreconditionError("no round has started");
  RETURN_IF_ERROR(round_->Continue(seat));
  AfterRoundStep();
  return absl::OkStatus();
}

absl::Status Table::Timeout(const std::string& player, int64_t now_ms) {
  ASSIGN_OR_RETURN(int seat, SeatFor(player));
  if (!round_) return absl::FailedPreconditionError("no round has started");
  RETURN_IF_ERROR(CheckTime(now_ms));
  RETURN_IF_ERROR(round_->Timeout(seat, now_ms));
  now_ms_ = now_ms;
  AfterRoundStep();
  return absl::OkStatus();
}

absl::Status Table::Tick(int64_t now_ms) {
  RETURN_IF_ERROR(CheckTime(now_ms));
  if (round_open()) {
    RETURN_IF_ERROR(round_->Tick(now_ms));
  }
  now_ms_ = now_ms;
  AfterRoundStep();
  if (!config_.individual()) return absl::OkStatus();
  // SD-41a/42a: "more than 3 minutes" without a bet, then one more minute.
  for (int seat = 1; seat <= config_.seats; ++seat) {
    if (!seats_[seat - 1]) continue;
    Occupant& o = *seats_[seat - 1];
    if (round_open() && round_->HasStake(seat)) continue;
    if (!o.invited && now_ms - o.last_bet_ms > config_.idle_invite_ms) {
      o.invited = true;
      o.end_at_ms = now_ms + config_.session_grace_ms;
      events_.push_back(SessionEndInvited{o.player, o.end_at_ms});
    } else if (o.invited && now_ms >= o.end_at_ms) {
      EndSession(seat, LeaveReason::kInactive);
    }
  }
  return absl::OkStatus();
}

absl::Status Table::Disconnect(const std::string& player) {
  ASSIGN_OR_RETURN(int seat, SeatFor(player));
  Occupant& o = *seats_[seat - 1];
  if (!o.connected) {
    return absl::FailedPreconditionError(
        absl::StrCat(player, " is already disconnected"));
  }
  if (round_open() && round_->HasStake(seat)) {
    BANCA_CHECK(round_->Disconnect(seat).ok());
  }
  o.connected = false;
  events_.push_back(ConnectionChanged{player, false});
  AfterRoundStep();
  return absl::OkStatus();
}

absl::Status Table::Reconnect(const std::string& player) {
  ASSIGN_OR_RETURN(int seat, SeatFor(player));
  Occupant& o = *seats_[seat - 1];
  if (o.connected) {
    return absl::FailedPreconditionError(absl::StrCat(player, " is connected"));
  }
  o.connected = true;
  events_.push_back(ConnectionChanged{player, true});
  return absl::OkStatus();
}

absl::Status Table::Void() {
  if (!round_open()) return absl::FailedPreconditionError("no round is open");
  BANCA_CHECK(round_->Void().ok());
  AfterRoundStep();
  return absl::OkStatus();
}

void Table::AfterRoundStep() {
  if (!round_ || !round_->finished() || round_accounted_) return;
  round_accounted_ = true;
  const RoundResult& r = round_->result();
  for (const SeatResult& sr : r.seats) {
    if (!seats_[sr.seat - 1]) continue;  // Cannot happen: staked players stay.
    Occupant& o = *seats_[sr.seat - 1];
    BANCA_CHECK(o.player == sr.player);
    ++o.summary.rounds;
    o.summary.staked += sr.settlement.staked();
    o.summary.returned += sr.settlement.returned();
    o.last =
        LastRound{r.number, r.voided, sr,
                  r.bank_revealed ? std::optional<Hand>(r.bank) : std::nullopt,
                  r.bank_qualifies};
  }
  if (config_.individual()) return;
  // SD-41b/42b: "more than 5 consecutive rounds" without a bet invites
  // (with the warning); one more such round ends the session.
  for (int seat = 1; seat <= config_.seats; ++seat) {
    if (!seats_[seat - 1] || round_->HasStake(seat)) continue;
    Occupant& o = *seats_[seat - 1];
    ++o.idle_rounds;
    if (o.invited) {
      EndSession(seat, LeaveReason::kInactive);
    } else if (o.idle_rounds > config_.idle_invite_rounds) {
      o.invited = true;
      events_.push_back(SessionEndInvited{o.player, 0});
    }
  }
}

std::optional<LastRound> Table::LastRoundOf(const std::string& player) const {
  std::optional<int> seat = SeatOf(player);
  if (!seat) return std::nullopt;
  return seats_[*seat - 1]->last;
}

std::optional<SessionSummary> Table::SessionOf(
    const std::string& player) const {
  std::optional<int> seat = SeatOf(player);
  if (!seat) return std::nullopt;
  return seats_[*seat - 1]->summary;
}

}  // namespace banca::games::stud_no_draw
