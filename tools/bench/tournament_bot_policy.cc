#include "tools/bench/tournament_bot_policy.h"

#include <algorithm>

namespace banca::bench {
namespace {

// Percent chances (of a roll in 0..99).
constexpr uint32_t kLooseAllIn = 4;
constexpr uint32_t kLooseCallAllIn = 35;
constexpr uint32_t kLooseCall = 70;
constexpr uint32_t kBubbleLimp = 60;

struct Legal {
  bool fold = false;
  bool check = false;
  bool call = false;
  bool all_in = false;
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

int64_t TopBet(const v1::TournamentTableView& view) {
  int64_t top = 0;
  for (const v1::SeatState& s : view.seats()) {
    top = std::max(top, s.bet_minor());
  }
  return top;
}

bool FacingAllIn(const v1::TournamentTableView& view) {
  for (const v1::SeatState& s : view.seats()) {
    if (s.seat() != view.my_seat() && s.in_hand() && s.all_in()) return true;
  }
  return false;
}

BotDecision Loose(const v1::TournamentTableView& view, const Legal& l,
                  uint32_t roll) {
  if (l.all_in && roll < kLooseAllIn) return Do(v1::POKER_ACTION_TYPE_ALL_IN);
  if (l.call) {
    const uint32_t call = FacingAllIn(view) ? kLooseCallAllIn : kLooseCall;
    return Do(roll < call ? v1::POKER_ACTION_TYPE_CALL
                          : v1::POKER_ACTION_TYPE_FOLD);
  }
  return Do(l.check ? v1::POKER_ACTION_TYPE_CHECK : v1::POKER_ACTION_TYPE_FOLD);
}

int64_t MyStack(const v1::TournamentTableView& view) {
  for (const v1::SeatState& s : view.seats()) {
    if (s.seat() == view.my_seat()) return s.stack_minor();
  }
  return 0;
}

// No all-in of its own, no raise called, no call of its last chips: out
// only when a blind puts it all in.
BotDecision Bubble(const v1::TournamentTableView& view, const Legal& l,
                   uint32_t roll) {
  if (l.call) {
    const bool limp = TopBet(view) <= view.big_blind() &&
                      view.legal().call_minor() < MyStack(view) &&
                      roll < kBubbleLimp;
    return Do(limp ? v1::POKER_ACTION_TYPE_CALL : v1::POKER_ACTION_TYPE_FOLD);
  }
  return Do(l.check ? v1::POKER_ACTION_TYPE_CHECK : v1::POKER_ACTION_TYPE_FOLD);
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
  return mood == BotMood::kBubble ? Bubble(view, l, roll)
                                  : Loose(view, l, roll);
}

}  // namespace banca::bench
