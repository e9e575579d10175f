// The director's registration, money, time, cancellation and queries; the
// seats and tables, the hands, and the eliminations, places and prizes
// are in director_seats.cc, director_hands.cc and director_places.cc.
#include "libs/games/tournament/director.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/cancellation.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/seat_draw.h"
#include "libs/ledger/account.h"

namespace banca::games::tournament {
namespace {

absl::Status Closed(std::string_view what, int level) {
  return absl::FailedPreconditionError(
      absl::StrCat(ToAbsl(what), " closed after level ", level, " (TN-23)"));
}

}  // namespace

std::string_view PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kRegistering:
      return "registering";
    case Phase::kRunning:
      return "running";
    case Phase::kFinished:
      return "finished";
    case Phase::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

absl::StatusOr<Director> Director::Create(std::string id,
                                          TournamentConfig config,
                                          DrawSource draw) {
  if (!ledger::IsValidId(id)) {
    return absl::InvalidArgumentError(
        "id: a tournament id is 1-64 of [A-Za-z0-9_.-]");
  }
  RETURN_IF_ERROR(CheckConfig(config));
  BANCA_CHECK(draw != nullptr);
  Director d;
  d.id_ = std::move(id);
  d.config_ = std::move(config);
  d.draw_ = std::move(draw);
  return d;
}

// --- Registration -------------------------------------------------------

absl::StatusOr<PaymentSplit> Director::Split(PaymentKind kind) const {
  switch (kind) {
    case PaymentKind::kBuyIn:
    case PaymentKind::kReentry:
      if (config_.kind == TournamentKind::kFreeroll) return PaymentSplit{};
      return SplitPayment(kind, config_.buy_in, config_.fee_bps,
                          config_.bounty);
    case PaymentKind::kRebuy:
      return SplitPayment(kind, config_.rebuy->price, config_.rebuy->fee_bps,
                          0);
    case PaymentKind::kAddOn:
      return SplitPayment(kind, config_.addon->price, config_.addon->fee_bps,
                          0);
  }
  return absl::InternalError("unknown payment kind");
}

MoneyMove Director::MakePaymentMove(const std::string& player, int entry,
                                    MoveKind kind, const PaymentSplit& split,
                                    Source source) const {
  MoneyMove move{kind, player, entry, {}, ""};
  AddPosting(move,
             source == Source::kTicket ? TicketAccount(id_, player)
                                       : CashAccount(player),
             -split.amount());
  AddPosting(move, PrizePoolAccount(id_), split.prize_part);
  AddPosting(move, std::string(kFeesAccount), split.fee);
  AddPosting(move, BountiesAccount(id_), split.bounty);
  move.memo = absl::StrCat(
      ToAbsl(MoveKindName(kind)), " ", split.amount(), " = ", split.prize_part,
      " prize pool + ", split.fee, " fee",
      split.bounty > 0 ? absl::StrCat(" + ", split.bounty, " bounty") : "",
      source == Source::kTicket ? " (ticket)" : "");
  return move;
}

void Director::Pay(const std::string& player, int entry, MoveKind kind,
                   const PaymentSplit& split, Source source) {
  BANCA_CHECK(split.prize_part >= 0 && split.fee >= 0 && split.bounty >= 0);
  collected_ += split.prize_part;
  if (split.amount() == 0) return;  // a freeroll's entry moves nothing
  moves_.push_back(MakePaymentMove(player, entry, kind, split, source));
}

absl::StatusOr<std::optional<MoneyMove>> Director::Quote(
    const std::string& player, PaymentKind kind, Source source) const {
  MoveKind move = MoveKind::kBuyIn;
  switch (kind) {
    case PaymentKind::kBuyIn:
      RETURN_IF_ERROR(CheckCanRegister(player));
      if (source == Source::kTicket &&
          config_.kind == TournamentKind::kFreeroll) {
        return absl::InvalidArgumentError(
            "a freeroll's entry is free: no ticket");
      }
      break;
    case PaymentKind::kReentry:
      RETURN_IF_ERROR(CheckReentry(player));
      move = MoveKind::kReentry;
      break;
    case PaymentKind::kRebuy:
      RETURN_IF_ERROR(CheckChipPurchase(player, config_.rebuy, false));
      move = MoveKind::kRebuy;
      break;
    case PaymentKind::kAddOn:
      RETURN_IF_ERROR(CheckChipPurchase(player, config_.addon, true));
      move = MoveKind::kAddOn;
      break;
  }
  if (source == Source::kTicket && kind != PaymentKind::kBuyIn) {
    return absl::InvalidArgumentError("a ticket pays a buy-in only (TN-16)");
  }
  ASSIGN_OR_RETURN(PaymentSplit split, Split(kind));
  if (split.amount() == 0) return std::nullopt;
  return MakePaymentMove(player, 0, move, split, source);
}

absl::StatusOr<MoneyMove> Director::QuoteTicketCashOut(
    const std::string& player) const {
  const bool won_before =
      std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) {
        return e.player == player && !e.payments.empty() &&
               e.payments.front().source == Source::kTicket;
      });
  if (!won_before) {
    return absl::FailedPreconditionError(
        "TN-29: an entry won converts to cash only when you already won an "
        "entry to this tournament: enter it with a ticket first");
  }
  ASSIGN_OR_RETURN(PaymentSplit split, Split(PaymentKind::kBuyIn));
  if (split.amount() == 0) {
    return absl::FailedPreconditionError(
        "an entry to this tournament costs nothing: no ticket converts");
  }
  MoneyMove move{MoveKind::kTicketCashOut, player, 0, {}, ""};
  AddPosting(move, TicketAccount(id_, player), -split.amount());
  AddPosting(move, CashAccount(player), split.amount());
  move.memo = absl::StrCat("TN-29: an entry won (", split.amount(),
                           ") converted to cash");
  return move;
}

int Director::NewEntry(const std::string& player, const PaymentSplit& split,
                       PaymentKind kind, Source source) {
  Entry e;
  e.player = player;
  e.payments.push_back(Payment{kind, split, source});
  e.active = phase_ == Phase::kRunning;
  entries_.push_back(std::move(e));
  const int index = static_cast<int>(entries_.size()) - 1;
  PlayerState& p = players_[player];
  BANCA_CHECK(p.live_entry < 0);  // one live entry (TN-19)
  p.live_entry = index;
  ++live_players_;
  p.rebuys = 0;
  p.addons = 0;
  p.busted.reset();
  out_of_chips_.erase(player);
  Pay(player, index + 1,
      kind == PaymentKind::kBuyIn ? MoveKind::kBuyIn : MoveKind::kReentry,
      split, source);
  return index;
}

absl::Status Director::CheckCanRegister(const std::string& player) const {
  if (!ledger::IsValidId(player)) {
    return absl::InvalidArgumentError(
        "player: a player id is 1-64 of [A-Za-z0-9_.-]");
  }
  if (phase_ == Phase::kFinished || phase_ == Phase::kCancelled) {
    return absl::FailedPreconditionError(
        absl::StrCat("the tournament is ", ToAbsl(PhaseName(phase_))));
  }
  if (phase_ == Phase::kRunning &&
      level_ + 1 > config_.late_registration_level) {
    return config_.late_registration_level == 0
               ? absl::FailedPreconditionError(
                     "registration closed at the start (no late "
                     "registration)")
               : Closed("registration", config_.late_registration_level);
  }
  auto it = players_.find(player);
  if (it != players_.end()) {
    return it->second.live_entry >= 0
               ? absl::AlreadyExistsError(absl::StrCat(
                     player, " is already registered (TN-19: one entry)"))
               : absl::FailedPreconditionError(
                     absl::StrCat(player,
                                  " was eliminated: only a reentry brings them "
                                  "back (TN-2k)"));
  }
  if (static_cast<int>(players_.size()) >= config_.max_players) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the tournament is full (", config_.max_players, " players, TN-7i)"));
  }
  return absl::OkStatus();
}

absl::Status Director::Register(const std::string& player, Source source) {
  RETURN_IF_ERROR(CheckCanRegister(player));
  if (source == Source::kTicket && config_.kind == TournamentKind::kFreeroll) {
    return absl::InvalidArgumentError("a freeroll's entry is free: no ticket");
  }
  ASSIGN_OR_RETURN(PaymentSplit split, Split(PaymentKind::kBuyIn));
  NewEntry(player, split, PaymentKind::kBuyIn, source);
  notices_.push_back(absl::StrCat("Registered player=", player));
  if (phase_ == Phase::kRunning) {
    players_[player].chips = config_.starting_chips;
    SeatByDraw(player);
  }
  return absl::OkStatus();
}

absl::Status Director::Unregister(const std::string& player) {
  auto it = players_.find(player);
  if (it == players_.end() || it->second.live_entry < 0) {
    return absl::NotFoundError(absl::StrCat(player, " is not registered"));
  }
  if (phase_ != Phase::kRegistering) {
    return absl::FailedPreconditionError(
        "unregistering is only before the start (TN-24)");
  }
  const int index = it->second.live_entry;
  ASSIGN_OR_RETURN(Cancellation c, tournament::Unregister(entries_[index]));
  const PaymentSplit& split = entries_[index].payments[0].split;
  if (!c.refunds.empty()) {
    MoneyMove move{MoveKind::kUnregister, player, index + 1, {}, ""};
    AddPosting(move, PrizePoolAccount(id_), -split.prize_part);
    AddPosting(move, std::string(kFeesAccount), -split.fee);
    AddPosting(move, BountiesAccount(id_), -split.bounty);
    AddPosting(move,
               c.refunds[0].form == RefundForm::kTicketCredit
                   ? TicketAccount(id_, player)
                   : CashAccount(player),
               c.refunds[0].amount);
    move.memo = absl::StrCat("unregistered: the buy-in ", c.refunds[0].amount,
                             " back in full (TN-25)");
    moves_.push_back(std::move(move));
  }
  collected_ -= split.prize_part;
  entries_.erase(entries_.begin() + index);
  players_.erase(it);
  --live_players_;
  for (auto& [id, p] : players_) {
    if (p.live_entry > index) --p.live_entry;
  }
  notices_.push_back(absl::StrCat("Unregistered player=", player));
  return absl::OkStatus();
}

absl::Status Director::StartWithDraw() {
  std::vector<std::string> entrants;
  for (const Entry& e : entries_) entrants.push_back(e.player);
  std::vector<int> permutation(entrants.size());
  std::iota(permutation.begin(), permutation.end(), 0);
  for (int i = static_cast<int>(permutation.size()) - 1; i > 0; --i) {
    std::swap(permutation[i], permutation[draw_(i + 1)]);
  }
  if (entrants.size() < 2) {
    return absl::FailedPreconditionError(
        absl::StrCat(entrants.size(), " registered: fewer than min_players (",
                     config_.min_players, ", TN-7h)"));
  }
  if (config_.seats_per_table == 2 && entrants.size() % 2 == 1) {
    return absl::FailedPreconditionError(absl::StrCat(
        entrants.size(),
        " registered at heads-up tables: one would sit alone; an even "
        "field is needed"));
  }
  ASSIGN_OR_RETURN(std::vector<TournamentTable> drawn,
                   DrawSeats(entrants, config_.seats_per_table, permutation));
  std::vector<StartTable> tables;
  for (const TournamentTable& t : drawn) {
    StartTable s;
    s.name = absl::StrCat("t", t.number);
    std::vector<int> occupied;
    for (size_t i = 0; i < t.seats.size(); ++i) {
      if (t.seats[i].empty()) continue;
      s.seats[t.seats[i]] = static_cast<int>(i) + 1;
      occupied.push_back(static_cast<int>(i) + 1);
    }
    s.button = occupied[draw_(static_cast<int>(occupied.size()))];
    tables.push_back(std::move(s));
  }
  return Start(tables);
}

// --- Chips bought -------------------------------------------------------

absl::Status Director::CheckChipPurchase(
    const std::string& player, const std::optional<ChipPurchase>& offer,
    bool addon) const {
  const char* what = addon ? "add-on" : "rebuy";
  if (!offer) {
    return absl::FailedPreconditionError(absl::StrCat(
        "this tournament has no ", what,
        config_.kind == TournamentKind::kSitAndGo ? " (a sit and go, TN-2r)"
                                                  : ""));
  }
  if (phase_ != Phase::kRunning) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a ", what, " is bought while the tournament runs, not when ",
        ToAbsl(PhaseName(phase_))));
  }
  if (addon && level_ + 1 < offer->until_level) {
    return absl::FailedPreconditionError(
        absl::StrCat("the add-on is offered at the end of the rebuy period, "
                     "in level ",
                     offer->until_level, " (TN-2a), not before"));
  }
  if (level_ + 1 > offer->until_level) {
    return Closed(addon ? "add-ons" : "rebuys", offer->until_level);
  }
  auto it = players_.find(player);
  if (it == players_.end() || it->second.live_entry < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(player, " is not in play"));
  }
  const PlayerState& p = it->second;
  if ((addon ? p.addons : p.rebuys) >= offer->max) {
    return absl::FailedPreconditionError(absl::StrCat(
        player, " has made the most ", what, "s allowed (", offer->max, ")"));
  }
  if (!addon && p.chips > config_.starting_chips) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a rebuy is only at or below the starting stack (",
        config_.starting_chips, " chips, TN-2j); ", player, " has ", p.chips));
  }
  auto t = tables_.find(p.table);
  if (t != tables_.end() && t->second.hand && !t->second.hand->finished() &&
      t->second.hand->dealt_in(p.seat)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "chips are bought between hands: ", player, " is in a hand"));
  }
  return absl::OkStatus();
}

void Director::BuyChips(const std::string& player, const ChipPurchase& offer,
                        PaymentKind kind) {
  PlayerState& p = players_[player];
  absl::StatusOr<PaymentSplit> split = Split(kind);
  BANCA_CHECK(split.ok());  // the configuration was checked
  entries_[p.live_entry].payments.push_back(
      Payment{kind, *split, Source::kCash});
  Pay(player, p.live_entry + 1,
      kind == PaymentKind::kRebuy ? MoveKind::kRebuy : MoveKind::kAddOn, *split,
      Source::kCash);
  BANCA_CHECK(p.chips <= kMaxChips - offer.chips);
  p.chips += offer.chips;
  p.busted.reset();
  out_of_chips_.erase(player);
  ++(kind == PaymentKind::kRebuy ? p.rebuys : p.addons);
  notices_.push_back(absl::StrCat(ToAbsl(PaymentKindName(kind)),
                                  " player=", player, " chips=", offer.chips,
                                  " stack=", p.chips));
}

absl::Status Director::Rebuy(const std::string& player) {
  RETURN_IF_ERROR(CheckChipPurchase(player, config_.rebuy, false));
  BuyChips(player, *config_.rebuy, PaymentKind::kRebuy);
  return absl::OkStatus();
}

absl::Status Director::AddOn(const std::string& player) {
  RETURN_IF_ERROR(CheckChipPurchase(player, config_.addon, true));
  BuyChips(player, *config_.addon, PaymentKind::kAddOn);
  return absl::OkStatus();
}

absl::Status Director::CheckReentry(const std::string& player) const {
  if (!config_.reentry) {
    return absl::FailedPreconditionError(absl::StrCat(
        "this tournament has no reentry",
        config_.kind == TournamentKind::kSitAndGo ? " (a sit and go, TN-2r)"
                                                  : ""));
  }
  if (phase_ != Phase::kRunning) {
    return absl::FailedPreconditionError(
        absl::StrCat("a reentry is made while the tournament runs, not when ",
                     ToAbsl(PhaseName(phase_))));
  }
  if (level_ + 1 > config_.reentry->until_level) {
    return Closed("reentries", config_.reentry->until_level);
  }
  auto it = players_.find(player);
  if (it == players_.end()) {
    return absl::FailedPreconditionError(
        absl::StrCat(player, " has not played this tournament: register"));
  }
  if (it->second.live_entry >= 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(player,
                     " is still in play: a reentry follows an elimination "
                     "(TN-2k, TN-19)"));
  }
  if (it->second.reentries >= config_.reentry->max) {
    return absl::FailedPreconditionError(
        absl::StrCat(player, " has made the most reentries allowed (",
                     config_.reentry->max, ")"));
  }
  return absl::OkStatus();
}

absl::Status Director::Reentry(const std::string& player) {
  RETURN_IF_ERROR(CheckReentry(player));
  ASSIGN_OR_RETURN(PaymentSplit split, Split(PaymentKind::kReentry));
  // The eliminated entry's finish gives way to the new entry's.
  for (auto g = groups_.begin(); g != groups_.end(); ++g) {
    auto& busts = g->busts;
    busts.erase(std::remove_if(busts.begin(), busts.end(),
                               [&](const SameHandBust& b) {
                                 return b.seat.player == player;
                               }),
                busts.end());
    if (busts.empty()) {
      groups_.erase(g);
      break;
    }
  }
  NewEntry(player, split, PaymentKind::kReentry, Source::kCash);
  PlayerState& p = players_[player];
  ++p.reentries;
  p.chips = config_.starting_chips;
  notices_.push_back(absl::StrCat("Reentered player=", player));
  SeatByDraw(player);
  return absl::OkStatus();
}

// --- Time ---------------------------------------------------------------

absl::Status Director::NextLevel() {
  if (phase_ != Phase::kRunning) {
    return absl::FailedPreconditionError(
        absl::StrCat("levels run while the tournament runs, not when ",
                     ToAbsl(PhaseName(phase_))));
  }
  if (level_ + 1 < static_cast<int>(config_.levels.size())) {
    ++level_;
    const BlindLevel& l = config_.levels[level_];
    notices_.push_back(absl::StrCat("LevelStarted level=", level_ + 1,
                                    " small_blind=", l.small_blind,
                                    " big_blind=", l.big_blind));
  } else if (config_.kind == TournamentKind::kTimed && !time_over_) {
    // TN-52: one more orbit at every table.
    time_over_ = true;
    for (auto& [name, t] : tables_) {
      for (const std::string& p : t.seats) {
        if (!p.empty() && players_.at(p).chips > 0) t.orbit_left.insert(p);
      }
    }
    notices_.push_back("TimeUp: every table plays one more orbit (TN-52)");
  } else {
    return absl::FailedPreconditionError(absl::StrCat(
        "level ", level_ + 1, " is the last: it lasts until the end"));
  }
  EliminatePending("", /*only_without_offer=*/true);
  MaybeFixPrizes();
  if (!AnyHandInProgress()) FlushBusts();
  MaybeFinish();
  if (phase_ == Phase::kRunning) Rebalance();
  return absl::OkStatus();
}

// --- Cancellation -------------------------------------------------------

absl::Status Director::Cancel() {
  if (phase_ == Phase::kFinished || phase_ == Phase::kCancelled) {
    return absl::FailedPreconditionError(absl::StrCat("a ",
                                                      ToAbsl(PhaseName(phase_)),
                                                      " tournament cannot be "
                                                      "cancelled"));
  }
  absl::StatusOr<Cancellation> c;
  if (phase_ == Phase::kRegistering) {
    if (entries_.empty()) {
      phase_ = Phase::kCancelled;
      notices_.push_back("Cancelled before the start: no entries");
      return absl::OkStatus();
    }
    c = CancelBeforeStart(entries_);
  } else {
    // Hands in progress are void (HE-72): every stack as it began.
    for (auto& [name, t] : tables_) {
      if (t.hand && !t.hand->finished()) {
        BANCA_CHECK(t.hand->Void().ok());
        ++t.hands;  // played, void: HandAt shows it
        --hands_in_progress_;
      }
    }
    // Out of chips with a rebuy still open: out, their bounty paid (by
    // name; Bust takes them off the set).
    for (const std::string& id : std::set<std::string>(out_of_chips_)) {
      const PendingBust bust = *players_.at(id).busted;
      Bust(bust);
    }
    std::vector<Entry> entries = entries_;
    for (auto& [id, p] : players_) {
      if (p.live_entry < 0) continue;
      Entry& e = entries[p.live_entry];
      e.active = true;
      e.chips = p.chips;
      e.seat = tables_.at(p.table).number * 100 + p.seat;
    }
    for (Entry& e : entries) {
      if (e.chips == 0) e.active = false;
    }
    c = CancelAfterStart(entries, prizes_credited_, overlay_);
  }
  RETURN_IF_ERROR(Prefixed(c.status(), "cancel: "));
  // One transaction per player, each posting from where its money lies
  // (an entry's parts from the pool, the fees and the bounties; a share
  // from the pool), and one for the overlay given back, so that every
  // movement names its source (libs/ledger/posting_rules.h).
  std::map<std::string, MoneyMove> by_player;
  int64_t from_pool = 0, from_fees = 0, from_bounties = 0;
  for (const Refund& r : c->refunds) {
    MoneyMove& move = by_player[r.player];
    move.kind = MoveKind::kCancelRefund;
    move.player = r.player;
    if (r.reason == RefundReason::kEntry) {
      const int entry = players_.at(r.player).live_entry;
      const PaymentSplit& split = entries_[entry].payments[0].split;
      BANCA_CHECK(split.amount() == r.amount);
      AddPosting(move, PrizePoolAccount(id_), -split.prize_part);
      AddPosting(move, std::string(kFeesAccount), -split.fee);
      AddPosting(move, BountiesAccount(id_), -split.bounty);
      from_pool += split.prize_part;
      from_fees += split.fee;
      from_bounties += split.bounty;
      move.entry = entry + 1;
    } else {
      AddPosting(move, PrizePoolAccount(id_), -r.amount);
      from_pool += r.amount;
    }
    AddPosting(move,
               r.form == RefundForm::kTicketCredit
                   ? TicketAccount(id_, r.player)
                   : CashAccount(r.player),
               r.amount);
  }
  BANCA_CHECK(from_pool == c->from_pool && from_fees == c->from_fees &&
              from_bounties == c->from_bounties);
  const std::string why = absl::StrCat(
      "cancelled (TN-36", phase_ == Phase::kRegistering ? "a" : "b/c", ")");
  for (auto& [player, move] : by_player) {
    move.memo = absl::StrCat(why, ": ", player, "'s refund");
    moves_.push_back(std::move(move));
  }
  if (c->overlay_returned > 0) {
    MoneyMove back{MoveKind::kCancelRefund, "", 0, {}, ""};
    AddPosting(back, PrizePoolAccount(id_), -c->overlay_returned);
    AddPosting(back, std::string(kOverlayAccount), c->overlay_returned);
    back.memo = absl::StrCat(why, ": the overlay back to the house (TN-7m)");
    moves_.push_back(std::move(back));
  }
  // The refunds and the overlay given back are out of the pool: what it
  // paid is the prizes already credited (0 before the start).
  collected_ -= c->from_pool;
  overlay_ -= c->overlay_returned;
  BANCA_CHECK(prize_pool() == prizes_credited_);
  phase_ = Phase::kCancelled;
  notices_.push_back(absl::StrCat("Cancelled pool_shared=", c->pool_shared,
                                  " fees_kept=", c->fees_kept));
  return absl::OkStatus();
}

// --- Outputs and queries ------------------------------------------------

std::vector<MoneyMove> Director::TakeMoves() {
  return std::exchange(moves_, {});
}

std::vector<std::string> Director::TakeNotices() {
  return std::exchange(notices_, {});
}

int64_t Director::Stack(const std::string& player) const {
  auto it = players_.find(player);
  if (it == players_.end() || it->second.live_entry < 0) return 0;
  const PlayerState& p = it->second;
  auto t = tables_.find(p.table);
  if (t != tables_.end() && t->second.hand && !t->second.hand->finished() &&
      t->second.hand->dealt_in(p.seat)) {
    for (const poker::PlayerView& v : t->second.hand->ViewFor(0).players) {
      if (v.seat == p.seat) return v.stack;
    }
  }
  return p.chips;
}

bool Director::InHand(const std::string& player) const {
  auto it = players_.find(player);
  if (it == players_.end() || it->second.table.empty()) return false;
  const TableState& t = tables_.at(it->second.table);
  return t.hand && !t.hand->finished() && t.hand->dealt_in(it->second.seat);
}

bool Director::Away(const std::string& player) const {
  auto it = players_.find(player);
  return it != players_.end() && it->second.away;
}

std::string Director::TableOf(const std::string& player) const {
  auto it = players_.find(player);
  return it == players_.end() ? "" : it->second.table;
}

std::vector<std::string> Director::TableNames() const { return table_order_; }

std::vector<std::string> Director::TablesInPlay() const {
  std::vector<std::string> out;
  out.reserve(in_play_.size());
  for (int number : in_play_) out.push_back(table_order_[number - 1]);
  return out;
}

const poker::Hand* Director::HandAt(const std::string& table) const {
  auto t = tables_.find(table);
  return t == tables_.end() || !t->second.hand ? nullptr : &*t->second.hand;
}

const std::vector<std::string>* Director::SeatsAt(
    const std::string& table) const {
  auto t = tables_.find(table);
  return t == tables_.end() ? nullptr : &t->second.seats;
}

int64_t Director::HandsPlayedAt(const std::string& table) const {
  auto t = tables_.find(table);
  return t == tables_.end() ? 0 : t->second.hands;
}

}  // namespace banca::games::tournament
