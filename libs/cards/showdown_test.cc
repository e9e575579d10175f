#include "libs/cards/showdown.h"

#include "gtest/gtest.h"
#include "libs/cards/test_util.h"

namespace banca::cards {
namespace {

std::string En(std::string_view cards) {
  return DescribeHand(Value(cards), Language::kEnglish);
}
std::string Pt(std::string_view cards, Game game = Game::kHoldem) {
  return DescribeHand(Value(cards), Language::kPortuguese, game);
}

TEST(Showdown, CategoryNamesInBothLanguages_HE_29) {
  EXPECT_EQ(CategoryName(Category::kFullHouse, Language::kPortuguese),
            "Fullen");
  EXPECT_EQ(CategoryName(Category::kFourOfAKind, Language::kPortuguese),
            "Póquer");
  EXPECT_EQ(CategoryName(Category::kHighCard, Language::kPortuguese),
            "Cartas maiores");
  EXPECT_EQ(CategoryName(Category::kStraightFlush, Language::kEnglish),
            "Straight flush");
  EXPECT_EQ(RoyalFlushName(Language::kPortuguese, Game::kHoldem),
            "Sequência máxima de cor");
}

TEST(Showdown, RoyalFlushNamePerGame_SD_7a) {
  EXPECT_EQ(Pt("As Ks Qs Js Ts", Game::kSemDescarte), "Sequência real de cor");
  EXPECT_EQ(Pt("As Ks Qs Js Ts", Game::kHoldem), "Sequência máxima de cor");
  EXPECT_EQ(En("As Ks Qs Js Ts"), "Royal flush");
}

TEST(Showdown, DescribesEveryCategory) {
  EXPECT_EQ(En("Kc Kd Kh 7s 7c"), "Full house, kings full of sevens");
  EXPECT_EQ(Pt("Kc Kd Kh 7s 7c"), "Fullen de reis e setes");
  EXPECT_EQ(En("9h 8h 7h 6h 5h"), "Straight flush, nine high");
  EXPECT_EQ(Pt("9h 8h 7h 6h 5h"), "Sequência de cor ao nove");
  EXPECT_EQ(En("Ac Ad Ah As 2c"), "Four of a kind, aces");
  EXPECT_EQ(Pt("Ac Ad Ah As 2c"), "Póquer de ases");
  EXPECT_EQ(En("Qd Jd 8d 4d 2d"), "Flush, queen high");
  EXPECT_EQ(Pt("Qd Jd 8d 4d 2d"), "Cor à dama");
  EXPECT_EQ(En("Ac 2d 3h 4s 5c"), "Straight, five high");
  EXPECT_EQ(Pt("Tc 9d 8h 7s 6c"), "Sequência ao dez");
  EXPECT_EQ(En("Qc Qd Qh 9s 2c"), "Three of a kind, queens");
  EXPECT_EQ(Pt("Qc Qd Qh 9s 2c"), "Trio de damas");
  EXPECT_EQ(En("Ac Ad 8h 8s 2c"), "Two pair, aces and eights");
  EXPECT_EQ(Pt("Ac Ad 8h 8s 2c"), "Dois pares, ases e oitos");
  EXPECT_EQ(En("Jc Jd 9h 5s 2c"), "Pair of jacks");
  EXPECT_EQ(Pt("6c 6d 9h 5s 2c"), "Par de seis");
  EXPECT_EQ(En("Ac Qd 9h 5s 2c"), "High card, ace");
  EXPECT_EQ(Pt("Ac Qd 9h 5s 2c"), "Cartas maiores, ás");
}

TEST(Showdown, SaysWhoWinsAndWhy_HE_61) {
  Showdown s = CompareHands(Value("Kc Kd Kh 7s 7c"), Value("Ad Jd 8d 4d 2d"));
  EXPECT_EQ(s.winner, 1);
  EXPECT_EQ(s.reason, ShowdownReason::kCategory);
  EXPECT_EQ(s.english,
            "Full house, kings full of sevens beats flush, ace high");
  EXPECT_EQ(s.portuguese, "Fullen de reis e setes vence cor ao ás");

  s = CompareHands(Value("Jc Jd 9h 5s 2c"), Value("Kc Kd 9s 5h 2d"));
  EXPECT_EQ(s.winner, -1);
  EXPECT_EQ(s.reason, ShowdownReason::kRanks);
  EXPECT_EQ(s.english, "Pair of kings beats pair of jacks");

  s = CompareHands(Value("Jc Jd Ah Ks 3c"), Value("Jh Js Ad Qd 2c"));
  EXPECT_EQ(s.winner, 1);
  EXPECT_EQ(s.reason, ShowdownReason::kKicker);
  EXPECT_EQ(s.english,
            "Pair of jacks beats pair of jacks: kicker king over queen");
  EXPECT_EQ(s.portuguese,
            "Par de valetes vence par de valetes: kicker rei contra dama");

  s = CompareHands(Value("Ac 9c 7c 5c 3c"), Value("Ad 9d 7d 5d 2d"));
  EXPECT_EQ(s.reason, ShowdownReason::kKicker);
  EXPECT_EQ(s.english,
            "Flush, ace high beats flush, ace high: fifth card three over two");
  EXPECT_EQ(s.portuguese,
            "Cor ao ás vence cor ao ás: quinta carta três contra dois");
}

TEST(Showdown, TieSplits_HE_33) {
  const Showdown s =
      CompareHands(Value("Ac Kd 9h 5s 2c"), Value("Ad Kh 9s 5c 2d"));
  EXPECT_EQ(s.winner, 0);
  EXPECT_EQ(s.reason, ShowdownReason::kTie);
  EXPECT_EQ(s.english, "Tie: both hands are high card, ace");
  EXPECT_EQ(s.portuguese, "Empate: ambas as mãos são cartas maiores, ás");
}

}  // namespace
}  // namespace banca::cards
