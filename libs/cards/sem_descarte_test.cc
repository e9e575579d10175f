#include "libs/cards/sem_descarte.h"

#include "gtest/gtest.h"
#include "libs/cards/test_util.h"

namespace banca::cards::sem_descarte {
namespace {

Showdown Compare(std::string_view player, std::string_view bank) {
  absl::StatusOr<Showdown> s =
      ComparePlayerWithBankChecked(Cards(player), Cards(bank));
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : Showdown{};
}

TEST(SemDescarte, BankQualifiesWithAceKingOrBetter_SD_25) {
  EXPECT_TRUE(BankQualifies(Value("As Kd 4c 3h 2c")));
  EXPECT_TRUE(BankQualifies(Value("As Kd Qc Jh 9c")));
  EXPECT_TRUE(BankQualifies(Value("2s 2d 4c 3h 7c")));  // Any pair.
  EXPECT_TRUE(BankQualifies(Value("Ac 2d 3h 4s 5c")));  // Wheel straight.
  EXPECT_FALSE(BankQualifies(Value("As Qd Jc 9h 8c")));
  EXPECT_FALSE(BankQualifies(Value("Ks Qd Jc 9h 8c")));
}

TEST(SemDescarte, RankingRoyalDownToHighCards_SD_7) {
  EXPECT_GT(Value("As Ks Qs Js Ts"), Value("Ks Qs Js Ts 9s"));
  EXPECT_GT(Value("Ks Qs Js Ts 9s"), Value("7c 7d 7h 7s 2c"));
  EXPECT_GT(Value("2c 2d 2h 3s 3c"), Value("Ad Jd 8d 4d 2d"));
  EXPECT_GT(Value("Ad Jd 8d 4d 2d"), Value("Ac Kd Qh Js Tc"));
  EXPECT_GT(Value("2c 2d 2h 5s 3c"), Value("Ac Ad Kh Ks Qc"));
  EXPECT_GT(Value("2c 2d 4h 3s 7d"), Value("Ac Kd Qh Js 9c"));
}

TEST(SemDescarte, AceHighInRoyalLowInWheel_SD_8) {
  EXPECT_TRUE(Value("Ah Kh Qh Jh Th").IsRoyalFlush());
  EXPECT_LT(Value("Ah 2h 3h 4h 5h"), Value("2d 3d 4d 5d 6d"));
  EXPECT_LT(Value("Ah 2d 3h 4h 5h"), Value("2d 3c 4d 5d 6d"));
  // SD gap 6: A-K-Q-J-10 of mixed suits is the top straight.
  EXPECT_EQ(Value("Ah Kd Qh Jh Th").category(), Category::kStraight);
}

TEST(SemDescarte, HighCardsComparedOneByOne_SD_9) {
  const Showdown s = Compare("Ac Qd 9h 5s 3c", "Ad Qh 9s 5c 2d");
  EXPECT_EQ(s.winner, 1);
  EXPECT_EQ(s.reason, ShowdownReason::kKicker);
}

TEST(SemDescarte, EqualHighCardsThreeOfOneSuitWins_SD_9) {
  Showdown s = Compare("Ac Qc 9c 5s 3d", "Ad Qh 9s 5c 3h");
  EXPECT_EQ(s.winner, 1);
  EXPECT_EQ(s.reason, ShowdownReason::kSuits);
  EXPECT_EQ(s.english,
            "Player wins equal hands (High card, ace): three cards of one "
            "suit (SD-9)");
  s = Compare("Ad Qh 9s 5c 3h", "Ac Qc 9c 5s 3d");
  EXPECT_EQ(s.winner, -1);
  EXPECT_EQ(s.portuguese,
            "Ganha a banca com mãos iguais (Cartas maiores, ás): três cartas "
            "do mesmo naipe (SD-9)");
  // Four of one suit also has three of one suit.
  EXPECT_EQ(Compare("Ac Qc 9c 5c 3d", "Ad Qh 9s 5h 3s").winner, 1);
}

TEST(SemDescarte, EqualHighCardsBothOrNeitherSuitedPush_SD_9) {
  EXPECT_EQ(Compare("Ac Qc 9c 5s 3d", "Ad Qd 9d 5h 3s").winner, 0);
  EXPECT_EQ(Compare("Ac Qd 9c 5s 3h", "Ad Qc 9h 5d 3s").winner, 0);
  // SD-9's suit rule is for high cards only: equal pairs push.
  EXPECT_EQ(Compare("Ac Ad 9c 5c 3c", "Ah As 9d 5h 3s").winner, 0);
}

TEST(SemDescarte, SameCombinationTieRules_SD_13) {
  // a) straight: highest card.
  EXPECT_EQ(Compare("9c 8d 7h 6s 5c", "Tc 9d 8h 7s 6d").winner, -1);
  // b) four of a kind: the higher four.
  EXPECT_EQ(Compare("9c 9d 9h 9s 2c", "8c 8d 8h 8s Ac").winner, 1);
  // c) full house: the higher three.
  EXPECT_EQ(Compare("3c 3d 3h 4s 4c", "2d 2h 2s Ac Ad").winner, 1);
  // d) flush: highest card, then on down (gap 2).
  EXPECT_EQ(Compare("Ac 9c 7c 5c 3c", "Kd Qd Jd 9d 7d").winner, 1);
  EXPECT_EQ(Compare("Ac 9c 7c 5c 2c", "Ad 9d 7d 5d 3d").winner, -1);
  // e) three of a kind: the higher three.
  EXPECT_EQ(Compare("4c 4d 4h 2s 3c", "3d 3h 3s Ac Kd").winner, 1);
  // f) two pairs: higher pair, other pair, remaining card.
  EXPECT_EQ(Compare("Ac Ad 3h 3s 2c", "Kc Kd Qh Qs Jc").winner, 1);
  EXPECT_EQ(Compare("Ac Ad 9h 9s 2c", "Ah As Tc Td 3c").winner, -1);
  EXPECT_EQ(Compare("Ac Ad 9h 9s 3c", "Ah As 9c 9d 2c").winner, 1);
  // g) pair: higher pair; if equal, the highest card, then on down.
  EXPECT_EQ(Compare("Jc Jd 4h 3s 2c", "Tc Td Ah Ks Qc").winner, 1);
  EXPECT_EQ(Compare("Jc Jd Ah 3s 2c", "Jh Js Kh Qs Tc").winner, 1);
  EXPECT_EQ(Compare("Jc Jd Ah Ks 2c", "Jh Js Ad Kd 3c").winner, -1);
}

TEST(SemDescarte, ExactTieIsPush_SD_gap1) {
  const Showdown s = Compare("Ac Kd 9h 5s 2c", "Ad Kh 9s 5c 2d");
  EXPECT_EQ(s.winner, 0);
  EXPECT_EQ(s.reason, ShowdownReason::kTie);
}

TEST(SemDescarte, CheckedRejectsBadHands) {
  EXPECT_FALSE(ComparePlayerWithBankChecked(Cards("Ac Kd 9h 5s"),
                                            Cards("Ad Kh 9s 5c 2d"))
                   .ok());
  EXPECT_FALSE(ComparePlayerWithBankChecked(Cards("Ac Kd 9h 5s 2c"),
                                            Cards("Ac Kh 9s 5c 2d"))
                   .ok());
}

}  // namespace
}  // namespace banca::cards::sem_descarte
