#include "libs/games/stud_no_draw/round.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/cards/evaluator.h"
#include "libs/cards/sem_descarte.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/money/money.h"

namespace banca::games::stud_no_draw {

int CardsNeeded(int seats) { return 1 + kHandSize * (seats + 1); }

absl::StatusOr<Round> Round::Open(const TableConfig& config, int64_t number) {
  RETURN_IF_ERROR(config.Validate());
  if (number < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("round number must be at least 1, got ", number));
  }
  Round r;
  r.config_ = config;
  r.number_ = number;
  r.result_.number = number;
  return r;
}

absl::Status Round::PlaceAnte(int seat, const std::string& player,
                              int64_t amount) {
  if (seat < 1 || seat > config_.seats) {
    return absl::InvalidArgumentError(
        absl::StrCat("seat must be 1..", config_.seats, ", got ", seat));
  }
  if (player.empty()) {
    return absl::InvalidArgumentError("the ante needs a player");
  }
  if (amount < config_.min_ante || amount > config_.max_ante) {
    return absl::InvalidArgumentError(
        absl::StrCat("ante must be ", config_.min_ante, "..", config_.max_ante,
                     " (SD-16), got ", amount));
  }
  if (phase_ != Phase::kBetting) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", number_, ": bets are closed (SD-14)"));
  }
  if (At(seat).ante != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("seat ", seat, " already has an ante this round"));
  }
  Seat& s = At(seat);
  s.player = player;
  s.ante = amount;
  events_.push_back(AntePlaced{seat, player, amount});
  return absl::OkStatus();
}

absl::Status Round::CheckTime(int64_t now_ms) const {
  if (now_ms < 0 || now_ms > kMaxClockMs) {
    return absl::InvalidArgumentError(
        absl::StrCat("time must be 0..", kMaxClockMs, " ms, got ", now_ms));
  }
  if (has_time_ && now_ms < now_ms_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "time went backwards: ", now_ms, " ms is before ", now_ms_, " ms"));
  }
  return absl::OkStatus();
}

absl::Status Round::Deal(const std::vector<cards::Card>& deck, int64_t now_ms) {
  if (phase_ != Phase::kBetting) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", number_, " is already dealt"));
  }
  const std::vector<int> in_round = SeatsInRound();
  if (in_round.empty()) {
    return absl::FailedPreconditionError("no ante placed: nothing to deal");
  }
  RETURN_IF_ERROR(CheckTime(now_ms));
  std::vector<int> live;
  for (int seat : in_round) {
    if (At(seat).decision == Decision::kPending) live.push_back(seat);
  }
  const int needed =
      live.empty() ? 0 : CardsNeeded(static_cast<int>(live.size()));
  if (deck.size() > static_cast<size_t>(cards::kNumCards)) {
    return absl::InvalidArgumentError(
        absl::StrCat("deck has ", deck.size(), " cards, more than 52"));
  }
  if (deck.size() < static_cast<size_t>(needed)) {
    return absl::InvalidArgumentError(
        absl::StrCat("deck has ", deck.size(), " cards; ", live.size(),
                     live.size() == 1 ? " seat" : " seats",
                     " and the bank need ", needed, " (SD-19)"));
  }
  cards::CardSet seen;
  for (cards::Card c : deck) {
    if (seen.Contains(c)) {
      return absl::InvalidArgumentError(
          absl::StrCat("deck repeats ", cards::CardToString(c)));
    }
    seen.Insert(c);
  }

  now_ms_ = now_ms;
  has_time_ = true;
  events_.push_back(BettingClosed{live, now_ms});
  phase_ = Phase::kDecisions;
  if (!live.empty()) {
    // SD-19a: deck[0] is burned, face down, and never shown (gap 8).
    size_t next = 1;
    for (int round = 0; round < kHandSize; ++round) {
      for (int seat : live) At(seat).cards[round] = deck[next++];
      bank_[round] = deck[next++];
    }
    BANCA_CHECK(next == static_cast<size_t>(needed));
    for (int seat : live) {
      Seat& s = At(seat);
      s.dealt = true;
      s.deadline_ms = now_ms + config_.decision_ms;  // SD-21
      events_.push_back(CardsDealt{seat, s.cards});
    }
    events_.push_back(BankUpCard{bank_[kHandSize - 1]});  // SD-19c
    cards_out_ = true;
  }
  FinishIfDecided();
  return absl::OkStatus();
}

absl::Status Round::CheckDeciding(int seat) const {
  if (seat < 1 || seat > config_.seats) {
    return absl::InvalidArgumentError(
        absl::StrCat("seat must be 1..", config_.seats, ", got ", seat));
  }
  if (phase_ != Phase::kDecisions) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round ", number_,
        phase_ == Phase::kBetting ? ": cards not dealt yet" : " is over"));
  }
  const Seat& s = At(seat);
  if (!s.dealt) {
    return absl::FailedPreconditionError(
        absl::StrCat("seat ", seat, " is not dealt in round ", number_));
  }
  if (s.decision != Decision::kPending) {
    return absl::FailedPreconditionError(
        absl::StrCat("seat ", seat, " already ",
                     s.decision == Decision::kFolded ? "folded" : "continued"));
  }
  return absl::OkStatus();
}

void Round::FoldSeat(int seat, FoldCause cause) {
  Seat& s = At(seat);
  BANCA_CHECK(s.decision == Decision::kPending);
  s.decision = Decision::kFolded;
  s.fold_cause = cause;
  events_.push_back(Folded{seat, cause});
}

absl::Status Round::Fold(int seat) {
  RETURN_IF_ERROR(CheckDeciding(seat));
  FoldSeat(seat, FoldCause::kPlayer);
  FinishIfDecided();
  return absl::OkStatus();
}

absl::Status Round::Continue(int seat) {
  RETURN_IF_ERROR(CheckDeciding(seat));
  Seat& s = At(seat);
  // Bounded by the config's max_ante, so it cannot overflow.
  s.bet = kBetPerAnte * s.ante;
  s.decision = Decision::kContinued;
  events_.push_back(Continued{seat, s.bet});
  FinishIfDecided();
  return absl::OkStatus();
}

absl::Status Round::Timeout(int seat, int64_t now_ms) {
  RETURN_IF_ERROR(CheckDeciding(seat));
  RETURN_IF_ERROR(CheckTime(now_ms));
  now_ms_ = now_ms;
  Seat& s = At(seat);
  if (!s.warned) {
    s.warned = true;
    s.deadline_ms = now_ms + config_.extra_ms;
    events_.push_back(DecisionWarned{seat, s.deadline_ms});
  } else {
    FoldSeat(seat, FoldCause::kTimeout);
  }
  FinishIfDecided();
  return absl::OkStatus();
}

void Round::ApplyTimers(int seat) {
  Seat& s = At(seat);
  if (!s.dealt || s.decision != Decision::kPending) return;
  if (!s.warned && now_ms_ >= s.deadline_ms) {
    // The supplementary time runs from the end of the decision time, not
    // from whenever the clock was next read.
    s.warned = true;
    s.deadline_ms += config_.extra_ms;
    events_.push_back(DecisionWarned{seat, s.deadline_ms});
  }
  if (s.warned && now_ms_ >= s.deadline_ms) FoldSeat(seat, FoldCause::kTimeout);
}

absl::Status Round::Tick(int64_t now_ms) {
  RETURN_IF_ERROR(CheckTime(now_ms));
  now_ms_ = now_ms;
  has_time_ = true;
  if (phase_ != Phase::kDecisions) return absl::OkStatus();
  for (int seat = 1; seat <= config_.seats; ++seat) ApplyTimers(seat);
  FinishIfDecided();
  return absl::OkStatus();
}

absl::Status Round::Disconnect(int seat) {
  if (seat < 1 || seat > config_.seats) {
    return absl::InvalidArgumentError(
        absl::StrCat("seat must be 1..", config_.seats, ", got ", seat));
  }
  if (phase_ == Phase::kFinished || At(seat).ante == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "seat ", seat, " has no stake in an open round ", number_));
  }
  Seat& s = At(seat);
  events_.push_back(PlayerDisconnected{seat});
  // SD-35: after the ante and before the bet the player is deemed to fold;
  // before the deal that means no cards. SD-36: after the bet it stands.
  if (s.decision == Decision::kPending) {
    FoldSeat(seat, FoldCause::kDisconnect);
    FinishIfDecided();
  }
  return absl::OkStatus();
}

absl::Status Round::Void() {
  if (phase_ == Phase::kFinished) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", number_, " is already settled"));
  }
  events_.push_back(RoundVoided{});
  Settle(/*voided=*/true);
  return absl::OkStatus();
}

void Round::FinishIfDecided() {
  if (phase_ != Phase::kDecisions) return;
  for (const Seat& s : seats_) {
    if (s.dealt && s.decision == Decision::kPending) return;
  }
  Settle(/*voided=*/false);
}

void Round::Settle(bool voided) {
  const cards::Evaluator& ev = cards::Evaluator::Get();
  RoundResult& r = result_;
  r.voided = voided;
  if (!voided && cards_out_) {
    // SD-24 reveals the bank to a player who continues; with several
    // players that waits until every decision is in (gap 10), and the
    // bank is shown even when all fold, so the round can be audited.
    r.bank_revealed = true;
    r.bank = bank_;
    r.bank_value = ev.Evaluate(bank_);
    r.bank_qualifies = cards::sem_descarte::BankQualifies(r.bank_value);
    events_.push_back(BankRevealed{bank_, r.bank_value, r.bank_qualifies});
  }
  for (int seat = 1; seat <= config_.seats; ++seat) {
    const Seat& s = At(seat);
    if (s.ante == 0) continue;
    SeatResult sr;
    sr.seat = seat;
    sr.player = s.player;
    sr.dealt = s.dealt;
    sr.decision = s.decision;
    sr.fold_cause = s.fold_cause;
    if (s.dealt) {
      sr.cards = s.cards;
      sr.value = ev.Evaluate(s.cards);
    }
    if (voided) {
      sr.settlement = SettleVoid(s.ante, s.bet);
    } else if (s.decision == Decision::kContinued) {
      // SD-27: the players' cards are turned only when the bank plays.
      if (r.bank_qualifies)
        events_.push_back(HandShown{seat, s.cards, sr.value});
      absl::StatusOr<SeatSettlement> settled =
          SettleContinued(s.ante, s.cards, bank_);
      // The config bounds the ante and the deal gave distinct cards.
      BANCA_CHECK(settled.ok());
      sr.settlement = *std::move(settled);
    } else {
      BANCA_CHECK(s.decision == Decision::kFolded);
      sr.settlement = SettleFolded(s.ante);
    }
    // Each stake the seat placed is settled once, no other.
    BANCA_CHECK(sr.settlement.ante.stake == s.ante &&
                sr.settlement.bet.stake == s.bet);
    r.staked += sr.settlement.staked();
    r.returned += sr.settlement.returned();
    r.seats.push_back(std::move(sr));
  }
  for (const SeatResult& sr : r.seats) {
    events_.push_back(SeatSettled{sr.seat, sr.player, sr.settlement});
  }
  events_.push_back(RoundFinished{r.staked, r.returned});
  phase_ = Phase::kFinished;
}

std::vector<Event> Round::EventsFor(int seat) const {
  std::vector<Event> out;
  for (const Event& e : events_) {
    if (VisibleTo(e, seat)) out.push_back(e);
  }
  return out;
}

RoundView Round::ViewFor(int viewer) const {
  RoundView v;
  v.viewer = viewer;
  v.number = number_;
  v.phase = phase_;
  v.voided = result_.voided;
  const bool bank_shown = finished() && result_.bank_revealed;
  if (cards_out_) v.bank_up = bank_[kHandSize - 1];
  if (bank_shown) v.bank = bank_;
  for (int seat = 1; seat <= config_.seats; ++seat) {
    const Seat& s = At(seat);
    if (s.ante == 0) continue;
    SeatView sv;
    sv.seat = seat;
    sv.player = s.player;
    sv.ante = s.ante;
    sv.bet = s.bet;
    sv.decision = s.decision;
    const bool turned = bank_shown && result_.bank_qualifies &&
                        s.decision == Decision::kContinued;
    if (s.dealt && (seat == viewer || turned)) sv.cards = s.cards;
    if (finished()) {
      for (const SeatResult& sr : result_.seats) {
        if (sr.seat == seat) sv.settlement = sr.settlement;
      }
    }
    v.seats.push_back(std::move(sv));
  }
  if (viewer >= 1 && viewer <= config_.seats) {
    const Seat& me = At(viewer);
    v.can_ante = phase_ == Phase::kBetting && me.ante == 0;
    const bool deciding = phase_ == Phase::kDecisions && me.dealt &&
                          me.decision == Decision::kPending;
    v.can_fold = v.can_continue = deciding;
    if (deciding) {
      v.continue_bet = kBetPerAnte * me.ante;
      v.deadline_ms = me.deadline_ms;
      v.warned = me.warned;
    }
  }
  return v;
}

std::optional<int64_t> Round::NextDeadline() const {
  std::optional<int64_t> next;
  if (phase_ != Phase::kDecisions) return next;
  for (const Seat& s : seats_) {
    if (!s.dealt || s.decision != Decision::kPending) continue;
    if (!next || s.deadline_ms < *next) next = s.deadline_ms;
  }
  return next;
}

std::vector<int> Round::SeatsInRound() const {
  std::vector<int> out;
  for (int seat = 1; seat <= config_.seats; ++seat) {
    if (At(seat).ante != 0) out.push_back(seat);
  }
  return out;
}

bool Round::HasStake(int seat) const {
  return seat >= 1 && seat <= config_.seats && At(seat).ante != 0;
}

int64_t Round::StakeOf(int seat) const {
  if (!HasStake(seat)) return 0;
  return At(seat).ante + At(seat).bet;
}

}  // namespace banca::games::stud_no_draw
