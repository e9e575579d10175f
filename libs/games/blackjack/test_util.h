// Test helpers: shoes written as card codes, and round setups.
#ifndef BANCA_LIBS_GAMES_BLACKJACK_TEST_UTIL_H_
#define BANCA_LIBS_GAMES_BLACKJACK_TEST_UTIL_H_

#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/card.h"
#include "libs/games/blackjack/round.h"

namespace banca::games::blackjack::testing {

// "As Kd 7h 7h": space-separated, duplicates allowed (a shoe has several
// decks). Fails the test on a bad code.
inline std::vector<cards::Card> Shoe(const std::string& text) {
  std::vector<cards::Card> out;
  std::istringstream in(text);
  std::string code;
  while (in >> code) {
    absl::StatusOr<cards::Card> c = cards::ParseCard(code);
    EXPECT_TRUE(c.ok()) << code;
    if (c.ok()) out.push_back(*c);
  }
  return out;
}

inline cards::Card C(const std::string& code) { return Shoe(code).at(0); }

// One player ("ana", seat 1) betting `stake`.
inline RoundSetup OneSeat(const std::string& deck, int64_t stake = 1000,
                          TableSettings settings = {}) {
  RoundSetup s;
  s.settings = settings;
  s.round_number = 1;
  s.bets = {{1, "ana", stake}};
  s.deck = Shoe(deck);
  return s;
}

inline Round MustStart(const RoundSetup& setup) {
  absl::StatusOr<Round> r = Round::Start(setup);
  EXPECT_TRUE(r.ok()) << r.status();
  return *std::move(r);
}

inline Action Do(ActionType type, int64_t amount = 0) {
  return Action{type, amount};
}

// The bet with this id at this seat, or a failed test.
inline BetResult BetOf(const RoundResult& r, int seat, BetKind kind,
                       int hand = 1) {
  for (const BetResult& b : r.bets) {
    if (b.seat == seat && b.kind == kind &&
        (kind == BetKind::kInsurance || b.hand == hand)) {
      return b;
    }
  }
  ADD_FAILURE() << "no bet " << BetId(kind, hand) << " at seat " << seat;
  return {};
}

}  // namespace banca::games::blackjack::testing

#endif  // BANCA_LIBS_GAMES_BLACKJACK_TEST_UTIL_H_
