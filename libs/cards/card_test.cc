#include "libs/cards/card.h"

#include <set>

#include "gtest/gtest.h"

namespace banca::cards {
namespace {

TEST(Card, ParsesAndPrintsCanonicalForm) {
  absl::StatusOr<Card> as = ParseCard("As");
  ASSERT_TRUE(as.ok());
  EXPECT_EQ(as->rank(), Rank::kAce);
  EXPECT_EQ(as->suit(), Suit::kSpades);
  EXPECT_EQ(CardToString(*as), "As");
  absl::StatusOr<Card> td = ParseCard("Td");
  ASSERT_TRUE(td.ok());
  EXPECT_EQ(*td, Card(Rank::kTen, Suit::kDiamonds));
  EXPECT_EQ(CardToString(*ParseCard("10d")), "Td");
  EXPECT_EQ(CardToString(*ParseCard("qH")), "Qh");
  for (int i = 0; i < kNumCards; ++i) {
    const Card c = Card::FromIndex(i);
    EXPECT_EQ(*ParseCard(CardToString(c)), c);
  }
}

TEST(Card, RejectsMalformedCards) {
  for (const char* bad : {"", "A", "Ax", "1s", "Asd", "Zs", "11s"}) {
    EXPECT_FALSE(ParseCard(bad).ok()) << bad;
  }
}

TEST(Card, ParsesCardListsAndRejectsDuplicates) {
  absl::StatusOr<std::vector<Card>> cards = ParseCards("As Kd,7h10c 2s");
  ASSERT_TRUE(cards.ok()) << cards.status();
  EXPECT_EQ(CardsToString(*cards), "As Kd 7h Tc 2s");
  EXPECT_TRUE(ParseCards("AsKd").ok());
  EXPECT_FALSE(ParseCards("As Kd As").ok());
  EXPECT_FALSE(ParseCards("As K").ok());
}

TEST(Card, RanksOrderedAceHighToTwo_HE_30) {
  EXPECT_LT(Rank::kTwo, Rank::kThree);
  EXPECT_LT(Rank::kTen, Rank::kJack);
  EXPECT_LT(Rank::kJack, Rank::kQueen);
  EXPECT_LT(Rank::kQueen, Rank::kKing);
  EXPECT_LT(Rank::kKing, Rank::kAce);
}

TEST(Deck, StandardDeckIs52CardsOfFourSuits_HE_4b) {
  absl::StatusOr<std::vector<Card>> deck = BuildDeck();
  ASSERT_TRUE(deck.ok());
  EXPECT_EQ(deck->size(), 52u);
  EXPECT_EQ(CardSet::Of(*deck).size(), 52);
  std::array<int, kNumSuits> per_suit{};
  for (Card c : *deck) ++per_suit[static_cast<int>(c.suit())];
  for (int n : per_suit) EXPECT_EQ(n, 13);
  EXPECT_EQ(*deck, StandardDeck());
}

TEST(Deck, SemDescarteUsesOne52CardDeck_SD_6b) {
  EXPECT_EQ(BuildDeck(DeckSpec{})->size(), 52u);
}

TEST(Deck, SyntheticPokerDeckIsASettingDefault52_SY_Decision) {
  EXPECT_EQ(BuildDeck(DeckSpec{})->size(), 52u);
  absl::StatusOr<std::vector<Card>> short_deck =
      BuildDeck(DeckSpec{.lowest_rank = Rank::kSix});
  ASSERT_TRUE(short_deck.ok());
  EXPECT_EQ(short_deck->size(), 36u);
  for (Card c : *short_deck) EXPECT_GE(c.rank(), Rank::kSix);
}

TEST(Deck, ShoesAndBadSpecs) {
  EXPECT_EQ(BuildDeck(DeckSpec{.copies = 6})->size(), 312u);
  EXPECT_FALSE(BuildDeck(DeckSpec{.copies = 0}).ok());
  EXPECT_FALSE(BuildDeck(DeckSpec{.copies = 9}).ok());
}

TEST(CardSet, InsertEraseContains) {
  CardSet s;
  const Card as(Rank::kAce, Suit::kSpades);
  EXPECT_FALSE(s.Contains(as));
  s.Insert(as);
  EXPECT_TRUE(s.Contains(as));
  EXPECT_EQ(s.size(), 1);
  s.Erase(as);
  EXPECT_EQ(s.size(), 0);
}

}  // namespace
}  // namespace banca::cards
