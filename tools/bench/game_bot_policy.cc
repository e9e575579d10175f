#include "tools/bench/game_bot_policy.h"

#include <algorithm>
#include <array>
#include <map>
#include <string_view>

#include "absl/strings/str_cat.h"

namespace banca::bench {
namespace {

template <typename Actions, typename Action>
bool Offers(const Actions& actions, Action a) {
  return std::find(actions.begin(), actions.end(), a) != actions.end();
}

// A card's blackjack value by its rank ("Th": 10, "As": 11).
int BlackjackValue(const std::string& card) {
  if (card.empty()) return 0;
  const char rank = card[0];
  if (rank == 'A') return 11;
  if (rank == 'T' || rank == 'J' || rank == 'Q' || rank == 'K') return 10;
  return rank >= '2' && rank <= '9' ? rank - '0' : 0;
}

// Percent chances (of a roll in 0..99).
constexpr uint32_t kPokerBetWhenFree = 15;
constexpr uint32_t kPokerCallSmall = 75;
constexpr uint32_t kPokerRaiseSmall = 85;
constexpr uint32_t kPokerCallBig = 30;
constexpr int64_t kPokerSmallCallBlinds = 4;
constexpr uint32_t kSplitOtherPairs = 50;
constexpr uint32_t kStudBetAnyway = 20;

}  // namespace

PokerChoice DecideCashPoker(const v1::LegalActionsView& legal,
                            int64_t big_blind, uint32_t roll) {
  const auto& a = legal.actions();
  const auto offers = [&](v1::PokerActionType t) { return Offers(a, t); };
  if (offers(v1::POKER_ACTION_TYPE_CHECK)) {
    if (roll < kPokerBetWhenFree && offers(v1::POKER_ACTION_TYPE_BET)) {
      return {v1::POKER_ACTION_TYPE_BET, legal.min_to_minor()};
    }
    return {v1::POKER_ACTION_TYPE_CHECK, 0};
  }
  if (offers(v1::POKER_ACTION_TYPE_CALL)) {
    if (legal.call_minor() <= kPokerSmallCallBlinds * big_blind) {
      if (roll < kPokerCallSmall) return {v1::POKER_ACTION_TYPE_CALL, 0};
      if (roll < kPokerRaiseSmall && offers(v1::POKER_ACTION_TYPE_RAISE)) {
        return {v1::POKER_ACTION_TYPE_RAISE, legal.min_to_minor()};
      }
    } else if (roll < kPokerCallBig) {
      return {v1::POKER_ACTION_TYPE_CALL, 0};
    }
  }
  // Only all in is left to stay in (a call of the whole stack).
  if (!offers(v1::POKER_ACTION_TYPE_CALL) &&
      offers(v1::POKER_ACTION_TYPE_ALL_IN) && roll < kPokerCallBig) {
    return {v1::POKER_ACTION_TYPE_ALL_IN, 0};
  }
  if (offers(v1::POKER_ACTION_TYPE_FOLD))
    return {v1::POKER_ACTION_TYPE_FOLD, 0};
  return {a.empty() ? v1::POKER_ACTION_TYPE_UNSPECIFIED
                    : static_cast<v1::PokerActionType>(a[0]),
          0};
}

std::vector<RouletteStake> ChooseRouletteBets(bool american, uint32_t roll) {
  static constexpr std::array<std::string_view, 6> kEvenChances = {
      "red", "black", "even", "odd", "low", "high"};
  std::vector<RouletteStake> out;
  RouletteStake even;
  even.bet.set_kind(std::string(kEvenChances[roll % kEvenChances.size()]));
  even.amount_minor = 100 * (1 + roll % 5);
  out.push_back(even);
  if (roll % 2 == 0) {
    RouletteStake third;
    third.bet.set_kind(roll % 4 == 0 ? "dozen" : "column");
    third.bet.add_index(1 + static_cast<int>(roll % 3));
    third.amount_minor = 200;
    out.push_back(third);
  }
  if (roll % 3 == 0) {
    RouletteStake straight;
    straight.bet.set_kind("straight");
    const int pockets = american ? 38 : 37;
    const int n = static_cast<int>((roll * 7) % pockets);
    straight.bet.add_numbers(n == 37 ? "00" : absl::StrCat(n));
    straight.amount_minor = 100;
    out.push_back(straight);
  }
  return out;
}

BlackjackChoice DecideBlackjack(const v1::BlackjackLegalView& legal,
                                const v1::BlackjackHandView& hand,
                                const std::string& dealer_up, uint32_t roll) {
  const auto offers = [&](v1::BlackjackActionType t) {
    return Offers(legal.actions(), t);
  };
  if (offers(v1::BLACKJACK_ACTION_TYPE_INSURANCE)) {
    return {v1::BLACKJACK_ACTION_TYPE_INSURANCE, 0};
  }
  const bool pair = hand.cards_size() == 2 && BlackjackValue(hand.cards(0)) ==
                                                  BlackjackValue(hand.cards(1));
  const int pair_value = pair ? BlackjackValue(hand.cards(0)) : 0;
  if (offers(v1::BLACKJACK_ACTION_TYPE_SPLIT) && pair &&
      (pair_value == 11 || pair_value == 8 || roll < kSplitOtherPairs)) {
    return {v1::BLACKJACK_ACTION_TYPE_SPLIT, 0};
  }
  const int total = hand.total();
  if (offers(v1::BLACKJACK_ACTION_TYPE_DOUBLE) && !hand.soft() && total >= 9 &&
      total <= 11) {
    return {v1::BLACKJACK_ACTION_TYPE_DOUBLE, 0};
  }
  const int up = BlackjackValue(dealer_up);
  bool hit = total < 12;
  if (!hit && total < (hand.soft() ? 18 : 17)) {
    hit = hand.soft() || up >= 7;
  }
  if (hit && offers(v1::BLACKJACK_ACTION_TYPE_HIT)) {
    return {v1::BLACKJACK_ACTION_TYPE_HIT, 0};
  }
  return {v1::BLACKJACK_ACTION_TYPE_STAND, 0};
}

v1::StudActionType DecideStud(const std::vector<std::string>& cards,
                              uint32_t roll) {
  std::map<char, int> ranks;
  for (const std::string& c : cards) {
    if (!c.empty()) ++ranks[c[0]];
  }
  bool pair = false;
  for (const auto& [rank, n] : ranks) pair |= n >= 2;
  const bool ace_king = ranks.contains('A') && ranks.contains('K');
  return pair || ace_king || roll < kStudBetAnyway ? v1::STUD_ACTION_TYPE_BET
                                                   : v1::STUD_ACTION_TYPE_FOLD;
}

}  // namespace banca::bench
