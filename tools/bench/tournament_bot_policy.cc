#include "tools/bench/tournament_bot_policy.h"

#include <algorithm>

namespace banca::bench {
namespace {

// Percent chances (of a roll in 0..99).
constexpr uint32_t kLooseAllIn = 10;
constexpr uint32_t kLooseCall = 60;
constexpr uint32_t kBubbleAllIn = 2;
constexpr uint32_t kBubbleCallRaise = 40;
constexpr uint32_t kBubbleLimp = 60;

struct Legal {
  bool fold = false, check = false, call = false, all_in = false;
};

Legal LegalOf(const v1::TournamentTableView& view) {
  Legal l;
  for (int a : view.legal().actions()) {
    l.fold |= a == v1::POKER_ACTION_TYPE_FOLD;
    l.check |= a == v1::POKER_ACTION_TYPE_CHECK;
    l.call |= a == v1::POKER_ACTION_TYPE_CALL;
    l.all_in |= a == v1::POKER_ACTION_TYPE_ALL_IN;
  }
  return l;
}

BotDecision Do(v1::PokerActionType action) { return BotDecision{action}; }

// The others still in the pot at its highest bet (callers, or all in).
int Contenders(const v1::TournamentTableView& view) {
  int64_t top = 0;
  for (const v1::SeatState& s : view.seats()) top = std::max(top, s.bet_minor());
  int n = 0;
  for (const v1::SeatState& s : view.seats()) {
    if (s.seat() == view.my_seat() || !s.in_hand() || s.folded()) continue;
    n += s.all_in() || (top > 0 && s.bet_minor() == top) ? 1 : 0;
  }
  return n;
}

BotDecision Loose(const Legal& l, uint32_t roll) {
  if (l.all_in && roll < kLooseAllIn) return Do(v1::POKER_ACTION_TYPE_ALL_IN);
  if (l.call) {
    return Do(roll < kLooseAllIn + kLooseCall ? v1::POKER_ACTION_TYPE_CALL
                                              : v1::POKER_ACTION_TYPE_FOLD);
  }
  if (l.check) return Do(v1::POKER_ACTION_TYPE_CHECK);
  return Do(v1::POKER_ACTION_TYPE_FOLD);
}

BotDecision Bubble(const v1::TournamentTableView& view, const Legal& l,
                   uint32_t roll) {
  if (l.all_in && roll < kBubbleAllIn) return Do(v1::POKER_ACTION_TYPE_ALL_IN);
  if (l.call) {
    int64_t top = 0;
    for (const v1::SeatState& s : view.seats()) {
      top = std::max(top, s.bet_minor());
    }
    const bool raised = top > view.big_blind();
    const bool call = raised ? Contenders(view) <= 1 && roll < kBubbleCallRaise
                             : roll < kBubbleLimp;
    return Do(call ? v1::POKER_ACTION_TYPE_CALL : v1::POKER_ACTION_TYPE_FOLD);
  }
  if (l.check) return Do(v1::POKER_ACTION_TYPE_CHECK);
  return Do(v1::POKER_ACTION_TYPE_FOLD);
}

}  // namespace

BotMood MoodFor(int players_left, int paid_places) {
  return players_left > paid_places &&
                 players_left <= paid_places + kBubbleMargin
             ? BotMood::kBubble
             : BotMood::kLoose;
}

BotDecision DecideTournamentAction(const v1::TournamentTableView& view,
                                   BotMood mood, uint32_t roll) {
  const Legal l = LegalOf(view);
  const BotDecision d =
      mood == BotMood::kBubble ? Bubble(view, l, roll) : Loose(l, roll);
  if (d.action == v1::POKER_ACTION_TYPE_FOLD && !l.fold && l.check) {
    return Do(v1::POKER_ACTION_TYPE_CHECK);
  }
  return d;
}

}  // namespace banca::bench
