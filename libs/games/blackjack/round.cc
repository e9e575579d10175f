#include "libs/games/blackjack/round.h"

#include <algorithm>
#include <array>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"

namespace banca::games::blackjack {
namespace {

using cards::Card;
using cards::Rank;

bool IsTenValue(Card c) { return CardValue(c) == 10; }

absl::Status Invalid(std::string message) {
  return absl::InvalidArgumentError(std::move(message));
}

// What a hand stake returns on the comparison, before any BJ-25i prize:
// the multiple of the stake for won (2), push (1) or lost (0).
int64_t ComparisonMultiple(Outcome outcome) {
  switch (outcome) {
    case Outcome::kWon:
      return 2;
    case Outcome::kPush:
    case Outcome::kVoid:
      return 1;
    default:
      return 0;
  }
}

void Refresh(PlayerHand& h) {
  h.total = HandTotal(h.cards);
  h.bust = h.total.value > 21;
  h.blackjack = !h.from_split && IsTwoCardTwentyOne(h.cards);
}

}  // namespace

absl::StatusOr<Round> Round::Start(const RoundSetup& setup) {
  const TableSettings& cfg = setup.settings;
  RETURN_IF_ERROR(cfg.Validate());
  if (setup.round_number < 0) return Invalid("round number must be >= 0");
  if (setup.bets.empty()) return Invalid("a round needs at least one bet");
  if (static_cast<int>(setup.bets.size()) > cfg.seats) {
    return Invalid(absl::StrCat("more bets than the ", cfg.seats, " seats"));
  }
  int last_seat = 0;
  for (const SeatBet& b : setup.bets) {
    if (b.seat < 1 || b.seat > cfg.seats) {
      return Invalid(absl::StrCat("seat ", b.seat, " is not 1..", cfg.seats));
    }
    if (b.seat <= last_seat) {
      return Invalid("bets must be in ascending, distinct seats");
    }
    last_seat = b.seat;
    if (b.player.empty() || b.player.size() > kMaxPlayerIdBytes) {
      return Invalid(
          absl::StrCat("seat ", b.seat, ": player id must be 1..64 bytes"));
    }
    if (b.stake < cfg.min_bet || b.stake > cfg.max_bet) {
      return Invalid(absl::StrCat("seat ", b.seat, ": bet ", b.stake,
                                  " is outside the table limits ", cfg.min_bet,
                                  "..", cfg.max_bet));
    }
  }
  const size_t needed = 2 * setup.bets.size() + 2;
  if (setup.deck.size() < needed) {
    return Invalid(absl::StrCat("the deck has ", setup.deck.size(),
                                " cards; the deal needs ", needed));
  }
  if (setup.deck.size() > static_cast<size_t>(cards::kNumCards) * cfg.decks) {
    return Invalid(
        absl::StrCat("the deck has more cards than ", cfg.decks, " decks"));
  }
  std::array<int, cards::kNumCards> copies{};
  for (Card c : setup.deck) {
    if (c.index() < 0 || c.index() >= cards::kNumCards) {
      return Invalid("the deck holds an invalid card");
    }
    if (++copies[c.index()] > cfg.decks) {
      return Invalid(absl::StrCat(cards::CardToString(c), " appears more than ",
                                  cfg.decks, " times in a ", cfg.decks,
                                  "-deck shoe"));
    }
  }

  Round r;
  r.setup_ = setup;
  for (const SeatBet& b : setup.bets) {
    SeatState s;
    s.seat = b.seat;
    s.player = b.player;
    s.main_stake = b.stake;
    PlayerHand h;
    h.number = 1;
    h.stake = b.stake;
    s.hands.push_back(std::move(h));
    r.seats_.push_back(std::move(s));
  }
  // The deck holds enough cards for the deal: checked above.
  Card c;
  for (int pass = 0; pass < 2; ++pass) {
    for (SeatState& s : r.seats_) {
      BANCA_CHECK(r.Draw(&c));
      s.hands[0].cards.push_back(c);
      Refresh(s.hands[0]);
      r.events_.push_back(CardDealt{s.seat, 1, c});
    }
    BANCA_CHECK(r.Draw(&c));
    r.dealer_.push_back(c);
    if (pass == 0) {
      r.events_.push_back(CardDealt{0, 0, c});
    } else {
      r.events_.push_back(HoleCardDealt{});
    }
  }
  if (cfg.insurance && r.dealer_[0].rank() == Rank::kAce) {
    r.phase_ = Phase::kInsurance;
    r.seat_index_ = 0;
    r.events_.push_back(InsuranceOffered{});
  } else {
    r.AfterInsurance();
  }
  return r;
}

absl::StatusOr<RoundResult> Round::Replay(const RoundRecord& record) {
  ASSIGN_OR_RETURN(Round r, Start(record.setup));
  for (const RecordedDecision& d : record.decisions) {
    RETURN_IF_ERROR(d.timeout ? r.Timeout(d.seat) : r.Act(d.seat, d.action));
  }
  if (record.voided) {
    RETURN_IF_ERROR(r.Void(record.void_reason));
  }
  if (!r.finished()) {
    return absl::FailedPreconditionError("the recorded round is unfinished");
  }
  return r.result();
}

bool Round::Draw(Card* card) {
  if (next_card_ >= setup_.deck.size()) return false;
  *card = setup_.deck[next_card_++];
  return true;
}

std::string Round::Name(int index) const { return seats_[index].player; }

int Round::IndexOf(int seat) const {
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].seat == seat) return static_cast<int>(i);
  }
  return -1;
}

const SeatState* Round::seat_state(int seat) const {
  const int i = IndexOf(seat);
  return i < 0 ? nullptr : &seats_[i];
}

int64_t Round::staked() const {
  int64_t total = 0;
  for (const SeatState& s : seats_) {
    total += s.insurance;
    for (const PlayerHand& h : s.hands) total += h.stake + h.double_stake;
  }
  return total;
}

void Round::AfterInsurance() {
  phase_ = Phase::kPlayers;
  const Card up = dealer_[0];
  if (setup_.settings.dealer_peek &&
      (up.rank() == Rank::kAce || IsTenValue(up))) {
    const bool blackjack = IsTwoCardTwentyOne(dealer_);
    events_.push_back(DealerChecked{blackjack});
    if (blackjack) {
      RevealHole();
      Settle();
      return;
    }
  }
  seat_index_ = 0;
  hand_index_ = 0;
  Advance();
}

bool Round::CanSplit(const SeatState& s, const PlayerHand& h) const {
  const TableSettings& cfg = setup_.settings;
  if (h.cards.size() != 2) return false;
  const Card a = h.cards[0];
  const Card b = h.cards[1];
  const bool pair = a.rank() == b.rank() ||
                    (cfg.split_tens_by_value && IsTenValue(a) && IsTenValue(b));
  if (!pair) return false;
  if (static_cast<int>(s.hands.size()) >= cfg.max_split_hands) return false;
  if (h.split_aces && !cfg.resplit_aces) return false;
  return true;
}

bool Round::HandNeedsDecision(const SeatState& s, const PlayerHand& h) const {
  if (h.stood || h.surrendered || h.bust) return false;
  // 21 stands by itself: no card can improve it (a blackjack included).
  if (h.total.value >= 21) return false;
  // Split aces take one card; only a re-split can follow.
  if (h.split_aces) return CanSplit(s, h);
  return true;
}

void Round::Advance() {
  while (seat_index_ < static_cast<int>(seats_.size())) {
    SeatState& s = seats_[seat_index_];
    while (hand_index_ < static_cast<int>(s.hands.size())) {
      PlayerHand& h = s.hands[hand_index_];
      if (h.cards.size() == 1) {
        Card c;
        if (!Draw(&c)) {
          VoidInternal("the shoe ran out");
          return;
        }
        h.cards.push_back(c);
        Refresh(h);
        events_.push_back(CardDealt{s.seat, h.number, c});
      }
      if (HandNeedsDecision(s, h)) return;
      h.stood = true;
      ++hand_index_;
    }
    ++seat_index_;
    hand_index_ = 0;
  }
  DealerPlays();
}

void Round::RevealHole() {
  if (hole_revealed_) return;
  hole_revealed_ = true;
  events_.push_back(HoleCardRevealed{dealer_[1]});
}

void Round::DealerPlays() {
  RevealHole();
  bool live = false;
  for (const SeatState& s : seats_) {
    for (const PlayerHand& h : s.hands) {
      live = live || (!h.bust && !h.surrendered && !h.blackjack);
    }
  }
  // Nothing left to beat: the dealer draws no card (the standard game).
  if (live) {
    const bool hits_soft_17 = setup_.settings.dealer_hits_soft_17;
    while (true) {
      const Total t = HandTotal(dealer_);
      if (t.value > 17 || (t.value == 17 && !(t.soft && hits_soft_17))) {
        break;
      }
      Card c;
      if (!Draw(&c)) {
        VoidInternal("the shoe ran out");
        return;
      }
      dealer_.push_back(c);
      events_.push_back(CardDealt{0, 0, c});
    }
  }
  Settle();
}

void Round::Settle() {
  const TableSettings& cfg = setup_.settings;
  const Total dealer = HandTotal(dealer_);
  const bool dealer_bj = IsTwoCardTwentyOne(dealer_);
  result_ = RoundResult{};
  result_.dealer_cards = dealer_;
  result_.dealer_total = dealer;
  result_.dealer_blackjack = dealer_bj;
  for (const SeatState& s : seats_) {
    std::vector<const PlayerHand*> by_number;
    for (const PlayerHand& h : s.hands) by_number.push_back(&h);
    std::sort(by_number.begin(), by_number.end(),
              [](const PlayerHand* a, const PlayerHand* b) {
                return a->number < b->number;
              });
    for (const PlayerHand* h : by_number) {
      BetResult main;
      main.seat = s.seat;
      main.kind = h->number == 1 ? BetKind::kMain : BetKind::kSplit;
      main.hand = h->number;
      main.stake = h->stake;
      // BJ-25e/h and the blackjack decision (digest gap 2): a blackjack
      // beats any other 21, "same score" pushes otherwise.
      Outcome outcome;
      if (h->surrendered) {
        outcome = Outcome::kSurrendered;
      } else if (h->bust) {
        outcome = Outcome::kLost;  // even when the dealer busts later
      } else if (h->blackjack) {
        outcome = dealer_bj ? Outcome::kPush : Outcome::kBlackjack;
      } else if (dealer_bj) {
        outcome = Outcome::kLost;
      } else if (dealer.value > 21 || h->total.value > dealer.value) {
        outcome = Outcome::kWon;
      } else if (h->total.value == dealer.value) {
        outcome = Outcome::kPush;
      } else {
        outcome = Outcome::kLost;
      }
      main.outcome = outcome;
      if (outcome == Outcome::kBlackjack) {
        // Winnings stake x num / den; a fraction of a cent goes up to the
        // player (docs/blackjack.md). Bounded: stake <= max_bet <= 10^12.
        const int64_t num = cfg.blackjack_pays_num;
        const int64_t den = cfg.blackjack_pays_den;
        main.returned = h->stake + (h->stake * num + den - 1) / den;
      } else if (outcome == Outcome::kSurrendered) {
        main.returned = h->stake - h->stake / 2;  // the odd cent to the player
      } else {
        main.returned = h->stake * ComparisonMultiple(outcome);
      }
      // BJ-25i: three times each stake on the hand, whatever the comparison.
      const bool prize = IsSpecialPrizeHand(h->cards) &&
                         (!h->from_split || cfg.special_prize_on_split_hands);
      if (prize) {
        main.prize = 3 * h->stake;
        main.returned += main.prize;
      }
      result_.bets.push_back(main);
      if (h->double_stake > 0) {
        BetResult dbl = main;
        dbl.kind = BetKind::kDouble;
        dbl.stake = h->double_stake;
        dbl.returned = h->double_stake * ComparisonMultiple(outcome);
        dbl.prize = prize ? 3 * h->double_stake : 0;
        dbl.returned += dbl.prize;
        result_.bets.push_back(dbl);
      }
    }
    if (s.insurance > 0) {
      BetResult ins;
      ins.seat = s.seat;
      ins.kind = BetKind::kInsurance;
      ins.hand = 0;
      ins.stake = s.insurance;
      // BJ-25f/g: paid twice the insurance (3x back), or lost.
      ins.outcome = dealer_bj ? Outcome::kWon : Outcome::kLost;
      ins.returned = dealer_bj ? 3 * s.insurance : 0;
      result_.bets.push_back(ins);
    }
  }
  Finish();
}

void Round::VoidInternal(std::string reason) {
  result_ = RoundResult{};
  result_.voided = true;
  result_.void_reason = reason;
  result_.dealer_cards = dealer_;
  result_.dealer_total = HandTotal(dealer_);
  events_.push_back(RoundVoided{std::move(reason)});
  for (const SeatState& s : seats_) {
    std::vector<const PlayerHand*> by_number;
    for (const PlayerHand& h : s.hands) by_number.push_back(&h);
    std::sort(by_number.begin(), by_number.end(),
              [](const PlayerHand* a, const PlayerHand* b) {
                return a->number < b->number;
              });
    for (const PlayerHand* h : by_number) {
      const BetKind kind = h->number == 1 ? BetKind::kMain : BetKind::kSplit;
      result_.bets.push_back(BetResult{s.seat, kind, h->number, h->stake,
                                       h->stake, Outcome::kVoid, 0});
      if (h->double_stake > 0) {
        result_.bets.push_back(BetResult{s.seat, BetKind::kDouble, h->number,
                                         h->double_stake, h->double_stake,
                                         Outcome::kVoid, 0});
      }
    }
    if (s.insurance > 0) {
      result_.bets.push_back(BetResult{s.seat, BetKind::kInsurance, 0,
                                       s.insurance, s.insurance, Outcome::kVoid,
                                       0});
    }
  }
  Finish();
}

namespace {

// The most one stake may return: insurance pays 2:1; any other stake at
// most its blackjack or even-money win plus the special prize (BJ-25i,
// 3 × the stake). Bounded: stake <= max_bet <= 10^12, terms <= 100.
int64_t MaxReturn(const BetResult& b, const TableSettings& cfg) {
  if (b.kind == BetKind::kInsurance) return 3 * b.stake;
  const int64_t num = cfg.blackjack_pays_num;
  const int64_t den = cfg.blackjack_pays_den;
  const int64_t win = std::max(b.stake, (b.stake * num + den - 1) / den);
  return b.stake + win + 3 * b.stake;
}

// A settled stake is positive and returns between nothing and its largest
// multiple; what it returns matches its outcome (a void or a push gives
// the stake back, a surrender half of it, a loss only a special prize).
void CheckBetSettled(const BetResult& b, const TableSettings& cfg) {
  BANCA_CHECK(b.stake > 0 && b.prize >= 0 && b.returned >= b.prize);
  BANCA_CHECK(b.returned <= MaxReturn(b, cfg));
  switch (b.outcome) {
    case Outcome::kVoid:
      BANCA_CHECK(b.returned == b.stake && b.prize == 0);
      break;
    case Outcome::kPush:
      BANCA_CHECK(b.returned == b.stake + b.prize);
      break;
    case Outcome::kSurrendered:
      BANCA_CHECK(b.returned == b.stake - b.stake / 2 + b.prize);
      break;
    case Outcome::kLost:
      BANCA_CHECK(b.returned == b.prize);
      break;
    case Outcome::kWon:
    case Outcome::kBlackjack:
      BANCA_CHECK(b.returned > b.stake);
      break;
  }
}

}  // namespace

void Round::Finish() {
  phase_ = Phase::kOver;
  result_.seats = seats_;
  result_.cards_used = static_cast<int>(next_card_);
  for (const BetResult& b : result_.bets) {
    CheckBetSettled(b, setup_.settings);
    result_.staked += b.stake;
    result_.returned += b.returned;
    events_.push_back(BetSettled{b});
  }
  // Every stake placed is settled exactly once.
  BANCA_CHECK(result_.staked == staked());
  events_.push_back(
      RoundFinished{result_.voided, result_.staked, result_.returned});
}

absl::Status Round::CheckTurn(int seat) const {
  if (phase_ == Phase::kOver) {
    return absl::FailedPreconditionError("the round is over");
  }
  const int index = IndexOf(seat);
  if (index < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("seat ", seat, " has no bet in this round"));
  }
  if (index != seat_index_) {
    return absl::FailedPreconditionError(
        absl::StrCat("not ", Name(index), "'s turn"));
  }
  return absl::OkStatus();
}

absl::Status Round::ValidatePlay(const SeatState& s, const PlayerHand& h,
                                 const Action& action) const {
  const TableSettings& cfg = setup_.settings;
  const std::string_view name = ActionTypeName(action.type);
  const bool two_cards = h.cards.size() == 2;
  switch (action.type) {
    case ActionType::kHit:
    case ActionType::kStand:
    case ActionType::kSurrender:
      if (action.amount != 0) {
        return Invalid(absl::StrCat(ToAbsl(name), " takes no amount"));
      }
      break;
    case ActionType::kDouble:
    case ActionType::kSplit:
      if (action.amount != 0 && action.amount != h.stake) {
        return Invalid(absl::StrCat("a ", ToAbsl(name),
                                    " must equal the hand's stake (", h.stake,
                                    ")"));
      }
      break;
    case ActionType::kInsurance:
      return absl::FailedPreconditionError(
          "insurance is offered only before play, when the dealer shows an "
          "ace");
  }
  switch (action.type) {
    case ActionType::kHit:
      if (h.split_aces) return Invalid("split aces take one card each");
      return absl::OkStatus();
    case ActionType::kStand:
      return absl::OkStatus();
    case ActionType::kDouble: {
      if (!two_cards) {
        return Invalid("double only on the first two cards of a hand");
      }
      if (h.split_aces) return Invalid("split aces take one card each");
      if (h.from_split && !cfg.double_after_split) {
        return Invalid("this table does not allow doubling after a split");
      }
      const int total = h.total.value;
      if (cfg.double_on == DoubleOn::kNineToEleven &&
          (total < 9 || total > 11)) {
        return Invalid(absl::StrCat(
            "this table doubles only on 9, 10 or 11, not ", total));
      }
      if (cfg.double_on == DoubleOn::kTenOrEleven &&
          (total < 10 || total > 11)) {
        return Invalid(
            absl::StrCat("this table doubles only on 10 or 11, not ", total));
      }
      return absl::OkStatus();
    }
    case ActionType::kSplit: {
      if (!two_cards) return Invalid("split only a hand of two cards");
      const Card a = h.cards[0];
      const Card b = h.cards[1];
      const bool pair =
          a.rank() == b.rank() ||
          (cfg.split_tens_by_value && IsTenValue(a) && IsTenValue(b));
      if (!pair) {
        return Invalid(absl::StrCat("cannot split unequal cards (",
                                    cards::CardToString(a), " ",
                                    cards::CardToString(b), ")"));
      }
      if (static_cast<int>(s.hands.size()) >= cfg.max_split_hands) {
        return Invalid(absl::StrCat("at most ", cfg.max_split_hands,
                                    " hands by splitting at this table"));
      }
      if (h.split_aces && !cfg.resplit_aces) {
        return Invalid("split aces cannot be split again at this table");
      }
      return absl::OkStatus();
    }
    case ActionType::kSurrender:
      if (cfg.surrender == Surrender::kNone) {
        return Invalid("this table does not offer surrender");
      }
      if (!two_cards || h.from_split || s.hands.size() != 1) {
        return Invalid(
            "surrender only on the first two cards of an unsplit hand");
      }
      return absl::OkStatus();
    case ActionType::kInsurance:
      break;
  }
  return absl::InternalError("unknown action");
}

absl::Status Round::Act(int seat, Action action) {
  RETURN_IF_ERROR(CheckTurn(seat));
  if (phase_ == Phase::kInsurance) {
    const SeatState& s = seats_[seat_index_];
    if (action.type != ActionType::kInsurance) {
      return absl::FailedPreconditionError(absl::StrCat(
          s.player,
          " must first take or decline insurance (insurance, amount 0 "
          "declines)"));
    }
    const int64_t max = s.main_stake / 2;
    if (action.amount < 0 || action.amount > max) {
      return Invalid(absl::StrCat("insurance must be 0..", max,
                                  " (at most half the main bet), not ",
                                  action.amount));
    }
    decisions_.push_back({seat, action, false});
    ApplyInsurance(action.amount, false);
    return absl::OkStatus();
  }
  const SeatState& s = seats_[seat_index_];
  const PlayerHand& h = s.hands[hand_index_];
  RETURN_IF_ERROR(ValidatePlay(s, h, action));
  decisions_.push_back({seat, action, false});
  ApplyPlay(action, false);
  return absl::OkStatus();
}

absl::Status Round::Timeout(int seat) {
  RETURN_IF_ERROR(CheckTurn(seat));
  decisions_.push_back({seat, Action{}, true});
  if (phase_ == Phase::kInsurance) {
    ApplyInsurance(0, true);
  } else {
    ApplyPlay(Action{ActionType::kStand, 0}, true);
  }
  return absl::OkStatus();
}

absl::Status Round::Void(std::string reason) {
  if (phase_ == Phase::kOver) {
    return absl::FailedPreconditionError("the round is over");
  }
  if (reason.empty() || reason.size() > 200) {
    return Invalid("a void reason must be 1..200 bytes");
  }
  system_void_ = reason;
  VoidInternal(std::move(reason));
  return absl::OkStatus();
}

void Round::ApplyInsurance(int64_t amount, bool timeout) {
  SeatState& s = seats_[seat_index_];
  s.insurance_decided = true;
  s.insurance = amount;
  events_.push_back(InsuranceDecided{s.seat, amount, timeout});
  if (amount > 0) {
    events_.push_back(StakeAdded{s.seat, BetKind::kInsurance, 0, amount});
  }
  ++seat_index_;
  if (seat_index_ == static_cast<int>(seats_.size())) AfterInsurance();
}

void Round::ApplyPlay(Action action, bool timeout) {
  SeatState& s = seats_[seat_index_];
  PlayerHand& h = s.hands[hand_index_];
  if (action.type == ActionType::kDouble || action.type == ActionType::kSplit) {
    action.amount = h.stake;  // recorded as the stake it moved
  }
  events_.push_back(ActionTaken{s.seat, h.number, action, timeout});
  switch (action.type) {
    case ActionType::kHit: {
      Card c;
      if (!Draw(&c)) {
        VoidInternal("the shoe ran out");
        return;
      }
      h.cards.push_back(c);
      Refresh(h);
      events_.push_back(CardDealt{s.seat, h.number, c});
      break;
    }
    case ActionType::kStand:
      h.stood = true;
      break;
    case ActionType::kDouble: {
      h.double_stake = h.stake;
      events_.push_back(
          StakeAdded{s.seat, BetKind::kDouble, h.number, h.stake});
      Card c;
      if (!Draw(&c)) {
        VoidInternal("the shoe ran out");
        return;
      }
      h.cards.push_back(c);
      Refresh(h);
      h.stood = true;
      events_.push_back(CardDealt{s.seat, h.number, c});
      break;
    }
    case ActionType::kSplit: {
      int number = 0;
      for (const PlayerHand& other : s.hands) {
        number = std::max(number, other.number);
      }
      ++number;
      const bool aces = h.cards[0].rank() == Rank::kAce;
      PlayerHand second;
      second.number = number;
      second.cards = {h.cards[1]};
      second.stake = h.stake;
      second.from_split = true;
      second.split_aces = aces;
      Refresh(second);
      h.cards.pop_back();
      h.from_split = true;
      h.split_aces = aces;
      Refresh(h);
      events_.push_back(HandSplit{s.seat, h.number, number});
      events_.push_back(StakeAdded{s.seat, BetKind::kSplit, number, h.stake});
      // Play order: the new hand straight after the one being split.
      s.hands.insert(s.hands.begin() + hand_index_ + 1, std::move(second));
      break;
    }
    case ActionType::kSurrender:
      h.surrendered = true;
      h.stood = true;
      break;
    case ActionType::kInsurance:
      BANCA_CHECK(false);  // rejected by ValidatePlay
  }
  Advance();
}

LegalActions Round::legal() const {
  LegalActions l;
  if (phase_ == Phase::kOver) return l;
  const SeatState& s = seats_[seat_index_];
  l.seat = s.seat;
  if (phase_ == Phase::kInsurance) {
    l.insurance = true;
    l.max_insurance = s.main_stake / 2;
    return l;
  }
  const PlayerHand& h = s.hands[hand_index_];
  l.hand = h.number;
  auto ok = [&](ActionType t) { return ValidatePlay(s, h, Action{t, 0}).ok(); };
  l.can_hit = ok(ActionType::kHit);
  l.can_stand = true;
  l.can_double = ok(ActionType::kDouble);
  l.can_split = ok(ActionType::kSplit);
  l.can_surrender = ok(ActionType::kSurrender);
  l.double_amount = l.can_double ? h.stake : 0;
  l.split_amount = l.can_split ? h.stake : 0;
  return l;
}

RoundRecord Round::record() const {
  return RoundRecord{setup_, decisions_, !system_void_.empty(), system_void_};
}

RoundView Round::ViewFor(int seat) const {
  RoundView v;
  v.viewer = seat;
  v.round_number = setup_.round_number;
  v.phase = phase_;
  v.seats = seats_;
  v.voided = phase_ == Phase::kOver && result_.voided;
  // The hole card stays hidden until revealed, even in a void round where
  // nobody ever saw it.
  for (size_t i = 0; i < dealer_.size(); ++i) {
    if (i == 1 && !hole_revealed_) {
      v.hole_card_hidden = true;
      continue;
    }
    v.dealer_cards.push_back(dealer_[i]);
  }
  const LegalActions l = legal();
  if (l.seat == seat) {
    v.to_act = l;
  } else {
    v.to_act.seat = l.seat;
    v.to_act.hand = l.hand;
    v.to_act.insurance = l.insurance;
  }
  return v;
}

}  // namespace banca::games::blackjack
