#include "libs/games/poker/hand.h"

#include <algorithm>
#include <bit>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/utility/utility.h"
#include "libs/cards/evaluator.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/poker/pots.h"
#include "libs/money/money.h"

namespace banca::games::poker {
namespace {

// No-limit and pot-limit rounds have no raise cap in the rules; this bound
// keeps a hand finite whatever the stacks (beyond it: call or fold).
constexpr int kSafetyRaiseCap = 100;

bool IsAggressive(ActionType t) {
  return t == ActionType::kBet || t == ActionType::kRaise ||
         t == ActionType::kAllIn;
}

}  // namespace

HandSetup HandSetup::FromRecord(const HandRecord& record) {
  HandSetup s;
  s.config = record.config;
  s.table_id = record.table_id;
  s.hand_number = record.hand_number;
  s.button = record.button;
  s.players = record.players;
  s.deck = record.deck;
  return s;
}

absl::StatusOr<Hand> Hand::Start(const HandSetup& setup) {
  RETURN_IF_ERROR(setup.config.Validate());
  const TableConfig& config = setup.config;
  const int n = static_cast<int>(setup.players.size());
  if (n < 2 || n > config.seats) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a hand needs 2..", config.seats, " players (HE-7), got ", n));
  }
  int button_index = -1;
  for (int i = 0; i < n; ++i) {
    const SeatedPlayer& p = setup.players[i];
    if (p.seat < 1 || p.seat > config.seats) {
      return absl::InvalidArgumentError(
          absl::StrCat("seat ", p.seat, " is not 1..", config.seats));
    }
    if (i > 0 && p.seat <= setup.players[i - 1].seat) {
      return absl::InvalidArgumentError(
          "players must be in ascending seat order, one per seat");
    }
    if (p.stack <= 0 || p.stack > money::kMaxAmountMinor) {
      return absl::InvalidArgumentError(absl::StrCat(
          "seat ", p.seat, ": stack ", p.stack, " is not a positive amount"));
    }
    if (p.seat == setup.button) button_index = i;
  }
  if (button_index < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("button seat ", setup.button, " has no player"));
  }
  const int needed = n * config.HoleCards() + kBoardSize;
  if (static_cast<int>(setup.deck.size()) < needed ||
      setup.deck.size() > cards::kNumCards) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the deck must hold ", needed, "..52 cards, got ", setup.deck.size()));
  }
  // The usual deck, 52 distinct cards, checked without a branch per card;
  // any other is searched card by card for the message below.
  uint64_t deck_mask = 0;
  bool deck_out_of_range = false;
  for (cards::Card c : setup.deck) {
    const unsigned index = static_cast<unsigned>(c.index());
    deck_out_of_range |= index >= cards::kNumCards;
    deck_mask |= uint64_t{1} << (index & 63);
  }
  const bool deck_ok =
      !deck_out_of_range &&
      std::popcount(deck_mask) == static_cast<int>(setup.deck.size());
  if (!deck_ok) {
    cards::CardSet seen;
    for (cards::Card c : setup.deck) {
      if (c.index() < 0 || c.index() >= cards::kNumCards || seen.Contains(c)) {
        return absl::InvalidArgumentError(
            absl::StrCat("the deck repeats ", cards::CardToString(c)));
      }
      seen.Insert(c);
    }
  }

  // Built where it is returned: a Hand is over a kilobyte, and moving it
  // into the StatusOr was a measurable part of starting a hand.
  absl::StatusOr<Hand> out(absl::in_place, Key());
  Hand& h = *out;
  h.setup_ = setup;
  h.n_ = n;
  h.events_.reserve(16 + 4 * n);
  h.actions_.reserve(4 * n);
  h.index_of_.fill(-1);
  for (int i = 0; i < n; ++i) {
    Seat& s = h.seats_[i];
    s.seat = setup.players[i].seat;
    h.index_of_[s.seat] = static_cast<int8_t>(i);
    s.start_stack = s.stack = setup.players[i].stack;
    h.total_chips_ += s.stack;
  }
  h.button_ = button_index;
  if (n == 2 && config.heads_up == HeadsUpBlinds::kButtonSmallBlind) {
    h.sb_ = h.button_;
  } else {
    h.sb_ = h.Next(h.button_);
  }
  h.bb_ = h.Next(h.sb_);
  h.num_rounds_ = config.variant == Variant::kSynthetic ? 5 : 4;
  h.PostBlindsAndOffers();
  h.CheckChips();
  return out;
}

std::string Hand::Name(int index) const {
  const std::string& name = setup_.players[index].player;
  return name.empty() ? absl::StrCat("seat ", seats_[index].seat) : name;
}

int Hand::Live() const {
  int live = 0;
  for (int i = 0; i < n_; ++i) live += !seats_[i].folded;
  return live;
}

int Hand::CanBet() const {
  int c = 0;
  for (int i = 0; i < n_; ++i) {
    c += !(static_cast<int>(seats_[i].folded) |
           static_cast<int>(seats_[i].all_in));
  }
  return c;
}

int64_t Hand::PotTotal() const {
  int64_t pot = collected_;
  for (int i = 0; i < n_; ++i) pot += seats_[i].bet;
  return pot;
}

int64_t Hand::RaiseSize() const {
  // Hold'em doubles at the turn (round 3 of 4); synthetic poker, with no
  // text, doubles at its third round of five likewise (interpretation).
  const int64_t bb = setup_.config.big_blind;
  return round_ >= 3 ? 2 * bb : bb;
}

int Hand::RaisesLeft() const {
  const Limit limit = setup_.config.limit;
  const int cap = limit == Limit::kFixedLimit || limit == Limit::kHalfPot
                      ? setup_.config.max_raises_per_round
                      : kSafetyRaiseCap;
  return cap - raises_;
}

void Hand::PostBlindsAndOffers() {
  const TableConfig& c = setup_.config;
  const auto post = [&](int index, int64_t blind, bool big) {
    Seat& s = seats_[index];
    const int64_t amount = std::min(blind, s.stack);
    s.stack -= amount;
    s.bet = s.contributed = amount;
    s.all_in = s.stack == 0;
    Emit(BlindPosted{s.seat, amount, big});
  };
  post(sb_, c.small_blind, false);
  post(bb_, c.big_blind, true);
  round_ = 1;
  // HE-52: to stay in, a player puts in at least the big blind, even when
  // the big blind itself was short (interpretation).
  current_bet_ = c.big_blind;
  min_raise_ = c.big_blind;
  for (int i = 0; i < n_; ++i) {
    seats_[i].needs_action = !seats_[i].all_in;
    seats_[i].may_raise = true;
  }
  if (c.variant == Variant::kSynthetic && c.straddles && n_ >= 3) {
    phase_ = Phase::kStraddle;
    round_ = 0;
    to_act_ = Next(bb_);
    return;
  }
  DealHoleCards();
  AfterAction(bb_);
}

void Hand::DealHoleCards() {
  const int hole = setup_.config.HoleCards();
  for (int pass = 0; pass < hole; ++pass) {
    for (int k = 0, i = sb_; k < n_; ++k, i = Next(i)) {
      seats_[i].hole.push_back(setup_.deck[next_card_++]);
    }
  }
  for (int k = 0, i = sb_; k < n_; ++k, i = Next(i)) {
    Emit(HoleCardsDealt{seats_[i].seat, seats_[i].hole});
  }
  phase_ = Phase::kBetting;
  round_ = 1;
  if (setup_.config.variant == Variant::kSynthetic) {
    // SY-54: the first community card comes before round 1.
    BoardDealt e{1, {}};
    const cards::Card card = setup_.deck[next_card_++];
    board_.push_back(card);
    e.cards.push_back(card);
    Emit(e);
  }
}

void Hand::StartRound(int round) {
  round_ = round;
  const bool synthetic = setup_.config.variant == Variant::kSynthetic;
  const int count = synthetic ? 1 : (round == 2 ? 3 : 1);
  BoardDealt e{round, {}};
  for (int k = 0; k < count; ++k) {
    const cards::Card card = setup_.deck[next_card_++];
    board_.push_back(card);
    e.cards.push_back(card);
  }
  Emit(e);
  current_bet_ = 0;
  min_raise_ = setup_.config.big_blind;
  raises_ = 0;
  last_aggressor_ = -1;
  for (int i = 0; i < n_; ++i) {
    Seat& s = seats_[i];
    s.needs_action = !(s.folded | s.all_in);
    s.may_raise = true;
  }
}

bool Hand::SomeoneCanAnswer(int index) const {
  // Bitwise rather than short-circuit: the seat states are random, and a
  // branch per condition per seat mispredicted often on this hot path.
  bool some = false;
  for (int i = 0; i < n_; ++i) {
    const Seat& o = seats_[i];
    some |= (i != index) & !(o.folded | o.all_in) &
            (o.bet + o.stack > current_bet_);
  }
  return some;
}

int64_t Hand::HighestBetOfOthers(int index) const {
  int64_t highest = 0;
  for (int i = 0; i < n_; ++i) {
    if (i != index && !seats_[i].folded) {
      highest = std::max(highest, seats_[i].bet);
    }
  }
  return highest;
}

void Hand::AfterAction(int index) {
  if (Live() == 1) {
    FinishByFold();
    return;
  }
  int from = Next(index);
  const uint32_t all = (1u << n_) - 1;
  while (true) {
    // One pass without branches on the (random) seat states: who may still
    // bet, and which of them owe a decision. Scanning seat by seat cost a
    // mispredicted branch per seat.
    int can_bet = 0;
    uint32_t waiting = 0;
    for (int i = 0; i < n_; ++i) {
      const Seat& s = seats_[i];
      const bool active = !(s.folded | s.all_in);
      can_bet += active;
      waiting |= static_cast<uint32_t>(active & s.needs_action) << i;
    }
    to_act_ = -1;
    // Clockwise from `from`: bit k of `order` is seat index from + k.
    for (uint32_t order = ((waiting >> from) | (waiting << (n_ - from))) & all;
         order != 0; order &= order - 1) {
      int i = from + std::countr_zero(order);
      if (i >= n_) i -= n_;
      // Alone with chips and nothing to call: nobody is left to bet against.
      // What there is to call is what the others actually put in, not the
      // nominal big blind: against a short all-in big blind alone, more
      // chips would only come back as an uncalled bet.
      if (can_bet <= 1 && seats_[i].bet >= HighestBetOfOthers(i)) continue;
      to_act_ = i;
      return;
    }
    CloseRound();
    if (finished_) return;
    // SY-56 (gap 4): the last bettor of the previous round opens, or the
    // next player clockwise if that one cannot act; else left of the button
    // (HE-54..58 and the SY-60 fallback).
    from =
        setup_.config.variant == Variant::kSynthetic && previous_aggressor_ >= 0
            ? previous_aggressor_
            : Next(button_);
  }
}

void Hand::CloseRound() {
  int64_t contributed = 0;
  for (int i = 0; i < n_; ++i) {
    collected_ += seats_[i].bet;
    seats_[i].bet = 0;
    contributed += seats_[i].contributed;
  }
  // At the end of a street the pot is the sum of the contributions.
  BANCA_CHECK(collected_ == contributed);
  previous_aggressor_ = last_aggressor_;
  if (round_had_action_) {
    // HE-59 (gap 4): the last bettor of the last round played.
    showdown_starter_ = last_aggressor_;
  }
  round_had_action_ = false;
  if (round_ == num_rounds_) {
    Showdown();
    return;
  }
  StartRound(round_ + 1);
}

Hand::Bounds Hand::BetBounds(int index) const {
  const Seat& s = seats_[index];
  const TableConfig& c = setup_.config;
  Bounds b;
  const int64_t all_in_to = s.bet + s.stack;
  // A raise needs someone left to answer it: against players who are all
  // in, or who could not even call the current bet, only a call (or fold)
  // makes sense, and PokerKit agrees.
  b.may_raise = s.may_raise && all_in_to > current_bet_ &&
                (current_bet_ == 0 || RaisesLeft() > 0) &&
                SomeoneCanAnswer(index);
  const int64_t to_call = current_bet_ - s.bet;
  const int64_t pot_after_call = PotTotal() + to_call;
  if (c.limit == Limit::kFixedLimit) {
    b.min_to = b.max_to = current_bet_ + RaiseSize();
    return b;
  }
  // HE-23: no bet below the table minimum; a raise at least matches the
  // last full raise (HE gap 5).
  b.min_to = current_bet_ == 0 ? c.big_blind : current_bet_ + min_raise_;
  switch (c.limit) {
    case Limit::kPotLimit:  // HE-24b, gap 6: the pot after the call
      b.max_to = current_bet_ + pot_after_call;
      break;
    case Limit::kHalfPot:  // HE-24a: half of it
      b.max_to = current_bet_ + pot_after_call / 2;
      break;
    default:  // HE-24c: the stack
      b.max_to = all_in_to;
      break;
  }
  b.max_to = std::max(b.max_to, b.min_to);
  return b;
}

LegalActions Hand::legal() const {
  LegalActions l;
  if (finished_ || to_act_ < 0) return l;
  const Seat& s = seats_[to_act_];
  l.seat = s.seat;
  l.can_fold = true;
  const int64_t to_call = current_bet_ - s.bet;
  l.can_check = to_call == 0;
  l.can_call = to_call > 0;
  l.call_amount = std::min(to_call, s.stack);
  l.all_in_to = s.bet + s.stack;
  const Bounds b = BetBounds(to_act_);
  if (b.may_raise) {
    (current_bet_ == 0 ? l.can_bet : l.can_raise) = true;
    l.min_raise_to = std::min(b.min_to, l.all_in_to);
    l.max_raise_to = std::min(b.max_to, l.all_in_to);
    l.can_all_in = l.all_in_to <= b.max_to;
  } else {
    l.can_all_in = l.all_in_to <= current_bet_;  // a call for every chip
  }
  const int64_t bb = setup_.config.big_blind;
  if (phase_ == Phase::kStraddle) {
    l.straddle_to = 2 * bb;
    l.can_straddle = s.stack >= l.straddle_to;
  } else if (phase_ == Phase::kRestraddle) {
    l.straddle_to = 4 * bb;
    l.can_restraddle = s.stack >= l.straddle_to;
  }
  return l;
}

absl::Status Hand::Validate(int index, const Action& action, int64_t* put_in,
                            bool* full_raise) const {
  const Seat& s = seats_[index];
  const int64_t to_call = current_bet_ - s.bet;
  *full_raise = false;
  const bool sized =
      action.type == ActionType::kBet || action.type == ActionType::kRaise;
  if (!sized && action.amount != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("an amount is given only with bet or raise, not ",
                     ToAbsl(ActionTypeName(action.type))));
  }
  switch (action.type) {
    case ActionType::kFold:
      *put_in = 0;
      return absl::OkStatus();
    case ActionType::kCheck:
      if (to_call > 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("cannot check: ", to_call, " to call (HE-34b)"));
      }
      *put_in = 0;
      return absl::OkStatus();
    case ActionType::kCall:
      if (to_call == 0) {
        return absl::InvalidArgumentError("nothing to call: check or bet");
      }
      *put_in = std::min(to_call, s.stack);
      return absl::OkStatus();
    case ActionType::kStraddle:
    case ActionType::kRestraddle:
      return absl::InvalidArgumentError(
          absl::StrCat(ToAbsl(ActionTypeName(action.type)),
                       " is not offered now: only before the cards (SY-51)"));
    case ActionType::kBet:
    case ActionType::kRaise:
    case ActionType::kAllIn:
      break;
  }
  return ValidateRaise(index, action, put_in, full_raise);
}

absl::Status Hand::ValidateRaise(int index, const Action& action,
                                 int64_t* put_in, bool* full_raise) const {
  const Seat& s = seats_[index];
  const int64_t all_in_to = s.bet + s.stack;
  const bool all_in = action.type == ActionType::kAllIn;
  const int64_t target = all_in ? all_in_to : action.amount;
  const absl::string_view word =
      action.type == ActionType::kBet ? "bet" : "raise";
  if (action.type == ActionType::kBet && current_bet_ > 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot bet: there is a bet of ", current_bet_, "; call or raise"));
  }
  if (action.type == ActionType::kRaise && current_bet_ == 0) {
    return absl::InvalidArgumentError("nothing to raise: bet instead");
  }
  if (all_in && target <= current_bet_) {
    *put_in = s.stack;  // a call for every chip (HE-39)
    return absl::OkStatus();
  }
  if (target > all_in_to) {
    return absl::InvalidArgumentError(
        absl::StrCat(word, " to ", target,
                     " is more than the stack allows: at most ", all_in_to));
  }
  if (target <= current_bet_) {
    return absl::InvalidArgumentError(absl::StrCat(
        word, " to ", target, " does not exceed the bet of ", current_bet_));
  }
  if (!s.may_raise) {
    return absl::InvalidArgumentError(
        "betting was not reopened by a short all-in: call or fold");
  }
  if (!SomeoneCanAnswer(index)) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot ", word,
                     ": no other player has chips to answer it; call or fold"));
  }
  if (current_bet_ > 0 && RaisesLeft() <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("no more raises this round: the cap is ",
                     setup_.config.limit == Limit::kFixedLimit ||
                             setup_.config.limit == Limit::kHalfPot
                         ? setup_.config.max_raises_per_round
                         : kSafetyRaiseCap,
                     " raises (HE-38)"));
  }
  const Bounds b = BetBounds(index);
  const bool short_all_in = target == all_in_to && target < b.min_to;
  if (setup_.config.limit == Limit::kFixedLimit && target != b.min_to &&
      !short_all_in) {
    return absl::InvalidArgumentError(
        absl::StrCat("fixed limit: ", word, " to ", target, " must be to ",
                     b.min_to, " (bets are ", RaiseSize(), " this round)"));
  }
  if (target < b.min_to && !short_all_in) {
    if (current_bet_ == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("bet of ", target, " is below the minimum bet of ",
                       b.min_to, " (HE-23)"));
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "raise to ", target, " is below the minimum raise to ", b.min_to));
  }
  if (target > b.max_to) {
    return absl::InvalidArgumentError(absl::StrCat(word, " to ", target,
                                                   " is above the maximum of ",
                                                   b.max_to, " (HE-24)"));
  }
  const int64_t increment = target - current_bet_;
  *full_raise = setup_.config.limit == Limit::kFixedLimit
                    ? increment >= RaiseSize()
                    : (current_bet_ == 0 ? target >= setup_.config.big_blind
                                         : increment >= min_raise_);
  *put_in = target - s.bet;
  return absl::OkStatus();
}

absl::Status Hand::Act(int seat, Action action) {
  return ActImpl(seat, action, false);
}

absl::Status Hand::Timeout(int seat) {
  const int index = IndexOf(seat);
  if (finished_ || index < 0 || index != to_act_) {
    return ActImpl(seat, Action{ActionType::kFold, 0}, true);  // the error
  }
  // HE-45: check when no bet is to be called, otherwise fold.
  const bool can_check = current_bet_ == seats_[index].bet;
  return ActImpl(seat,
                 Action{can_check ? ActionType::kCheck : ActionType::kFold, 0},
                 true);
}

absl::Status Hand::ActImpl(int seat, Action action, bool timeout) {
  if (finished_) return absl::FailedPreconditionError("the hand is over");
  const int index = IndexOf(seat);
  if (index < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("seat ", seat, " is not in this hand"));
  }
  if (index != to_act_) {
    return absl::FailedPreconditionError(
        absl::StrCat("not ", Name(index), "'s turn"));
  }
  if (phase_ == Phase::kStraddle || phase_ == Phase::kRestraddle) {
    if (action.type == ActionType::kStraddle ||
        action.type == ActionType::kRestraddle) {
      return ApplyStraddle(index, action);
    }
  }
  int64_t put_in = 0;
  bool full_raise = false;
  RETURN_IF_ERROR(Validate(index, action, &put_in, &full_raise));
  if (phase_ == Phase::kStraddle || phase_ == Phase::kRestraddle) {
    // Any other answer declines the offer: the cards come now and the
    // answer is this player's first action of round 1 (they are first to
    // act: SY-54 opens left of the big blind, gap 3).
    DealHoleCards();
  }
  Apply(index, action, put_in, full_raise, timeout);
  AfterAction(index);
  CheckChips();
  return absl::OkStatus();
}

absl::Status Hand::ApplyStraddle(int index, const Action& action) {
  const bool re = action.type == ActionType::kRestraddle;
  if (action.amount != 0) {
    return absl::InvalidArgumentError(
        "a straddle's amount is fixed: give none");
  }
  if (re != (phase_ == Phase::kRestraddle)) {
    return absl::InvalidArgumentError(
        re ? "no straddle to re-straddle: straddle or act"
           : "the straddle was posted: re-straddle or act");
  }
  Seat& s = seats_[index];
  const int64_t to = (re ? 4 : 2) * setup_.config.big_blind;
  if (s.stack < to) {
    return absl::InvalidArgumentError(
        absl::StrCat(re ? "re-straddle" : "straddle", " needs ", to,
                     ", stack is ", s.stack));
  }
  s.stack -= to;
  s.bet += to;
  s.contributed += to;
  s.all_in = s.stack == 0;
  // A straddle is the player's bet of round 1 (SY-52: everyone matches it);
  // the next full raise goes at least as far again.
  current_bet_ = to;
  min_raise_ = to;
  ++raises_;
  last_aggressor_ = index;
  round_had_action_ = true;
  for (int i = 0; i < n_; ++i) {
    if (i == index || seats_[i].folded || seats_[i].all_in) continue;
    seats_[i].needs_action = true;
    seats_[i].may_raise = true;
  }
  s.needs_action = false;
  s.may_raise = false;
  Emit(StraddlePosted{s.seat, to, re});
  actions_.push_back({s.seat, Action{action.type, 0}, false});
  const int next = Next(index);
  if (!re && next != sb_ && next != bb_ && !seats_[next].all_in) {
    phase_ = Phase::kRestraddle;
    to_act_ = next;
  } else {
    DealHoleCards();
    AfterAction(index);
  }
  CheckChips();
  return absl::OkStatus();
}

void Hand::Apply(int index, const Action& action, int64_t put_in,
                 bool full_raise, bool timeout) {
  Seat& s = seats_[index];
  s.stack -= put_in;
  s.bet += put_in;
  s.contributed += put_in;
  if (put_in > 0 && s.stack == 0) s.all_in = true;
  if (action.type == ActionType::kFold) s.folded = true;
  s.needs_action = false;
  s.may_raise = false;
  round_had_action_ = true;
  if (s.bet > current_bet_) {
    const int64_t increment = s.bet - current_bet_;
    // Every raise counts towards the cap (HE-38), a short all-in too: it
    // still raised the price for everyone behind.
    if (current_bet_ > 0) ++raises_;
    if (full_raise) {
      min_raise_ = std::max(increment, setup_.config.big_blind);
    }
    current_bet_ = s.bet;
    last_aggressor_ = index;
    for (int i = 0; i < n_; ++i) {
      Seat& o = seats_[i];
      const bool reopened = (i != index) & !(o.folded | o.all_in);
      o.needs_action |= reopened;
      o.may_raise |= reopened & full_raise;
    }
  }
  BANCA_CHECK(IsAggressive(action.type) || s.bet <= current_bet_);
  actions_.push_back({s.seat, action, timeout});
  Emit(ActionTaken{s.seat, action, put_in, s.bet, s.all_in, timeout});
}

void Hand::FinishByFold() {
  for (int i = 0; i < n_; ++i) {
    collected_ += seats_[i].bet;
    seats_[i].bet = 0;
  }
  // HE-36: no cards are shown; the values are irrelevant with one player.
  std::array<cards::HandValue, kMaxSeats> values{};
  Award(values);
}

void Hand::Showdown() {
  const cards::Evaluator& ev = cards::Evaluator::Get();
  const TableConfig& c = setup_.config;
  std::array<cards::HandValue, kMaxSeats> values{};
  BANCA_CHECK(board_.size() == kBoardSize);
  // Every value first, the events after: each evaluation is a lookup that
  // usually misses the cache, and in a loop of their own the misses of all
  // the players overlap instead of waiting one after the other.
  for (int i = 0; i < n_; ++i) {
    const Seat& s = seats_[i];
    if (s.folded) continue;
    if (c.variant == Variant::kOmaha) {
      values[i] =
          s.hole.size() == 4
              ? ev.EvaluateOmaha(s.hole.begin(), board_.begin())
              : ev.EvaluateOmahaBruteForce(s.hole.span(), board_.span());
    } else {
      std::array<cards::Card, 7> seven;
      seven[0] = s.hole[0];
      seven[1] = s.hole[1];
      std::copy(board_.begin(), board_.end(), seven.begin() + 2);
      values[i] = ev.Evaluate7(seven.data());
    }
  }
  const int start = showdown_starter_ >= 0 && !seats_[showdown_starter_].folded
                        ? showdown_starter_
                        : Next(button_);
  result_.showdown_order.reserve(Live());
  for (int k = 0, i = start; k < n_; ++k, i = Next(i)) {
    Seat& s = seats_[i];
    if (s.folded) continue;
    s.shown = true;
    result_.showdown_order.push_back(s.seat);
    Emit(ShowdownShown{s.seat, s.hole, values[i]});
  }
  Award(values);
}

void Hand::Award(const std::array<cards::HandValue, kMaxSeats>& values) {
  const TableConfig& c = setup_.config;
  std::array<Contribution, kMaxSeats> contributions;
  for (int i = 0; i < n_; ++i) {
    contributions[i] = {seats_[i].seat, seats_[i].contributed,
                        seats_[i].folded};
  }
  const PotSplit split =
      SplitPots(absl::MakeConstSpan(contributions.data(), n_));
  std::array<int64_t, kMaxSeats> won{};
  std::array<int64_t, kMaxSeats> returned{};
  if (split.returned.amount > 0) {
    const int i = IndexOf(split.returned.seat);
    returned[i] = split.returned.amount;
    seats_[i].stack += split.returned.amount;
    Emit(BetReturned{split.returned.seat, split.returned.amount});
  }
  // HE-18 (gap 1) "no flop, no drop". Synthetic poker shows its first card
  // before any betting, so its "flop" is the second card (interpretation).
  const int drop_at = c.variant == Variant::kSynthetic ? 2 : 3;
  const bool rake = c.rake.mode == RakeMode::kPot && board_.size() >= drop_at;
  SmallList<int64_t, kMaxSeats> rakes;
  if (rake) {
    rakes = RakePots(split.pots.span(), c.rake.bps, c.rake.cap);
  }
  result_.pots.reserve(split.pots.size());
  for (int p = 0; p < split.pots.size(); ++p) {
    const Pot& pot = split.pots[p];
    const int64_t pot_rake = rake ? rakes[p] : 0;
    // Eligibility by index (pots name seats): no search per seat below.
    uint32_t eligible = 0;
    cards::HandValue best;
    for (int seat : pot.eligible) {
      const int i = IndexOf(seat);
      eligible |= 1u << i;
      best = std::max(best, values[i]);
    }
    // HE-63: the best hand among those who may win this pot; ties split
    // with the odd cents clockwise from left of the button (gap 2). The
    // eligible are never folded (SplitPots).
    SmallList<int, kMaxSeats> winners;
    for (int k = 0, i = Next(button_); k < n_; ++k, i = Next(i)) {
      if ((eligible >> i & 1) != 0 && values[i] == best) winners.push_back(i);
    }
    BANCA_CHECK(!winners.empty());
    // As money::SplitEvenly, without its vector: equal shares, the odd
    // cents one each to the first winners.
    const int64_t net = pot.amount - pot_rake;
    BANCA_CHECK(net >= 0);
    const int64_t share = net / winners.size();
    const int odd = static_cast<int>(net % winners.size());
    PotAwarded& e = std::get<PotAwarded>(
        events_.emplace_back(std::in_place_type<PotAwarded>));
    e.pot = p;
    e.amount = pot.amount;
    e.rake = pot_rake;
    PotResult& r = result_.pots.emplace_back();
    r.amount = pot.amount;
    r.rake = pot_rake;
    r.eligible.assign(pot.eligible.begin(), pot.eligible.end());
    r.shares.reserve(winners.size());
    int64_t shared = 0;
    for (int w = 0; w < winners.size(); ++w) {
      const int i = winners[w];
      const int64_t amount = share + (w < odd ? 1 : 0);
      seats_[i].stack += amount;
      won[i] += amount;
      shared += amount;
      e.shares.push_back({seats_[i].seat, amount});
      r.shares.push_back({seats_[i].seat, amount});
    }
    // The winners' shares are the pot less its rake, to the cent.
    BANCA_CHECK(shared == net);
    result_.rake += pot_rake;
  }
  // So every chip put in went back uncalled, to a winner or to the rake
  // (SplitPots checks that the pots and the uncalled bet are the
  // contributions), and the rake kept to its cap.
  BANCA_CHECK(c.rake.cap <= 0 || result_.rake <= c.rake.cap);
  result_.players.reserve(n_);
  for (int i = 0; i < n_; ++i) {
    const Seat& s = seats_[i];
    result_.players.push_back({s.seat, s.start_stack, s.stack,
                               s.contributed - returned[i], won[i], s.folded,
                               s.shown});
  }
  Finish(false);
}

void Hand::Finish(bool voided) {
  result_.voided = voided;
  result_.board.assign(board_.begin(), board_.end());
  finished_ = true;
  phase_ = Phase::kOver;
  to_act_ = -1;
  Emit(HandFinished{voided, result_.rake});
  // Chips are conserved from the start of the hand to its end, the rake
  // accounted; no stack ends negative; a void takes no rake.
  int64_t total = result_.rake;
  bool negative = result_.rake < 0 || (voided && result_.rake != 0);
  for (int i = 0; i < n_; ++i) {
    total += seats_[i].stack;
    negative |= seats_[i].stack < 0;
  }
  BANCA_CHECK(!negative);
  BANCA_CHECK(total == total_chips_);
}

absl::Status Hand::Void() {
  if (finished_) return absl::FailedPreconditionError("the hand is over");
  HandVoided e;
  result_ = HandResult{};
  for (int i = 0; i < n_; ++i) {
    Seat& s = seats_[i];
    // Everything the seat put in comes back: its stack is whole again.
    BANCA_CHECK(s.stack + s.contributed == s.start_stack);
    e.refunds.push_back({s.seat, s.contributed});
    s.stack = s.start_stack;
    s.bet = 0;
    result_.players.push_back(
        {s.seat, s.start_stack, s.start_stack, 0, 0, s.folded, false});
  }
  collected_ = 0;
  Emit(e);
  Finish(true);
  return absl::OkStatus();
}

// During the hand: no stack or bet is negative, the stacks and the
// contributions make the chips the hand started with, and the pot
// (collected plus this round's bets) is the sum of the contributions.
// Once finished, Finish has checked the end.
void Hand::CheckChips() const {
  int64_t stacks = 0, contributed = 0, bets = 0;
  bool negative = false;  // one check after the loop, not a branch per seat
  for (int i = 0; i < n_; ++i) {
    stacks += seats_[i].stack;
    contributed += seats_[i].contributed;
    bets += seats_[i].bet;
    negative |= static_cast<int>(seats_[i].stack < 0) |
                static_cast<int>(seats_[i].bet < 0);
  }
  BANCA_CHECK(!negative);
  if (finished_) return;
  BANCA_CHECK(stacks + contributed == total_chips_);
  BANCA_CHECK(collected_ + bets == contributed);
}

HandRecord Hand::record() const {
  HandRecord r;
  r.config = setup_.config;
  r.table_id = setup_.table_id;
  r.hand_number = setup_.hand_number;
  r.button = setup_.button;
  r.players = setup_.players;
  r.deck = setup_.deck;
  r.actions = actions_;
  r.voided = finished_ && result_.voided;
  return r;
}

absl::StatusOr<HandResult> Hand::Replay(const HandRecord& record) {
  ASSIGN_OR_RETURN(Hand hand, Start(HandSetup::FromRecord(record)));
  for (size_t k = 0; k < record.actions.size(); ++k) {
    const RecordedAction& a = record.actions[k];
    absl::Status st =
        a.timeout ? hand.Timeout(a.seat) : hand.Act(a.seat, a.action);
    if (st.ok() && a.timeout && !(hand.actions_.back() == a)) {
      st = absl::InvalidArgumentError("the timeout's recorded action differs");
    }
    RETURN_IF_ERROR(Prefixed(st, "action ", k + 1, ": "));
  }
  if (record.voided) {
    RETURN_IF_ERROR(hand.Void());
  }
  if (!hand.finished()) {
    return absl::FailedPreconditionError(
        "the record ends before the hand is over");
  }
  return hand.result_;
}

SeatView Hand::ViewFor(int seat) const {
  SeatView v;
  const int viewer = IndexOf(seat);
  v.viewer = viewer >= 0 ? seat : 0;
  v.button = setup_.button;
  v.round = round_;
  v.finished = finished_;
  v.voided = finished_ && result_.voided;
  v.board.assign(board_.begin(), board_.end());
  v.pot = finished_ ? 0 : PotTotal();
  v.to_act = to_act();
  v.players.reserve(n_);
  for (int i = 0; i < n_; ++i) {
    const Seat& s = seats_[i];
    PlayerView p;
    p.seat = s.seat;
    p.player = setup_.players[i].player;
    p.stack = s.stack;
    p.bet = s.bet;
    p.contributed = s.contributed;
    p.folded = s.folded;
    p.all_in = s.all_in;
    // DESIGN invariant 7: others' cards only once turned at showdown.
    if (i == viewer || s.shown) p.cards = s.hole;
    v.players.push_back(std::move(p));
  }
  if (viewer >= 0 && viewer == to_act_ && !finished_) v.legal = legal();
  return v;
}

}  // namespace banca::games::poker
