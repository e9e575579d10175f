// Helpers shared by the poker tests.
#ifndef BANCA_LIBS_GAMES_POKER_TEST_UTIL_H_
#define BANCA_LIBS_GAMES_POKER_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "libs/cards/card.h"
#include "libs/games/poker/hand.h"

namespace banca::games::poker::testing {

// "As Kd ..." followed by the rest of a standard deck in order, so tests
// only spell out the cards that matter.
inline std::vector<cards::Card> Deck(std::string_view top) {
  std::vector<cards::Card> deck = *cards::ParseCards(top);
  cards::CardSet used = cards::CardSet::Of(deck);
  for (cards::Card c : cards::StandardDeck()) {
    if (!used.Contains(c)) deck.push_back(c);
  }
  return deck;
}

inline HandSetup MakeSetup(TableConfig config, std::vector<int64_t> stacks,
                           int button, std::string_view top = "") {
  HandSetup s;
  s.config = config;
  s.table_id = "t1";
  s.hand_number = 1;
  s.button = button;
  static const char* kNames[] = {"ana", "rui", "eva", "ivo", "lia",
                                 "teo", "mia", "gil", "zoe", "leo"};
  for (size_t i = 0; i < stacks.size(); ++i) {
    s.players.push_back({static_cast<int>(i) + 1, kNames[i], stacks[i]});
  }
  s.deck = Deck(top);
  return s;
}

inline Action Fold() { return {ActionType::kFold, 0}; }
inline Action Check() { return {ActionType::kCheck, 0}; }
inline Action Call() { return {ActionType::kCall, 0}; }
inline Action Bet(int64_t to) { return {ActionType::kBet, to}; }
inline Action Raise(int64_t to) { return {ActionType::kRaise, to}; }
inline Action AllIn() { return {ActionType::kAllIn, 0}; }
inline Action Straddle() { return {ActionType::kStraddle, 0}; }
inline Action Restraddle() { return {ActionType::kRestraddle, 0}; }

inline int64_t EndStack(const Hand& h, int seat) {
  for (const PlayerResult& p : h.result().players) {
    if (p.seat == seat) return p.end_stack;
  }
  return -1;
}

template <typename E>
std::vector<E> EventsOf(const Hand& h) {
  std::vector<E> out;
  for (const Event& e : h.events()) {
    if (const E* x = std::get_if<E>(&e)) out.push_back(*x);
  }
  return out;
}

// Checks every action succeeds; `plan` is (seat, action) in order.
inline void Play(Hand& h, const std::vector<std::pair<int, Action>>& plan) {
  for (const auto& [seat, action] : plan) {
    absl::Status st = h.Act(seat, action);
    ASSERT_TRUE(st.ok()) << "seat " << seat << " "
                         << ActionTypeName(action.type) << " " << action.amount
                         << ": " << st;
  }
}

}  // namespace banca::games::poker::testing

#endif  // BANCA_LIBS_GAMES_POKER_TEST_UTIL_H_
