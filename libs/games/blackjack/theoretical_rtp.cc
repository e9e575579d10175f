#include "libs/games/blackjack/theoretical_rtp.h"

#include <array>
#include <optional>
#include <vector>

#include "libs/cards/card.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/games/blackjack/basic_strategy.h"
#include "libs/games/blackjack/hand_value.h"

namespace banca::games::blackjack {
namespace {

// Statistics, not money: floating point is fine here (DESIGN inv. 1 is
// about money paths).

// Card values 1 (ace) .. 10; the chance of each in an infinite deck.
constexpr double P(int v) { return v == 10 ? 4.0 / 13 : 1.0 / 13; }

// Expected result and exposure (the bets the hand ends up with), per unit
// of the bet that started the hand (ratios, not money).
struct Value {
  double edge = 0;
  double exposure = 0;
  Value& operator+=(const Value& o) {
    edge += o.edge;
    exposure += o.exposure;
    return *this;
  }
};
Value Scale(Value v, double k) { return Value{v.edge * k, v.exposure * k}; }

// A hand by its hard sum (aces as 1) and whether it holds an ace.
Total TotalOf(int hard, bool ace) {
  if (ace && hard + 10 <= 21) return Total{hard + 10, true};
  return Total{hard, false};
}

// The dealer's final outcome: 17..21, bust, blackjack.
enum { k17 = 0, kBust = 5, kBlackjack = 6, kOutcomes = 7 };
using Outcomes = std::array<double, kOutcomes>;

class Calculator {
 public:
  Calculator(const TableSettings& s, int up) : s_(s), up_(up) {
    dealer_ = DealerFrom(up);
  }

  // The up card's blackjack chance; the outcomes are then conditioned on
  // no blackjack when the dealer peeks.
  double DealerBlackjack() const { return dealer_bj_; }

  // One initial two-card hand (the round's main bet, given the dealer has
  // no blackjack after a peek).
  Value Initial(int c1, int c2) {
    const bool player_bj = (c1 == 1 && c2 == 10) || (c1 == 10 && c2 == 1);
    if (player_bj) {
      const double win =
          static_cast<double>(s_.blackjack_pays_num) / s_.blackjack_pays_den;
      return Value{(1 - dealer_[kBlackjack]) * win, 1};
    }
    LegalActions l;
    l.can_hit = l.can_stand = true;
    l.can_double = DoubleAllowed(c1 + c2, c1 == 1 || c2 == 1);
    l.can_split = c1 == c2 && s_.max_split_hands >= 2;
    l.can_surrender = s_.surrender == Surrender::kLate;
    const int pair = c1 == c2 ? (c1 == 1 ? 11 : c1) : 0;
    const ActionType a = BasicStrategyByTotal(
        TotalOf(c1 + c2, c1 == 1 || c2 == 1), pair, UpValue(), s_, l);
    if (a == ActionType::kSplit) return Split(c1);
    return Act(a, c1 + c2, c1 == 1 || c2 == 1);
  }

 private:
  int UpValue() const { return up_ == 1 ? 11 : up_; }

  bool DoubleAllowed(int hard, bool ace) const {
    const int t = TotalOf(hard, ace).value;
    switch (s_.double_on) {
      case DoubleOn::kAnyTwoCards:
        return true;
      case DoubleOn::kNineToEleven:
        return t >= 9 && t <= 11;
      case DoubleOn::kTenOrEleven:
        return t >= 10 && t <= 11;
    }
    return false;
  }

  Outcomes DealerFrom(int up) {
    Outcomes out{};
    for (int hole = 1; hole <= 10; ++hole) {
      if ((up == 1 && hole == 10) || (up == 10 && hole == 1)) {
        out[kBlackjack] += P(hole);
        continue;
      }
      const Outcomes next = DealerDraws(up + hole, up == 1 || hole == 1);
      for (int i = 0; i < kOutcomes; ++i) out[i] += P(hole) * next[i];
    }
    dealer_bj_ = out[kBlackjack];
    if (s_.dealer_peek && dealer_bj_ > 0) {
      for (double& x : out) x /= (1 - dealer_bj_);
      out[kBlackjack] = 0;
    }
    return out;
  }

  // Bounded: each draw adds at least 1 to a sum that stops at 17.
  Outcomes DealerDraws(int hard, bool ace) const {
    Outcomes out{};
    const Total t = TotalOf(hard, ace);
    if (t.value > 21) {
      out[kBust] = 1;
      return out;
    }
    const bool stands =
        t.value > 17 || (t.value == 17 && !(t.soft && s_.dealer_hits_soft_17));
    if (stands) {
      out[t.value - 17] = 1;
      return out;
    }
    for (int v = 1; v <= 10; ++v) {
      const Outcomes next = DealerDraws(hard + v, ace || v == 1);
      for (int i = 0; i < kOutcomes; ++i) out[i] += P(v) * next[i];
    }
    return out;
  }

  double StandNet(int total) const {
    if (total > 21) return -1;
    double net = -dealer_[kBlackjack] + dealer_[kBust];
    for (int f = 17; f <= 21; ++f) {
      const double p = dealer_[f - 17];
      if (total > f) net += p;
      if (total < f) net -= p;
    }
    return net;
  }

  Value Act(ActionType a, int hard, bool ace) {
    switch (a) {
      case ActionType::kStand:
        return Value{StandNet(TotalOf(hard, ace).value), 1};
      case ActionType::kSurrender:
        return Value{-0.5, 1};
      case ActionType::kDouble: {
        double net = 0;
        for (int v = 1; v <= 10; ++v) {
          net += P(v) * 2 * StandNet(TotalOf(hard + v, ace || v == 1).value);
        }
        return Value{net, 2};
      }
      case ActionType::kHit: {
        Value out;
        for (int v = 1; v <= 10; ++v) {
          out += Scale(Drawn(hard + v, ace || v == 1), P(v));
        }
        return out;
      }
      default:
        BANCA_CHECK(false);
    }
    return {};
  }

  // A hand of three cards or more: hit or stand by the chart. Memoized:
  // it depends only on the hand's hard sum and ace.
  Value Drawn(int hard, bool ace) {
    if (hard > 21) return Value{-1, 1};
    std::optional<Value>& memo = drawn_[hard][ace];
    if (!memo) memo = DrawnUncached(hard, ace);
    return *memo;
  }

  Value DrawnUncached(int hard, bool ace) {
    const Total t = TotalOf(hard, ace);
    if (t.value > 21) return Value{-1, 1};
    if (t.value == 21) return Value{StandNet(21), 1};
    LegalActions l;
    l.can_hit = l.can_stand = true;
    return Act(BasicStrategyByTotal(t, 0, UpValue(), s_, l), hard, ace);
  }

  // Splitting a pair of `c`: `pending` hands of one card each remain with
  // `hands` hands at the seat. Play order as the engine: the first
  // pending hand draws; a pair again may be re-split (one more pending).
  Value Split(int c) { return Pending(c, 2, 2); }

  Value Pending(int c, int hands, int pending) {
    if (pending == 0) return {};
    const bool aces = c == 1;
    const int pair_value = aces ? 11 : c;
    Value out;
    for (int x = 1; x <= 10; ++x) {
      const bool may_resplit =
          x == c && hands < s_.max_split_hands && (!aces || s_.resplit_aces);
      LegalActions l;
      l.can_stand = true;
      l.can_split = may_resplit;
      l.can_hit = !aces;
      l.can_double = !aces && s_.double_after_split &&
                     DoubleAllowed(c + x, aces || x == 1);
      const Total t = TotalOf(c + x, aces || x == 1);
      const ActionType a =
          BasicStrategyByTotal(t, x == c ? pair_value : 0, UpValue(), s_, l);
      Value v;
      if (a == ActionType::kSplit) {
        v = Pending(c, hands + 1, pending + 1);
      } else {
        // 21 on a split hand is not a blackjack: it stands and compares.
        v = t.value == 21 ? Value{StandNet(21), 1}
                          : Act(a, c + x, aces || x == 1);
        v += Pending(c, hands, pending - 1);
      }
      out += Scale(v, P(x));
    }
    return out;
  }

  const TableSettings& s_;
  int up_;
  Outcomes dealer_{};
  double dealer_bj_ = 0;
  std::array<std::array<std::optional<Value>, 2>, 22> drawn_{};
};

// The BJ-25i special hands' expected return as a ratio to the main bet,
// summed over the player's three cards (6-7-8 of one suit in any order, or
// three 7s), the up card and the hole card as specific cards. `shoe` true:
// drawn without replacement from `decks` full decks; false: an infinite deck.
double SpecialHandsRatio(const TableSettings& s, bool shoe) {
  using cards::Card;
  using cards::Rank;
  using cards::Suit;
  const double copies = s.decks;
  const double total = cards::kNumCards * copies;
  std::vector<std::array<Card, 3>> triples;
  for (int suit = 0; suit < 4; ++suit) {
    const Suit su = static_cast<Suit>(suit);
    std::array<Card, 3> run = {Card(Rank::kSix, su), Card(Rank::kSeven, su),
                               Card(Rank::kEight, su)};
    const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                              {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (const auto& o : orders)
      triples.push_back({run[o[0]], run[o[1]], run[o[2]]});
  }
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      for (int c = 0; c < 4; ++c) {
        triples.push_back({Card(Rank::kSeven, static_cast<Suit>(a)),
                           Card(Rank::kSeven, static_cast<Suit>(b)),
                           Card(Rank::kSeven, static_cast<Suit>(c))});
      }
    }
  }
  double expectation = 0;
  for (const auto& t : triples) {
    for (int u = 0; u < cards::kNumCards; ++u) {
      for (int h = 0; h < cards::kNumCards; ++h) {
        const Card up = Card::FromIndex(u);
        const Card hole = Card::FromIndex(h);
        const std::array<Card, 2> dealer = {up, hole};
        // A peeked dealer blackjack ends the round before any draw.
        if (s.dealer_peek && IsTwoCardTwentyOne(dealer)) continue;
        // Deal order: p1, up, p2, hole, p3.
        const std::array<Card, 5> seq = {t[0], up, t[1], hole, t[2]};
        double p = 1;
        for (int i = 0; i < 5; ++i) {
          if (!shoe) {
            p /= cards::kNumCards;
            continue;
          }
          int seen = 0;
          for (int j = 0; j < i; ++j) seen += seq[j] == seq[i];
          p *= (copies - seen) / (total - i);
        }
        if (p <= 0) continue;
        const std::array<Card, 2> two = {t[0], t[1]};
        LegalActions l;
        l.can_hit = l.can_stand = true;
        const int hard = CardValue(t[0]) + CardValue(t[1]);
        l.can_double =
            s.double_on == DoubleOn::kAnyTwoCards ||
            (s.double_on == DoubleOn::kNineToEleven && hard >= 9 &&
             hard <= 11) ||
            (s.double_on == DoubleOn::kTenOrEleven && hard >= 10 && hard <= 11);
        l.can_split = t[0].rank() == t[1].rank() && s.max_split_hands >= 2;
        l.can_surrender = s.surrender == Surrender::kLate;
        const ActionType a = BasicStrategy(two, up, s, l);
        const double multiple = a == ActionType::kHit      ? 1
                                : a == ActionType::kDouble ? 2
                                                           : 0;
        expectation += p * 3 * multiple;
      }
    }
  }
  return expectation;
}

}  // namespace

absl::StatusOr<TheoreticalRtp> ComputeTheoreticalRtp(
    const TableSettings& settings) {
  RETURN_IF_ERROR(settings.Validate());
  TheoreticalRtp out;
  for (int up = 1; up <= 10; ++up) {
    Calculator calc(settings, up);
    Value round;
    for (int c1 = 1; c1 <= 10; ++c1) {
      for (int c2 = 1; c2 <= 10; ++c2) {
        round += Scale(calc.Initial(c1, c2), P(c1) * P(c2));
      }
    }
    if (settings.dealer_peek) {
      // A peeked blackjack: every main bet is lost but a player blackjack
      // (1/13 x 4/13 x 2 of the time), which pushes; nothing else is
      // exposed.
      const double bj = calc.DealerBlackjack();
      const double player_bj = 2 * P(1) * P(10);
      round = Value{(1 - bj) * round.edge - bj * (1 - player_bj),
                    (1 - bj) * round.exposure + bj};
    }
    out.base_edge += P(up) * round.edge;
    out.exposure += P(up) * round.exposure;
  }
  out.special_full_shoe = SpecialHandsRatio(settings, true);
  out.special_infinite = SpecialHandsRatio(settings, false);
  return out;
}

double DefaultGameTheoreticalRtp() {
  const absl::StatusOr<TheoreticalRtp> t = ComputeTheoreticalRtp({});
  BANCA_CHECK(t.ok());
  return 1 + (-kDefaultGameHouseEdge + t->special_full_shoe) / t->exposure;
}

}  // namespace banca::games::blackjack
