#include "libs/games/poker/phh.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "libs/cards/card.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/money/money.h"

namespace banca::games::poker {
namespace {

using cards::Card;

// --- Small private helpers (table_config.cc belongs to the engine). -------

int HoleCardCount(const TableConfig& config) {
  if (config.hole_cards > 0) return config.hole_cards;
  return config.variant == Variant::kOmaha ? 4 : 2;
}

std::string_view VariantName(Variant v) {
  switch (v) {
    case Variant::kHoldem:
      return "Hold'em";
    case Variant::kOmaha:
      return "Omaha";
    case Variant::kSynthetic:
      return "synthetic poker";
  }
  return "?";
}

std::string_view LimitName(Limit l) {
  switch (l) {
    case Limit::kNoLimit:
      return "no_limit";
    case Limit::kPotLimit:
      return "pot_limit";
    case Limit::kFixedLimit:
      return "fixed_limit";
    case Limit::kHalfPot:
      return "half_pot";
  }
  return "?";
}

std::string_view RakeModeName(RakeMode m) {
  switch (m) {
    case RakeMode::kNone:
      return "none";
    case RakeMode::kPot:
      return "pot";
    case RakeMode::kBuyIn:
      return "buy_in";
  }
  return "?";
}

std::string Money(int64_t cents) {
  const char* sign = cents < 0 ? "-" : "";
  int64_t a = cents < 0 ? -cents : cents;
  return absl::StrFormat("%s%d.%02d", sign, a / 100, a % 100);
}

std::string Cards(const std::vector<Card>& cs) {
  std::string out;
  for (Card c : cs) out += cards::CardToString(c);
  return out;
}

// --- Replaying a record's betting to place boards and showdowns. ----------

// The dealt-in players in PHH order: p1 = first left of the button, ...,
// pn = the button; blinds and first actors in that numbering.
struct Layout {
  int n = 0;
  std::vector<int> order;  // PHH index -> index in record.players
  int sb = 0;
  int bb = 1;
  int preflop_first = 0;
  int deal_start = 0;  // banca deals from the small blind
};

absl::StatusOr<Layout> MakeLayout(const HandRecord& r) {
  Layout l;
  l.n = static_cast<int>(r.players.size());
  if (l.n < 2) {
    return absl::InvalidArgumentError("a hand needs at least two players");
  }
  int button = -1;
  for (int i = 0; i < l.n; ++i) {
    if (i > 0 && r.players[i].seat <= r.players[i - 1].seat) {
      return absl::InvalidArgumentError("players must be in ascending seats");
    }
    if (r.players[i].seat == r.button) button = i;
  }
  if (button < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("button seat ", r.button, " is not dealt in"));
  }
  for (int i = 0; i < l.n; ++i) l.order.push_back((button + 1 + i) % l.n);
  if (l.n == 2 && r.config.heads_up == HeadsUpBlinds::kButtonSmallBlind) {
    l.sb = 1;  // the button
    l.bb = 0;
    l.preflop_first = 1;
  } else {
    // Three or more, and literal heads-up (HE-48 applied to two players:
    // the non-button posts the small blind, the button the big blind).
    l.sb = 0;
    l.bb = 1;
    l.preflop_first = 2 % l.n;
  }
  l.deal_start = l.sb;
  return l;
}

struct Event {
  enum Kind { kBoard, kAction, kShow, kRunout, kStreet } kind = kAction;
  int p = 0;  // PHH index (kAction, kShow)
  std::vector<Card> cards;
  RecordedAction rec;
  std::string verb;  // "f", "cc", "cbr"
  int64_t to = 0;    // cbr: the bet becomes this
  int64_t put = 0;   // chips the action put in
  bool now_all_in = false;
  int street = 0;
};

struct Replay {
  Layout layout;
  std::vector<std::vector<Card>> hole;  // by PHH index
  std::vector<int64_t> blind_posted;    // by PHH index
  std::vector<Event> events;
  std::vector<int64_t> committed;  // by PHH index, whole hand
  std::vector<bool> folded;
  bool finished = false;
  int64_t uncalled = 0;
  int uncalled_to = -1;
};

class Sim {
 public:
  Sim(const HandRecord& r, Layout l) : r_(r) {
    rep_.layout = std::move(l);
    n_ = rep_.layout.n;
    stack_.resize(n_);
    bet_.assign(n_, 0);
    acted_.assign(n_, false);
    rep_.committed.assign(n_, 0);
    rep_.folded.assign(n_, false);
    rep_.blind_posted.assign(n_, 0);
    for (int i = 0; i < n_; ++i) {
      stack_[i] = r.players[rep_.layout.order[i]].stack;
    }
  }

  absl::StatusOr<Replay> Run() {
    const Layout& l = rep_.layout;
    for (int i = 0; i < n_; ++i) {
      if (stack_[i] <= 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("seat ", SeatOf(i), " is dealt in with no chips"));
      }
    }
    // Hole cards from the small blind, round after round.
    const int k = HoleCardCount(r_.config);
    board_count_ = 5;
    if (static_cast<int>(r_.deck.size()) < k * n_) {
      return absl::InvalidArgumentError(
          absl::StrCat("the deck holds ", r_.deck.size(), " cards, ", k * n_,
                       " are needed for the hole cards"));
    }
    rep_.hole.assign(n_, {});
    for (int round = 0; round < k; ++round) {
      for (int j = 0; j < n_; ++j) {
        rep_.hole[(l.deal_start + j) % n_].push_back(r_.deck[next_card_++]);
      }
    }
    Post(l.sb, r_.config.small_blind);
    Post(l.bb, r_.config.big_blind);
    // HE-52, as the engine: to stay in, a player puts in the full big blind
    // even when the big blind itself was posted short (PokerKit asks only
    // for the largest blind posted; docs/hand-histories.md).
    current_ = std::max({bet_[l.sb], bet_[l.bb], r_.config.big_blind});
    actor_ = NextToAct(l.preflop_first);
    if (actor_ < 0) {
      RETURN_IF_ERROR(EndRound());
    }
    int index = 0;
    for (const RecordedAction& a : r_.actions) {
      if (rep_.finished) {
        return absl::InvalidArgumentError(
            absl::StrCat("action ", index, " (seat ", a.seat,
                         ") comes after the hand ended"));
      }
      if (a.seat != SeatOf(actor_)) {
        return absl::InvalidArgumentError(
            absl::StrCat("action ", index, ": seat ", a.seat,
                         " acted, but it is seat ", SeatOf(actor_), "'s turn"));
      }
      RETURN_IF_ERROR(Apply(a, index));
      int next = NextToAct((actor_ + 1) % n_);
      if (next < 0) {
        RETURN_IF_ERROR(EndRound());
      } else {
        actor_ = next;
      }
      ++index;
    }
    if (!rep_.finished && !r_.voided) {
      return absl::InvalidArgumentError(
          absl::StrCat("the record ends before the hand does (seat ",
                       SeatOf(actor_), " to act)"));
    }
    return std::move(rep_);
  }

 private:
  int SeatOf(int p) const { return r_.players[rep_.layout.order[p]].seat; }
  bool Live(int p) const { return !rep_.folded[p] && stack_[p] > 0; }

  void Post(int p, int64_t blind) {
    int64_t amount = std::min(blind, stack_[p]);
    stack_[p] -= amount;
    bet_[p] += amount;
    rep_.committed[p] += amount;
    rep_.blind_posted[p] = amount;
  }

  // First player from `from` clockwise who still has to act, or -1.
  int NextToAct(int from) const {
    int live = 0;
    int64_t max_other = 0;
    for (int i = 0; i < n_; ++i) {
      if (Live(i)) ++live;
    }
    for (int j = 0; j < n_; ++j) {
      int p = (from + j) % n_;
      if (!Live(p)) continue;
      bool needs = !acted_[p] || bet_[p] < current_;
      if (!needs) continue;
      if (live == 1) {
        // Alone with chips: only a bet to call makes them act.
        max_other = 0;
        for (int i = 0; i < n_; ++i) {
          if (i != p && !rep_.folded[i])
            max_other = std::max(max_other, bet_[i]);
        }
        if (bet_[p] >= max_other) return -1;
      }
      return p;
    }
    return -1;
  }

  absl::Status Apply(const RecordedAction& a, int index) {
    Event e;
    e.kind = Event::kAction;
    e.p = actor_;
    e.rec = a;
    e.street = street_;
    const int p = actor_;
    auto bad = [&](std::string_view why) {
      return absl::InvalidArgumentError(absl::StrCat(
          "action ", index, " (seat ", a.seat, "): ", ToAbsl(why)));
    };
    int64_t to = 0;
    switch (a.action.type) {
      case ActionType::kFold:
        rep_.folded[p] = true;
        e.verb = "f";
        break;
      case ActionType::kCheck:
        if (bet_[p] != current_) return bad("check facing a bet");
        e.verb = "cc";
        break;
      case ActionType::kCall: {
        if (bet_[p] >= current_) return bad("call with nothing to call");
        to = std::min(current_, bet_[p] + stack_[p]);
        e.verb = "cc";
        break;
      }
      case ActionType::kBet:
      case ActionType::kRaise: {
        bool is_bet = a.action.type == ActionType::kBet;
        if (is_bet != (current_ == 0)) {
          return bad(is_bet ? "bet when there is a bet (a raise)"
                            : "raise when there is no bet (a bet)");
        }
        to = a.action.amount;
        if (to <= current_) return bad("bet or raise to no more than the bet");
        if (to - bet_[p] > stack_[p])
          return bad("bet or raise beyond the stack");
        e.verb = "cbr";
        break;
      }
      case ActionType::kAllIn:
        to = bet_[p] + stack_[p];
        e.verb = to > current_ ? "cbr" : "cc";
        break;
      case ActionType::kStraddle:
      case ActionType::kRestraddle:
        return absl::UnimplementedError(
            "straddles (synthetic poker) have no PHH form");
    }
    if (e.verb != "f" &&
        !(e.verb == "cc" && a.action.type == ActionType::kCheck)) {
      e.put = to - bet_[p];
      stack_[p] -= e.put;
      rep_.committed[p] += e.put;
      bet_[p] = to;
      if (to > current_) {
        current_ = to;
        last_aggressor_ = p;
      }
      e.to = to;
    }
    e.now_all_in = stack_[p] == 0 && e.verb != "f";
    acted_[p] = true;
    rep_.events.push_back(std::move(e));
    return absl::OkStatus();
  }

  void AddBoard(int count) {
    Event e;
    e.kind = Event::kBoard;
    e.street = street_;
    for (int i = 0; i < count; ++i) e.cards.push_back(r_.deck[next_card_++]);
    rep_.events.push_back(std::move(e));
  }

  void Showdown() {
    int start = (last_aggressor_ >= 0 && !rep_.folded[last_aggressor_])
                    ? last_aggressor_
                    : 0;
    for (int j = 0; j < n_; ++j) {
      int p = (start + j) % n_;
      if (rep_.folded[p]) continue;
      Event e;
      e.kind = Event::kShow;
      e.p = p;
      e.cards = rep_.hole[p];
      rep_.events.push_back(std::move(e));
    }
  }

  void ComputeUncalled() {
    int top = -1;
    int64_t second = 0;
    for (int i = 0; i < n_; ++i) {
      if (top < 0 || rep_.committed[i] > rep_.committed[top]) top = i;
    }
    for (int i = 0; i < n_; ++i) {
      if (i != top) second = std::max(second, rep_.committed[i]);
    }
    if (rep_.committed[top] > second) {
      rep_.uncalled = rep_.committed[top] - second;
      rep_.uncalled_to = top;
    }
  }

  absl::Status NeedCards(int count) {
    if (next_card_ + count > static_cast<int>(r_.deck.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("the deck runs out: ", r_.deck.size(),
                       " cards, the board needs ", next_card_ + count));
    }
    return absl::OkStatus();
  }

  static int StreetCards(int street) { return street == 1 ? 3 : 1; }

  absl::Status EndRound() {
    int in = 0;
    int live = 0;
    for (int i = 0; i < n_; ++i) {
      if (!rep_.folded[i]) ++in;
      if (Live(i)) ++live;
    }
    if (in == 1) {
      rep_.finished = true;
      ComputeUncalled();
      return absl::OkStatus();
    }
    if (street_ == 3 || live <= 1) {
      int remaining = 0;
      for (int s = street_ + 1; s <= 3; ++s) remaining += StreetCards(s);
      RETURN_IF_ERROR(NeedCards(remaining));
      Showdown();
      if (street_ < 3) {
        Event e;
        e.kind = Event::kRunout;
        rep_.events.push_back(e);
      }
      while (street_ < 3) {
        ++street_;
        AddBoard(StreetCards(street_));
      }
      rep_.finished = true;
      ComputeUncalled();
      return absl::OkStatus();
    }
    ++street_;
    RETURN_IF_ERROR(NeedCards(StreetCards(street_)));
    AddBoard(StreetCards(street_));
    std::fill(bet_.begin(), bet_.end(), 0);
    std::fill(acted_.begin(), acted_.end(), false);
    current_ = 0;
    last_aggressor_ = -1;
    actor_ = NextToAct(0);
    if (actor_ < 0) return EndRound();
    return absl::OkStatus();
  }

  const HandRecord& r_;
  Replay rep_;
  int n_ = 0;
  std::vector<int64_t> stack_;
  std::vector<int64_t> bet_;
  std::vector<bool> acted_;
  int64_t current_ = 0;
  int actor_ = 0;
  int street_ = 0;  // 0 pre-flop, 1 flop, 2 turn, 3 river
  int last_aggressor_ = -1;
  int next_card_ = 0;
  int board_count_ = 5;
};

absl::StatusOr<Replay> ReplayRecord(const HandRecord& r) {
  if (r.config.variant == Variant::kSynthetic) {
    return absl::UnimplementedError(
        "synthetic poker has no PHH variant (straddles, one community card "
        "at a time, five betting rounds)");
  }
  ASSIGN_OR_RETURN(auto layout, MakeLayout(r));
  Sim sim(r, std::move(layout));
  return sim.Run();
}

// --- TOML writing. --------------------------------------------------------

std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += absl::StrFormat("\\u%04x", static_cast<int>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

template <typename T>
std::string IntList(const std::vector<T>& v) {
  return absl::StrCat("[", absl::StrJoin(v, ", "), "]");
}

// How a file's amounts are written: in a currency's major units ("12.34"
// for 1234 cents) when the hand is money, as integers (chips) otherwise.
struct AmountUnit {
  bool major = false;
  std::string currency;  // with `major`

  std::string Text(int64_t amount) const {
    return major ? money::FormatMinor(amount) : absl::StrCat(amount);
  }
  std::string List(const std::vector<int64_t>& amounts) const {
    std::vector<std::string> texts;
    for (int64_t a : amounts) texts.push_back(Text(a));
    return absl::StrCat("[", absl::StrJoin(texts, ", "), "]");
  }
  std::string_view Name() const { return major ? "major" : "integer"; }
};

absl::StatusOr<std::string> VariantCode(const TableConfig& c) {
  if (c.variant == Variant::kHoldem && c.limit == Limit::kNoLimit) return "NT";
  if (c.variant == Variant::kHoldem && c.limit == Limit::kFixedLimit) {
    if (c.max_raises_per_round != 3) {
      return absl::UnimplementedError(
          "PHH FT allows four bets a round (max_raises_per_round = 3)");
    }
    return "FT";
  }
  if (c.variant == Variant::kOmaha && c.limit == Limit::kPotLimit) return "PO";
  return absl::UnimplementedError(absl::StrCat(
      "PHH has no variant code for ", ToAbsl(VariantName(c.variant)), " ",
      ToAbsl(LimitName(c.limit))));
}

// The PHH `actions` list of a replayed hand: the hole cards dealt, then
// every board deal, action and show in order.
std::string PhhActionList(const Replay& replay, const AmountUnit& unit) {
  std::vector<std::string> actions;
  for (int i = 0; i < replay.layout.n; ++i) {
    actions.push_back(
        absl::StrCat("d dh p", i + 1, " ", Cards(replay.hole[i])));
  }
  for (const Event& e : replay.events) {
    switch (e.kind) {
      case Event::kBoard:
        actions.push_back(absl::StrCat("d db ", Cards(e.cards)));
        break;
      case Event::kShow:
        actions.push_back(absl::StrCat("p", e.p + 1, " sm ", Cards(e.cards)));
        break;
      case Event::kAction: {
        std::string s = absl::StrCat("p", e.p + 1, " ", e.verb);
        if (e.verb == "cbr") absl::StrAppend(&s, " ", unit.Text(e.to));
        if (e.rec.action.type == ActionType::kAllIn) {
          absl::StrAppend(&s, " # all-in");
        } else if (e.rec.timeout) {
          absl::StrAppend(&s, " # timeout");
        }
        actions.push_back(std::move(s));
        break;
      }
      case Event::kRunout:
      case Event::kStreet:
        break;
    }
  }
  std::string action_text = "[\n";
  for (const std::string& a : actions) {
    absl::StrAppend(&action_text, "  ", Quote(a), ",\n");
  }
  action_text += "]";
  return action_text;
}

using AddField =
    absl::FunctionRef<void(std::string_view key, std::string_view value)>;

// banca's own `_banca_` fields: what PHH has no key for, so that ParsePhh
// reads back exactly the record that was written.
void AddBancaFields(const HandRecord& record, const PhhExtras& extras,
                    const AmountUnit& unit, AddField add) {
  const TableConfig& c = record.config;
  add("_banca_amount_unit", Quote(unit.Name()));
  add("_banca_variant",
      Quote(c.variant == Variant::kOmaha ? "omaha" : "holdem"));
  add("_banca_limit", Quote(LimitName(c.limit)));
  add("_banca_heads_up",
      Quote(c.heads_up == HeadsUpBlinds::kLiteral ? "literal"
                                                  : "button_small_blind"));
  add("_banca_button_seat", absl::StrCat(record.button));
  add("_banca_small_blind", unit.Text(c.small_blind));
  add("_banca_big_blind", unit.Text(c.big_blind));
  add("_banca_max_raises_per_round", absl::StrCat(c.max_raises_per_round));
  add("_banca_buy_in_min", unit.Text(c.buy_in_min));
  add("_banca_buy_in_max", unit.Text(c.buy_in_max));
  add("_banca_rake_mode", Quote(RakeModeName(c.rake.mode)));
  add("_banca_rake_bps", absl::StrCat(c.rake.bps));
  add("_banca_rake_cap", unit.Text(c.rake.cap));
  add("_banca_straddles", c.straddles ? "true" : "false");
  add("_banca_hole_cards", absl::StrCat(c.hole_cards));
  add("_banca_odd_chip", Quote("clockwise_from_left_of_button"));
  add("_banca_rake_rounding", Quote("down_per_pot"));
  add("_banca_table_id", Quote(record.table_id));
  if (!extras.table_name.empty()) {
    add("_banca_table_name", Quote(extras.table_name));
  }
  if (!extras.timestamp.empty()) {
    add("_banca_timestamp", Quote(extras.timestamp));
  }
  add("_banca_deck", Quote(Cards(record.deck)));
  add("_banca_voided", record.voided ? "true" : "false");
  if (!extras.pots.empty()) {
    std::vector<int64_t> amounts, rakes;
    std::vector<std::string> winners;
    for (const PhhPot& p : extras.pots) {
      amounts.push_back(p.amount);
      rakes.push_back(p.rake);
      winners.push_back(IntList(p.winner_seats));
    }
    add("_banca_pot_amounts", unit.List(amounts));
    add("_banca_pot_rake", unit.List(rakes));
    add("_banca_pot_winner_seats",
        absl::StrCat("[", absl::StrJoin(winners, ", "), "]"));
  }
}

// The game: variant, forced bets, bet sizes, stacks and actions.
void AddGameFields(const HandRecord& record, const Replay& replay,
                   std::string_view code, const AmountUnit& unit,
                   AddField add) {
  const Layout& l = replay.layout;
  const TableConfig& c = record.config;
  const int n = l.n;
  add("variant", Quote(code));
  add("antes", unit.List(std::vector<int64_t>(n, 0)));
  std::vector<int64_t> blinds(n, 0);
  if (n == 2) {
    // PokerKit reverses the list for two players (p1 posts blinds[1]).
    blinds[1 - l.sb] = c.small_blind;
    blinds[1 - l.bb] = c.big_blind;
  } else {
    blinds[l.sb] = c.small_blind;
    blinds[l.bb] = c.big_blind;
  }
  add("blinds_or_straddles", unit.List(blinds));
  if (code == "FT") {
    add("small_bet", unit.Text(c.big_blind));
    add("big_bet", unit.Text(2 * c.big_blind));
  } else {
    add("min_bet", unit.Text(c.big_blind));
  }
  std::vector<int64_t> stacks;
  for (int i = 0; i < n; ++i)
    stacks.push_back(record.players[l.order[i]].stack);
  add("starting_stacks", unit.List(stacks));
  add("actions", PhhActionList(replay, unit));
}

// When and where: the labels, the time (UTC), the hand, table and seats.
void AddLabelFields(const HandRecord& record, const Layout& l,
                    const PhhExtras& extras, AddField add) {
  if (!extras.author.empty()) add("author", Quote(extras.author));
  if (!extras.event.empty()) add("event", Quote(extras.event));
  const std::string& ts = extras.timestamp;
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (ts.size() == 20 && ts[19] == 'Z' &&
      std::sscanf(ts.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ", &y, &mo, &d, &h, &mi,
                  &s) == 6) {
    add("time", absl::StrFormat("%02d:%02d:%02d", h, mi, s));
    add("time_zone", Quote("UTC"));
    add("day", absl::StrCat(d));
    add("month", absl::StrCat(mo));
    add("year", absl::StrCat(y));
  }
  add("hand", absl::StrCat(record.hand_number));
  if (!record.table_id.empty()) add("table", Quote(record.table_id));
  std::vector<int> seats;
  std::vector<std::string> names;
  for (int i = 0; i < l.n; ++i) {
    const SeatedPlayer& sp = record.players[l.order[i]];
    seats.push_back(sp.seat);
    names.push_back(Quote(sp.player));
  }
  add("seats", IntList(seats));
  add("seat_count", absl::StrCat(record.config.seats));
  add("players", absl::StrCat("[", absl::StrJoin(names, ", "), "]"));
  if (extras.time_limit_seconds > 0) {
    add("time_limit", absl::StrCat(extras.time_limit_seconds));
  }
}

// Per player (given in ascending seat order), in PHH order.
std::vector<int64_t> InPhhOrder(const Layout& l,
                                const std::vector<int64_t>& by_seat) {
  std::vector<int64_t> out;
  for (int i = 0; i < l.n; ++i) out.push_back(by_seat[l.order[i]]);
  return out;
}

}  // namespace

absl::StatusOr<std::string> WritePhh(const HandRecord& record,
                                     const PhhExtras& extras) {
  ASSIGN_OR_RETURN(auto code, VariantCode(record.config));
  ASSIGN_OR_RETURN(auto replay, ReplayRecord(record));
  const Layout& l = replay.layout;
  for (const std::vector<int64_t>* per_player :
       {&extras.finishing_stacks, &extras.winnings}) {
    if (!per_player->empty() && static_cast<int>(per_player->size()) != l.n) {
      return absl::InvalidArgumentError(
          "finishing_stacks and winnings must have one entry per player");
    }
  }
  AmountUnit unit;
  if (!extras.currency.empty()) {
    if (!money::IsCurrencyCode(extras.currency)) {
      return absl::InvalidArgumentError(
          absl::StrCat("currency \"", extras.currency.substr(0, 8),
                       "\" is not an ISO 4217 code"));
    }
    unit = {true, extras.currency};
  }

  std::vector<std::string> lines;
  auto add = [&](std::string_view key, std::string_view value) {
    lines.push_back(absl::StrCat(ToAbsl(key), " = ", ToAbsl(value)));
  };
  AddGameFields(record, replay, code, unit, add);
  AddLabelFields(record, l, extras, add);
  if (!extras.finishing_stacks.empty()) {
    add("finishing_stacks", unit.List(InPhhOrder(l, extras.finishing_stacks)));
  }
  if (!extras.winnings.empty()) {
    add("winnings", unit.List(InPhhOrder(l, extras.winnings)));
  }
  if (unit.major) add("currency", Quote(unit.currency));
  AddBancaFields(record, extras, unit, add);
  return absl::StrCat(absl::StrJoin(lines, "\n"), "\n");
}

// --- TOML reading (the subset PHH files use). -----------------------------

namespace {

struct Value {
  enum Kind { kInt, kFloat, kString, kBool, kArray, kBare } kind = kBare;
  int64_t i = 0;
  std::string s;  // kString, kBare, kFloat (its text)
  bool b = false;
  std::vector<Value> items;
};

using Table = std::map<std::string, Value>;

class TomlReader {
 public:
  explicit TomlReader(std::string_view t) : t_(t) {}

  absl::StatusOr<Table> Read() {
    Table out;
    while (true) {
      SkipSpace(true);
      if (pos_ >= t_.size()) break;
      if (t_[pos_] == '[') {
        return Error("tables ([section]) are not part of PHH hand files");
      }
      std::string key;
      if (t_[pos_] == '"' || t_[pos_] == '\'') {
        ASSIGN_OR_RETURN(key, ReadString());
      } else {
        while (pos_ < t_.size() &&
               (std::isalnum(static_cast<unsigned char>(t_[pos_])) ||
                t_[pos_] == '_' || t_[pos_] == '-')) {
          key += t_[pos_++];
        }
      }
      if (key.empty()) return Error("expected a key");
      SkipSpace(false);
      if (pos_ >= t_.size() || t_[pos_] != '=') return Error("expected '='");
      ++pos_;
      SkipSpace(false);
      ASSIGN_OR_RETURN(auto v, ReadValue());
      if (out.count(key)) return Error(absl::StrCat("duplicate key ", key));
      out[key] = std::move(v);
    }
    return out;
  }

 private:
  absl::Status Error(std::string_view why) const {
    int line = 1;
    for (size_t i = 0; i < pos_ && i < t_.size(); ++i) line += t_[i] == '\n';
    return absl::InvalidArgumentError(
        absl::StrCat("PHH line ", line, ": ", ToAbsl(why)));
  }

  void SkipSpace(bool newlines) {
    while (pos_ < t_.size()) {
      char c = t_[pos_];
      if (c == ' ' || c == '\t' || c == '\r' || (newlines && c == '\n')) {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < t_.size() && t_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  absl::StatusOr<std::string> ReadString() {
    char q = t_[pos_];
    bool multi = t_.substr(pos_, 3) == std::string(3, q);
    pos_ += multi ? 3 : 1;
    if (multi && pos_ < t_.size() && t_[pos_] == '\n') ++pos_;
    std::string out;
    while (pos_ < t_.size()) {
      char c = t_[pos_];
      if (multi ? t_.substr(pos_, 3) == std::string(3, q) : c == q) {
        pos_ += multi ? 3 : 1;
        return out;
      }
      if (!multi && c == '\n') return Error("unterminated string");
      if (q == '"' && c == '\\') {
        if (pos_ + 1 >= t_.size()) break;
        char e = t_[pos_ + 1];
        pos_ += 2;
        switch (e) {
          case 'n':
            out += '\n';
            break;
          case 't':
            out += '\t';
            break;
          case '"':
          case '\\':
            out += e;
            break;
          case 'u': {
            if (pos_ + 4 > t_.size()) return Error("bad \\u escape");
            unsigned code = 0;
            for (char h : t_.substr(pos_, 4)) {
              if (!std::isxdigit(static_cast<unsigned char>(h))) {
                return Error("bad \\u escape");
              }
              code = code * 16 + (std::isdigit(static_cast<unsigned char>(h))
                                      ? h - '0'
                                      : std::tolower(h) - 'a' + 10);
            }
            pos_ += 4;
            if (code < 0x80) {
              out += static_cast<char>(code);
            } else {
              return Error("non-ASCII \\u escapes are not supported");
            }
            break;
          }
          default:
            return Error("unsupported escape");
        }
        continue;
      }
      out += c;
      ++pos_;
    }
    return Error("unterminated string");
  }

  absl::StatusOr<Value> ReadValue() {
    if (pos_ >= t_.size()) return Error("expected a value");
    Value v;
    char c = t_[pos_];
    if (c == '"' || c == '\'') {
      ASSIGN_OR_RETURN(auto s, ReadString());
      v.kind = Value::kString;
      v.s = std::move(s);
      return v;
    }
    if (c == '[') {
      ++pos_;
      v.kind = Value::kArray;
      while (true) {
        SkipSpace(true);
        if (pos_ >= t_.size()) return Error("unterminated array");
        if (t_[pos_] == ']') {
          ++pos_;
          return v;
        }
        ASSIGN_OR_RETURN(auto item, ReadValue());
        v.items.push_back(std::move(item));
        SkipSpace(true);
        if (pos_ < t_.size() && t_[pos_] == ',') ++pos_;
      }
    }
    std::string bare;
    while (pos_ < t_.size() && t_[pos_] != ',' && t_[pos_] != ']' &&
           t_[pos_] != '\n' && t_[pos_] != '#') {
      bare += t_[pos_++];
    }
    while (!bare.empty() &&
           (bare.back() == ' ' || bare.back() == '\t' || bare.back() == '\r')) {
      bare.pop_back();
    }
    if (bare == "true" || bare == "false") {
      v.kind = Value::kBool;
      v.b = bare == "true";
      return v;
    }
    std::string digits;
    for (char ch : bare) {
      if (ch != '_') digits += ch;
    }
    bool is_int = !digits.empty();
    for (size_t i = 0; i < digits.size(); ++i) {
      if (!(std::isdigit(static_cast<unsigned char>(digits[i])) ||
            (i == 0 && (digits[i] == '-' || digits[i] == '+')))) {
        is_int = false;
      }
    }
    if (is_int && digits != "-" && digits != "+") {
      v.kind = Value::kInt;
      if (!absl::SimpleAtoi(digits, &v.i)) {
        return Error(absl::StrCat(bare, " is out of the 64-bit range"));
      }
      return v;
    }
    v.kind = bare.find_first_of(".eE") != std::string::npos &&
                     bare.find(':') == std::string::npos &&
                     bare.find_first_of("0123456789") != std::string::npos
                 ? Value::kFloat
                 : Value::kBare;
    v.s = bare;
    return v;
  }

  std::string_view t_;
  size_t pos_ = 0;
};

absl::StatusOr<int64_t> GetInt(const Table& t, const std::string& key) {
  auto it = t.find(key);
  if (it == t.end()) return absl::NotFoundError(absl::StrCat("no ", key));
  if (it->second.kind == Value::kFloat) {
    return absl::UnimplementedError(absl::StrCat(
        key, " = ", it->second.s, ": amounts must be whole cents"));
  }
  if (it->second.kind != Value::kInt) {
    return absl::InvalidArgumentError(absl::StrCat(key, " is not an integer"));
  }
  return it->second.i;
}

absl::StatusOr<std::vector<int64_t>> GetIntList(const Table& t,
                                                const std::string& key) {
  auto it = t.find(key);
  if (it == t.end()) return absl::NotFoundError(absl::StrCat("no ", key));
  if (it->second.kind != Value::kArray) {
    return absl::InvalidArgumentError(absl::StrCat(key, " is not a list"));
  }
  std::vector<int64_t> out;
  for (const Value& v : it->second.items) {
    if (v.kind == Value::kFloat) {
      return absl::UnimplementedError(
          absl::StrCat(key, " holds ", v.s, ": amounts must be whole cents"));
    }
    if (v.kind != Value::kInt) {
      return absl::InvalidArgumentError(
          absl::StrCat(key, " holds a non-integer"));
    }
    out.push_back(v.i);
  }
  return out;
}

std::optional<std::string> GetString(const Table& t, const std::string& key) {
  auto it = t.find(key);
  if (it == t.end() || it->second.kind != Value::kString) return std::nullopt;
  return it->second.s;
}

int64_t IntOr(const Table& t, const std::string& key, int64_t fallback) {
  auto v = GetInt(t, key);
  return v.ok() ? *v : fallback;
}

// The unit of a file's amounts (phh.h): `_banca_amount_unit`; else
// integers in a banca file written before that field (it has
// `_banca_deck`); else major units when the file names a currency.
absl::StatusOr<AmountUnit> ReadAmountUnit(const Table& t) {
  const std::optional<std::string> currency = GetString(t, "currency");
  if (currency && !money::IsCurrencyCode(*currency)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "currency \"", currency->substr(0, 8), "\" is not an ISO 4217 code"));
  }
  bool major = currency.has_value() && !t.contains("_banca_deck");
  if (const std::optional<std::string> named =
          GetString(t, "_banca_amount_unit")) {
    if (*named != "major" && *named != "integer") {
      return absl::InvalidArgumentError(
          "_banca_amount_unit must be \"major\" or \"integer\"");
    }
    major = *named == "major";
    if (major && !currency) {
      return absl::InvalidArgumentError(
          "_banca_amount_unit = \"major\" needs a currency");
    }
  }
  return AmountUnit{major, major ? *currency : ""};
}

// A decimal in major units ("12.34", "1_000.5") as cents.
absl::StatusOr<int64_t> MajorToMinor(std::string_view text,
                                     const AmountUnit& unit,
                                     std::string_view key) {
  std::string digits;
  for (char c : text) {
    if (c != '_') digits += c;
  }
  absl::StatusOr<money::Amount> amount =
      money::Parse(absl::StrCat(digits, " ", unit.currency));
  if (!amount.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(key), ": ", amount.status().message()));
  }
  return amount->minor;
}

// One amount as banca holds it (cents, or chips).
absl::StatusOr<int64_t> AmountOf(const Value& v, const AmountUnit& unit,
                                 std::string_view key) {
  if (v.kind == Value::kFloat) {
    if (unit.major) return MajorToMinor(v.s, unit, key);
    return absl::UnimplementedError(
        absl::StrCat(ToAbsl(key), " holds ", v.s,
                     ": without a currency, amounts must be whole chips"));
  }
  if (v.kind != Value::kInt) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(key), " holds a non-number"));
  }
  if (!unit.major) return v.i;
  absl::StatusOr<int64_t> minor = money::Mul(v.i, 100);
  if (!minor.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(key), " = ", v.i, " is out of range"));
  }
  return *minor;
}

absl::StatusOr<int64_t> GetAmount(const Table& t, const std::string& key,
                                  const AmountUnit& unit) {
  auto it = t.find(key);
  if (it == t.end()) return absl::NotFoundError(absl::StrCat("no ", key));
  return AmountOf(it->second, unit, key);
}

int64_t AmountOr(const Table& t, const std::string& key, const AmountUnit& unit,
                 int64_t fallback) {
  auto v = GetAmount(t, key, unit);
  return v.ok() ? *v : fallback;
}

absl::StatusOr<std::vector<int64_t>> GetAmountList(const Table& t,
                                                   const std::string& key,
                                                   const AmountUnit& unit) {
  auto it = t.find(key);
  if (it == t.end()) return absl::NotFoundError(absl::StrCat("no ", key));
  if (it->second.kind != Value::kArray) {
    return absl::InvalidArgumentError(absl::StrCat(key, " is not a list"));
  }
  std::vector<int64_t> out;
  for (const Value& v : it->second.items) {
    ASSIGN_OR_RETURN(int64_t amount, AmountOf(v, unit, key));
    out.push_back(amount);
  }
  return out;
}

absl::StatusOr<std::vector<Card>> ParseCardRun(std::string_view s,
                                               std::string_view what) {
  if (s.find('?') != std::string_view::npos) {
    return absl::FailedPreconditionError(absl::StrCat(
        ToAbsl(what), " are hidden (", ToAbsl(s),
        "): the hand cannot be replayed without every dealt card"));
  }
  return cards::ParseCards(s);
}

std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// A ParsePhh-side betting tracker: turns cc / cbr into banca's action types.
struct ParseState {
  std::vector<int64_t> stack, bet;
  int64_t current = 0;
};

// The game: PHH's variant code as banca's variant and limit.
absl::Status ReadVariant(const Table& t, PhhHand& hand) {
  TableConfig& c = hand.record.config;
  auto variant = GetString(t, "variant");
  if (!variant) return absl::InvalidArgumentError("no variant");
  hand.variant = *variant;
  if (*variant == "NT") {
    c.variant = Variant::kHoldem;
    c.limit = Limit::kNoLimit;
  } else if (*variant == "FT") {
    c.variant = Variant::kHoldem;
    c.limit = Limit::kFixedLimit;
  } else if (*variant == "PO") {
    c.variant = Variant::kOmaha;
    c.limit = Limit::kPotLimit;
  } else {
    return absl::UnimplementedError(
        absl::StrCat("PHH variant ", *variant, " is not a game banca runs"));
  }
  return absl::OkStatus();
}

// The forced bets of `n` players: no antes, two blinds and no straddle,
// heads-up blinds as `_banca_heads_up` says, and fixed-limit bet sizes.
absl::Status ReadBlinds(const Table& t, int n, const AmountUnit& unit,
                        TableConfig& c) {
  ASSIGN_OR_RETURN(auto antes, GetAmountList(t, "antes", unit));
  for (int64_t a : antes) {
    if (a != 0) return absl::UnimplementedError("banca has no antes");
  }
  ASSIGN_OR_RETURN(auto blinds, GetAmountList(t, "blinds_or_straddles", unit));
  if (static_cast<int>(blinds.size()) != n) {
    return absl::InvalidArgumentError(
        "blinds_or_straddles must have one entry per player");
  }
  for (int i = 2; i < n; ++i) {
    if (blinds[i] != 0) {
      return absl::UnimplementedError(
          "straddles in PHH are not supported (Hold'em and Omaha have none)");
    }
  }
  // Heads-up: PokerKit has p1 post blinds[1], p2 post blinds[0].
  auto hu = GetString(t, "_banca_heads_up");
  if (n == 2) {
    int64_t b0 = blinds[0], b1 = blinds[1];
    bool literal = hu ? *hu == "literal" : b0 > b1;
    c.heads_up =
        literal ? HeadsUpBlinds::kLiteral : HeadsUpBlinds::kButtonSmallBlind;
    c.small_blind = std::min(b0, b1);
    c.big_blind = std::max(b0, b1);
    if ((literal && b0 < b1) || (!literal && b0 > b1)) {
      return absl::InvalidArgumentError(
          "_banca_heads_up contradicts blinds_or_straddles");
    }
  } else {
    c.small_blind = blinds[0];
    c.big_blind = blinds[1];
    if (hu && *hu == "button_small_blind") {
      c.heads_up = HeadsUpBlinds::kButtonSmallBlind;
    }
  }
  if (c.limit == Limit::kFixedLimit) {
    int64_t small_bet = AmountOr(t, "small_bet", unit, -1);
    int64_t big_bet = AmountOr(t, "big_bet", unit, -1);
    if (small_bet != c.big_blind || big_bet != 2 * small_bet) {
      return absl::UnimplementedError(
          "banca's fixed limit has small bet = big blind, big bet = twice it");
    }
  }
  return absl::OkStatus();
}

// The rest of the table's configuration, from banca's own `_banca_` keys.
absl::Status ReadBancaConfig(const Table& t, std::string_view variant,
                             const AmountUnit& unit, TableConfig& c) {
  c.max_raises_per_round =
      static_cast<int>(IntOr(t, "_banca_max_raises_per_round", 3));
  c.buy_in_min = AmountOr(t, "_banca_buy_in_min", unit, c.buy_in_min);
  c.buy_in_max = AmountOr(t, "_banca_buy_in_max", unit, c.buy_in_max);
  if (auto m = GetString(t, "_banca_rake_mode")) {
    c.rake.mode = *m == "pot"      ? RakeMode::kPot
                  : *m == "buy_in" ? RakeMode::kBuyIn
                                   : RakeMode::kNone;
  }
  c.rake.bps = static_cast<int32_t>(IntOr(t, "_banca_rake_bps", 0));
  c.rake.cap = AmountOr(t, "_banca_rake_cap", unit, 0);
  if (auto it = t.find("_banca_straddles");
      it != t.end() && it->second.kind == Value::kBool) {
    c.straddles = it->second.b;
  }
  c.hole_cards = static_cast<int>(IntOr(t, "_banca_hole_cards", 0));
  if (auto lim = GetString(t, "_banca_limit");
      lim && *lim != LimitName(c.limit)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "_banca_limit ", *lim, " contradicts variant ", ToAbsl(variant)));
  }
  return absl::OkStatus();
}

// The players (seats, names, stacks) in ascending seat order, the button,
// and the hand's number, table and void. Returns each PHH player's seat.
absl::StatusOr<std::vector<int64_t>> ReadPlayers(
    const Table& t, const std::vector<int64_t>& stacks, PhhHand& hand) {
  HandRecord& r = hand.record;
  const int n = static_cast<int>(stacks.size());
  std::vector<int64_t> seats;
  if (auto s = GetIntList(t, "seats"); s.ok()) {
    seats = *s;
    if (static_cast<int>(seats.size()) != n) {
      return absl::InvalidArgumentError("seats must have one entry per player");
    }
  } else {
    for (int i = 0; i < n; ++i) seats.push_back(i + 1);
  }
  int64_t max_seat = *std::max_element(seats.begin(), seats.end());
  r.config.seats =
      static_cast<int>(IntOr(t, "seat_count", std::max<int64_t>(n, max_seat)));
  std::vector<std::string> names;
  if (auto it = t.find("players"); it != t.end()) {
    for (const Value& v : it->second.items) names.push_back(v.s);
  }
  hand.has_player_names = names.size() == static_cast<size_t>(n);
  if (!hand.has_player_names) {
    names.clear();
    for (int i = 0; i < n; ++i) names.push_back(absl::StrCat("p", i + 1));
  }
  r.button = static_cast<int>(seats[n - 1]);
  if (auto b = GetInt(t, "_banca_button_seat"); b.ok() && *b != r.button) {
    return absl::InvalidArgumentError(
        "_banca_button_seat is not the last player's seat");
  }
  r.hand_number = IntOr(t, "hand", 0);
  if (auto id = GetString(t, "_banca_table_id")) {
    r.table_id = *id;
  } else if (auto it = t.find("table"); it != t.end()) {
    r.table_id = it->second.kind == Value::kInt ? absl::StrCat(it->second.i)
                                                : it->second.s;
  }
  if (auto it = t.find("_banca_voided");
      it != t.end() && it->second.kind == Value::kBool) {
    r.voided = it->second.b;
  }
  // Players in ascending seat order; PHH index -> record index.
  std::vector<int> by_seat(n);
  for (int i = 0; i < n; ++i) by_seat[i] = i;
  std::sort(by_seat.begin(), by_seat.end(),
            [&](int a, int b) { return seats[a] < seats[b]; });
  std::vector<int> phh_to_record(n);
  for (int k = 0; k < n; ++k) {
    phh_to_record[by_seat[k]] = k;
    r.players.push_back(SeatedPlayer{static_cast<int>(seats[by_seat[k]]),
                                     names[by_seat[k]], stacks[by_seat[k]]});
    if (k > 0 && r.players[k].seat == r.players[k - 1].seat) {
      return absl::InvalidArgumentError("two players share a seat");
    }
  }
  // PHH order must be clockwise from left of the button.
  for (int i = 0; i < n; ++i) {
    if (phh_to_record[i] != (phh_to_record[n - 1] + 1 + i) % n) {
      return absl::InvalidArgumentError(
          "players are not in order from the first seat left of the button");
    }
  }
  return seats;
}

// Reads the `actions` list, entry by entry: the dealt cards, and the
// players' actions as a simple tracker of the betting reads them (a `cc`
// is a check or a call, a `cbr` a bet or a raise).
class ActionReader {
 public:
  // `seats`: each PHH player's seat. `failed` (may be null) receives the
  // entry an error is about.
  ActionReader(PhhHand& hand, const std::vector<int64_t>& seats,
               const std::vector<int64_t>& stacks, const Layout& layout,
               const AmountUnit& unit, bool strict, PhhActionError* failed)
      : hand_(hand),
        seats_(seats),
        n_(static_cast<int>(stacks.size())),
        unit_(unit),
        strict_(strict),
        failed_(failed),
        hole_(n_) {
    const TableConfig& c = hand.record.config;
    ps_.stack = stacks;
    ps_.bet.assign(n_, 0);
    Post(layout.sb, c.small_blind);
    Post(layout.bb, c.big_blind);
    // HE-52: the full big blind, even when it was posted short (as Sim).
    ps_.current =
        std::max({ps_.bet[layout.sb], ps_.bet[layout.bb], c.big_blind});
  }

  // Entry `at` (0-based) of the list.
  absl::Status Read(const std::string& entry, int at) {
    hand_.actions.push_back(entry);
    std::string_view line = entry;
    std::string_view comment;
    if (size_t h = line.find('#'); h != std::string_view::npos) {
      comment = line.substr(h + 1);
      line = line.substr(0, h);
    }
    const std::vector<std::string_view> w = Words(line);
    if (w.empty()) return absl::OkStatus();
    absl::Status s =
        w[0] == "d" ? ReadDealer(w, at) : ReadPlayer(w, comment, at);
    if (s.ok()) return s;
    // "action N 'TEXT': REASON", N 0-based, as ReplayPhh words its errors.
    if (failed_ != nullptr) {
      *failed_ = PhhActionError{at, entry, std::string(s.message())};
    }
    return absl::Status(
        s.code(),
        absl::StrCat("action ", at, " '", ToAbsl(entry), "': ", s.message()));
  }

  const std::vector<std::vector<Card>>& hole() const { return hole_; }
  const std::vector<Card>& board() const { return board_; }

 private:
  static absl::Status Bad(std::string_view why) {
    return absl::InvalidArgumentError(ToAbsl(why));
  }

  void Post(int p, int64_t blind) {
    int64_t a = std::min(blind, ps_.stack[p]);
    ps_.stack[p] -= a;
    ps_.bet[p] += a;
  }

  absl::Status ReadDealer(const std::vector<std::string_view>& w, int at) {
    if (w.size() >= 2 && w[1] == "db" && w.size() == 3) {
      ASSIGN_OR_RETURN(std::vector<Card> cs, ParseCardRun(w[2], "board cards"));
      board_.insert(board_.end(), cs.begin(), cs.end());
      hand_.board_deals.push_back({at, cs});
      std::fill(ps_.bet.begin(), ps_.bet.end(), 0);
      ps_.current = 0;
      return absl::OkStatus();
    }
    if (w.size() == 4 && w[1] == "dh" && w[2].size() > 1 && w[2][0] == 'p') {
      int p = std::atoi(std::string(w[2].substr(1)).c_str()) - 1;
      if (p < 0 || p >= n_) return Bad("no such player");
      ASSIGN_OR_RETURN(
          std::vector<Card> cs,
          ParseCardRun(w[3], absl::StrCat("the hole cards of ", ToAbsl(w[2]))));
      hole_[p].insert(hole_[p].end(), cs.begin(), cs.end());
      return absl::OkStatus();
    }
    return Bad("unsupported dealer action");
  }

  absl::Status ReadPlayer(const std::vector<std::string_view>& w,
                          std::string_view comment, int at) {
    if (w[0].size() < 2 || w[0][0] != 'p') return Bad("unknown actor");
    int p = std::atoi(std::string(w[0].substr(1)).c_str()) - 1;
    if (p < 0 || p >= n_ || w.size() < 2) return Bad("no such player");
    if (w[1] == "sm") {
      if (w.size() == 3 && w[2] != "-") {
        RETURN_IF_ERROR(ParseCardRun(w[2], "shown cards").status());
      }
      return absl::OkStatus();
    }
    RecordedAction ra;
    ra.seat = static_cast<int>(seats_[p]);
    const bool all_in = comment.find("all-in") != std::string_view::npos;
    ra.timeout = comment.find("timeout") != std::string_view::npos;
    int64_t to = ps_.bet[p];
    if (w[1] == "f" && w.size() == 2) {
      ra.action.type = ActionType::kFold;
    } else if (w[1] == "cc" && w.size() == 2) {
      ra.action.type =
          ps_.bet[p] >= ps_.current ? ActionType::kCheck : ActionType::kCall;
      to = std::min(ps_.current, ps_.bet[p] + ps_.stack[p]);
      to = std::max(to, ps_.bet[p]);
    } else if (w[1] == "cbr" && w.size() == 3) {
      ASSIGN_OR_RETURN(to, ReadAmount(w[2]));
      ra.action.type = ps_.current == 0 ? ActionType::kBet : ActionType::kRaise;
      ra.action.amount = to;
    } else {
      return Bad("unsupported player action");
    }
    if (all_in) ra.action = Action{ActionType::kAllIn, 0};
    if (strict_ && to - ps_.bet[p] > ps_.stack[p]) {
      return Bad("beyond the stack");
    }
    ps_.stack[p] -= to - ps_.bet[p];
    ps_.bet[p] = to;
    ps_.current = std::max(ps_.current, to);
    hand_.record.actions.push_back(ra);
    hand_.action_entries.push_back(at);
    return absl::OkStatus();
  }

  // A `cbr`'s amount, in the file's unit.
  absl::StatusOr<int64_t> ReadAmount(std::string_view text) const {
    if (unit_.major) return MajorToMinor(text, unit_, "the amount");
    int64_t amount = 0;
    if (std::string(text).find_first_not_of("0123456789") !=
        std::string::npos) {
      return absl::UnimplementedError(
          absl::StrCat("amount ", ToAbsl(text),
                       ": without a currency, amounts must be whole chips"));
    }
    if (!absl::SimpleAtoi(ToAbsl(text), &amount)) {
      return Bad("the amount is out of the 64-bit range");
    }
    return amount;
  }

  PhhHand& hand_;
  const std::vector<int64_t>& seats_;
  const int n_;
  const AmountUnit unit_;
  const bool strict_;
  PhhActionError* const failed_;
  ParseState ps_;
  std::vector<std::vector<Card>> hole_;
  std::vector<Card> board_;
};

// The deck in banca's draw order: `_banca_deck` when the file has it (it
// must begin with the dealt cards), else only the dealt cards.
absl::Status RebuildDeck(const Table& t, const Layout& layout,
                         const std::vector<std::vector<Card>>& hole,
                         const std::vector<Card>& board, HandRecord& r) {
  const int n = static_cast<int>(hole.size());
  const int k = HoleCardCount(r.config);
  for (int p = 0; p < n; ++p) {
    if (static_cast<int>(hole[p].size()) != k) {
      return absl::FailedPreconditionError(absl::StrCat(
          "p", p + 1, " was dealt ", hole[p].size(), " hole cards, ", k,
          " expected: the deck cannot be rebuilt"));
    }
  }
  std::vector<Card> dealt;
  for (int round = 0; round < k; ++round) {
    for (int j = 0; j < n; ++j) {
      dealt.push_back(hole[(layout.deal_start + j) % n][round]);
    }
  }
  dealt.insert(dealt.end(), board.begin(), board.end());
  if (auto deck = GetString(t, "_banca_deck")) {
    ASSIGN_OR_RETURN(auto cs, cards::ParseCards(*deck));
    if (cs.size() < dealt.size() ||
        !std::equal(dealt.begin(), dealt.end(), cs.begin())) {
      return absl::InvalidArgumentError(
          "_banca_deck does not match the dealt cards");
    }
    r.deck = std::move(cs);
  } else {
    // A card dealt twice.
    RETURN_IF_ERROR(cards::ParseCards(Cards(dealt)).status());
    r.deck = std::move(dealt);
  }
  return absl::OkStatus();
}

// ReadPhh and ParsePhh. `strict`: also require that the betting is
// consistent (no chips beyond a stack, every action in turn, a complete
// hand), as WritePhh would write it. `failed` (may be null) receives the
// entry of `actions` an error is about.
absl::StatusOr<PhhHand> ReadPhhImpl(std::string_view text, bool strict,
                                    PhhActionError* failed) {
  if (failed != nullptr) *failed = PhhActionError{};
  ASSIGN_OR_RETURN(const Table t, TomlReader(text).Read());
  PhhHand hand;
  HandRecord& r = hand.record;
  RETURN_IF_ERROR(ReadVariant(t, hand));
  ASSIGN_OR_RETURN(const AmountUnit unit, ReadAmountUnit(t));
  ASSIGN_OR_RETURN(const std::vector<int64_t> stacks,
                   GetAmountList(t, "starting_stacks", unit));
  const int n = static_cast<int>(stacks.size());
  if (n < 2) return absl::InvalidArgumentError("fewer than two players");
  RETURN_IF_ERROR(ReadBlinds(t, n, unit, r.config));
  RETURN_IF_ERROR(ReadBancaConfig(t, hand.variant, unit, r.config));
  ASSIGN_OR_RETURN(const std::vector<int64_t> seats,
                   ReadPlayers(t, stacks, hand));
  auto acts = t.find("actions");
  if (acts == t.end() || acts->second.kind != Value::kArray) {
    return absl::InvalidArgumentError("no actions");
  }
  ASSIGN_OR_RETURN(const Layout layout, MakeLayout(r));
  ActionReader reader(hand, seats, stacks, layout, unit, strict, failed);
  int at = 0;
  for (const Value& v : acts->second.items) {
    RETURN_IF_ERROR(reader.Read(v.s, at++));
  }
  RETURN_IF_ERROR(RebuildDeck(t, layout, reader.hole(), reader.board(), r));
  if (strict) {
    // Replaying our own reading must succeed (order, street ends).
    RETURN_IF_ERROR(ReplayRecord(r).status());
  }
  return hand;
}

}  // namespace

absl::StatusOr<PhhHand> ReadPhh(std::string_view text, PhhActionError* failed) {
  return ReadPhhImpl(text, /*strict=*/false, failed);
}

absl::StatusOr<HandRecord> ParsePhh(std::string_view text) {
  ASSIGN_OR_RETURN(auto hand, ReadPhhImpl(text, /*strict=*/true, nullptr));
  return std::move(hand.record);
}

namespace {

// A per-player list of the file (PHH order) in ascending seat order, as
// PhhExtras holds it; empty when the file has none.
absl::StatusOr<std::vector<int64_t>> PerPlayerBySeat(const Table& t,
                                                     const std::string& key,
                                                     const AmountUnit& unit) {
  absl::StatusOr<std::vector<int64_t>> in_file = GetAmountList(t, key, unit);
  if (absl::IsNotFound(in_file.status())) return std::vector<int64_t>{};
  if (!in_file.ok()) return in_file.status();
  std::vector<int> idx(in_file->size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int>(i);
  if (auto seats = GetIntList(t, "seats");
      seats.ok() && seats->size() == in_file->size()) {
    std::sort(idx.begin(), idx.end(),
              [&](int a, int b) { return (*seats)[a] < (*seats)[b]; });
  }
  std::vector<int64_t> out;
  for (int i : idx) out.push_back((*in_file)[i]);
  return out;
}

// banca's pots (`_banca_pot_*`), when the file has them all.
absl::StatusOr<std::vector<PhhPot>> ReadPots(const Table& t,
                                             const AmountUnit& unit) {
  auto amounts = GetAmountList(t, "_banca_pot_amounts", unit);
  auto rakes = GetAmountList(t, "_banca_pot_rake", unit);
  auto winners = t.find("_banca_pot_winner_seats");
  std::vector<PhhPot> pots;
  if (!amounts.ok() || !rakes.ok() || winners == t.end() ||
      amounts->size() != rakes->size() ||
      winners->second.items.size() != amounts->size()) {
    return pots;
  }
  for (size_t i = 0; i < amounts->size(); ++i) {
    PhhPot pot;
    pot.amount = (*amounts)[i];
    pot.rake = (*rakes)[i];
    for (const Value& v : winners->second.items[i].items) {
      pot.winner_seats.push_back(static_cast<int>(v.i));
    }
    pots.push_back(std::move(pot));
  }
  return pots;
}

}  // namespace

absl::StatusOr<PhhExtras> ParsePhhExtras(std::string_view text) {
  ASSIGN_OR_RETURN(const Table t, TomlReader(text).Read());
  ASSIGN_OR_RETURN(const AmountUnit unit, ReadAmountUnit(t));
  PhhExtras e;
  ASSIGN_OR_RETURN(e.finishing_stacks,
                   PerPlayerBySeat(t, "finishing_stacks", unit));
  ASSIGN_OR_RETURN(e.winnings, PerPlayerBySeat(t, "winnings", unit));
  ASSIGN_OR_RETURN(e.pots, ReadPots(t, unit));
  e.currency = GetString(t, "currency").value_or("");
  e.table_name = GetString(t, "_banca_table_name").value_or("");
  e.timestamp = GetString(t, "_banca_timestamp").value_or("");
  e.time_limit_seconds = static_cast<int>(
      std::clamp<int64_t>(IntOr(t, "time_limit", 0), 0, 1 << 30));
  e.author = GetString(t, "author").value_or("");
  e.event = GetString(t, "event").value_or("");
  return e;
}

namespace {

// What a player did, for the text history: "raises to 2.00 and is all in".
std::string ActionText(const Event& e) {
  std::string what;
  switch (e.rec.action.type) {
    case ActionType::kFold:
      what = "folds";
      break;
    case ActionType::kCheck:
      what = "checks";
      break;
    case ActionType::kCall:
      what = absl::StrCat("calls ", Money(e.put));
      break;
    case ActionType::kBet:
      what = absl::StrCat("bets ", Money(e.to));
      break;
    case ActionType::kRaise:
      what = absl::StrCat("raises to ", Money(e.to));
      break;
    default:
      what = e.verb == "cbr" ? absl::StrCat("goes all in to ", Money(e.to))
                             : absl::StrCat("calls ", Money(e.put), " all in");
  }
  if (e.now_all_in && e.rec.action.type != ActionType::kAllIn) {
    what += " and is all in";
  }
  if (e.rec.timeout) what += " (time ran out)";
  return what;
}

// The text history's first lines: the hand, the table and its game, then
// each seat and its stack.
std::string TextHeader(const HandRecord& record, const PhhExtras& extras,
                       const Layout& l) {
  const TableConfig& c = record.config;
  std::string out;
  absl::StrAppend(&out, "Hand #", record.hand_number, " - table ",
                  record.table_id);
  if (!extras.table_name.empty()) {
    absl::StrAppend(&out, " \"", extras.table_name, "\"");
  }
  if (!extras.timestamp.empty()) absl::StrAppend(&out, " - ", extras.timestamp);
  absl::StrAppend(&out, "\n", ToAbsl(VariantName(c.variant)), " ",
                  ToAbsl(LimitName(c.limit)), ", blinds ", Money(c.small_blind),
                  "/", Money(c.big_blind));
  if (!extras.currency.empty()) absl::StrAppend(&out, " ", extras.currency);
  if (c.rake.mode == RakeMode::kPot) {
    absl::StrAppend(&out, ", rake ", Money(c.rake.bps), "% of each pot");
    if (c.rake.cap > 0) absl::StrAppend(&out, " (cap ", Money(c.rake.cap), ")");
  }
  if (l.n == 2) {
    absl::StrAppend(&out, c.heads_up == HeadsUpBlinds::kLiteral
                              ? ", heads-up: the non-button posts the small "
                                "blind and acts first"
                              : ", heads-up: the button posts the small blind");
  }
  out += "\n";
  for (const SeatedPlayer& sp : record.players) {
    absl::StrAppend(&out, "Seat ", sp.seat, ": ", sp.player, " ",
                    Money(sp.stack),
                    sp.seat == record.button ? " (button)" : "", "\n");
  }
  return out;
}

// The text history's pots (from the extras) and finishing stacks.
std::string TextPots(const HandRecord& record, const PhhExtras& extras) {
  std::string out;
  int pot_no = 0;
  for (const PhhPot& pot : extras.pots) {
    std::vector<std::string> who;
    for (int s : pot.winner_seats) {
      std::string label = absl::StrCat("seat ", s);
      for (const SeatedPlayer& sp : record.players) {
        if (sp.seat == s) label = absl::StrCat(sp.player, " (seat ", s, ")");
      }
      who.push_back(label);
    }
    absl::StrAppend(&out, pot_no == 0 ? "Main pot " : "Side pot ",
                    pot_no == 0 ? "" : absl::StrCat(pot_no, " "),
                    Money(pot.amount), ", rake ", Money(pot.rake), ", won by ",
                    absl::StrJoin(who, ", "), "\n");
    ++pot_no;
  }
  if (!extras.finishing_stacks.empty() &&
      extras.finishing_stacks.size() == record.players.size()) {
    for (size_t i = 0; i < record.players.size(); ++i) {
      const SeatedPlayer& sp = record.players[i];
      int64_t fin = extras.finishing_stacks[i];
      absl::StrAppend(&out, "Seat ", sp.seat, ": ", sp.player, " ends with ",
                      Money(fin), " (", fin >= sp.stack ? "+" : "",
                      Money(fin - sp.stack), ")\n");
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<std::string> WriteText(const HandRecord& record,
                                      const PhhExtras& extras) {
  ASSIGN_OR_RETURN(auto replay, ReplayRecord(record));
  const Layout& l = replay.layout;
  auto name = [&](int p) {
    const SeatedPlayer& sp = record.players[l.order[p]];
    return absl::StrCat(sp.player, " (seat ", sp.seat, ")");
  };
  std::string out = TextHeader(record, extras, l);
  for (int p : {l.sb, l.bb}) {
    absl::StrAppend(&out, name(p), " posts the ", p == l.sb ? "small" : "big",
                    " blind ", Money(replay.blind_posted[p]), "\n");
  }
  out += "*** HOLE CARDS ***\n";
  for (int j = 0; j < l.n; ++j) {
    int p = (l.deal_start + j) % l.n;
    absl::StrAppend(&out, "Dealt to ", name(p), ": ",
                    cards::CardsToString(replay.hole[p]), "\n");
  }
  std::vector<Card> board;
  static constexpr std::string_view kStreets[] = {"PRE-FLOP", "FLOP", "TURN",
                                                  "RIVER"};
  out += "*** PRE-FLOP ***\n";
  bool showdown_printed = false;
  for (const Event& e : replay.events) {
    switch (e.kind) {
      case Event::kBoard: {
        board.insert(board.end(), e.cards.begin(), e.cards.end());
        absl::StrAppend(&out, "*** ", ToAbsl(kStreets[e.street]), " *** [",
                        cards::CardsToString(board), "]\n");
        break;
      }
      case Event::kRunout:
        out += "(all in: the board is dealt out)\n";
        break;
      case Event::kShow:
        if (!showdown_printed) {
          out += "*** SHOWDOWN ***\n";
          showdown_printed = true;
        }
        absl::StrAppend(&out, name(e.p), " shows ",
                        cards::CardsToString(e.cards), "\n");
        break;
      case Event::kAction: {
        absl::StrAppend(&out, name(e.p), " ", ActionText(e), "\n");
        break;
      }
      case Event::kStreet:
        break;
    }
  }
  if (record.voided) {
    out += "*** VOID *** the gaming system failed: every bet is returned\n";
  }
  out += "*** RESULT ***\n";
  if (replay.uncalled > 0) {
    absl::StrAppend(&out, "Uncalled ", Money(replay.uncalled), " returned to ",
                    name(replay.uncalled_to), "\n");
  }
  out += TextPots(record, extras);
  return out;
}

}  // namespace banca::games::poker
