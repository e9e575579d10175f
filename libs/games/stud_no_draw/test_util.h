// Test helpers (test-only header): decks that deal chosen hands.
#ifndef BANCA_LIBS_GAMES_STUD_NO_DRAW_TEST_UTIL_H_
#define BANCA_LIBS_GAMES_STUD_NO_DRAW_TEST_UTIL_H_

#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/card.h"
#include "libs/cards/test_util.h"
#include "libs/games/stud_no_draw/events.h"

namespace banca::games::stud_no_draw {

// The SD-19 draw order that gives `hands[i]` to the i-th dealt seat and
// `bank` to the bank (its last card face up), after the `burn` card, then
// the rest of the deck.
inline std::vector<cards::Card> DeckFor(
    std::string_view burn, const std::vector<std::string_view>& hands,
    std::string_view bank) {
  std::vector<std::vector<cards::Card>> h;
  for (std::string_view text : hands) h.push_back(cards::Cards(text));
  const std::vector<cards::Card> b = cards::Cards(bank);
  std::vector<cards::Card> deck = cards::Cards(burn);
  for (int round = 0; round < kHandSize; ++round) {
    for (const auto& hand : h) deck.push_back(hand.at(round));
    deck.push_back(b.at(round));
  }
  cards::CardSet used = cards::CardSet::Of(deck);
  EXPECT_EQ(used.size(), static_cast<int>(deck.size())) << "repeated card";
  for (cards::Card c : cards::StandardDeck()) {
    if (!used.Contains(c)) deck.push_back(c);
  }
  return deck;
}

inline Hand HandOf(std::string_view text) {
  const std::vector<cards::Card> c = cards::Cards(text);
  Hand h{};
  for (int i = 0; i < kHandSize && i < static_cast<int>(c.size()); ++i) {
    h[i] = c[i];
  }
  return h;
}

}  // namespace banca::games::stud_no_draw

#endif  // BANCA_LIBS_GAMES_STUD_NO_DRAW_TEST_UTIL_H_
