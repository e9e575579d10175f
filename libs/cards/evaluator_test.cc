#include "libs/cards/evaluator.h"

#include <algorithm>
#include <array>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/random.h"
#include "libs/cards/seeded_random.h"
#include "libs/cards/test_util.h"

namespace banca::cards {
namespace {

TEST(HandRanking, CategoryOrder_HE_29) {
  const std::vector<HandValue> high_to_low = {
      Value("As Ks Qs Js Ts"),  // a) royal flush
      Value("9h 8h 7h 6h 5h"),  // b) straight flush
      Value("7c 7d 7h 7s 2c"),  // c) four of a kind
      Value("Kc Kd Kh 7s 7c"),  // d) full house
      Value("Ad Jd 8d 4d 2d"),  // e) flush
      Value("Tc 9d 8h 7s 6c"),  // f) straight
      Value("Qc Qd Qh 9s 2c"),  // g) three of a kind
      Value("Ac Ad 8h 8s 2c"),  // h) two pairs
      Value("Jc Jd 9h 5s 2c"),  // i) pair
      Value("Ac Qd 9h 5s 2c"),  // j) high cards
  };
  for (size_t i = 0; i + 1 < high_to_low.size(); ++i) {
    EXPECT_GT(high_to_low[i], high_to_low[i + 1]) << i;
  }
  EXPECT_TRUE(high_to_low[0].IsRoyalFlush());
  EXPECT_FALSE(high_to_low[1].IsRoyalFlush());
  EXPECT_EQ(high_to_low[0].ClassIndex(), kNumHandClasses - 1);
  EXPECT_EQ(Value("7c 5d 4h 3s 2c").ClassIndex(), 0);
  EXPECT_EQ(high_to_low[3].category(), Category::kFullHouse);
  EXPECT_EQ(high_to_low[9].category(), Category::kHighCard);
}

TEST(HandRanking, AceHighOrLowInStraights_HE_31) {
  const HandValue broadway = Value("Ac Kd Qh Js Tc");
  const HandValue wheel = Value("Ac 2d 3h 4s 5c");
  const HandValue six_high = Value("2c 3d 4h 5s 6c");
  EXPECT_EQ(broadway.category(), Category::kStraight);
  EXPECT_EQ(wheel.category(), Category::kStraight);
  EXPECT_LT(wheel, six_high);  // The ace counts 1: five-high straight.
  EXPECT_GT(broadway, Value("Kc Qd Jh Ts 9c"));
  EXPECT_EQ(Evaluator::Get().Class(wheel).ranks[0], Rank::kFive);
  // No wrap-around.
  EXPECT_EQ(Value("Qc Kd Ah 2s 3c").category(), Category::kHighCard);
  // Steel wheel: the lowest straight flush.
  const HandValue steel = Value("Ah 2h 3h 4h 5h");
  EXPECT_EQ(steel.category(), Category::kStraightFlush);
  EXPECT_LT(steel, Value("2h 3h 4h 5h 6h"));
}

TEST(HandRanking, FourOfAKindHigherFourThenKicker_HE_32a) {
  EXPECT_GT(Value("8c 8d 8h 8s 2c"), Value("7c 7d 7h 7s Ac"));
  // Equal fours only arise with shared cards (board): the kicker decides.
  EXPECT_GT(Value("8c 8d 8h 8s Kc 2d 3d"), Value("8c 8d 8h 8s Qc 2d 3d"));
}

TEST(HandRanking, FullHouseHigherThreeThenPair_HE_32b) {
  EXPECT_GT(Value("Kc Kd Kh 2s 2c"), Value("Qc Qd Qh As Ac"));
  EXPECT_GT(Value("Kc Kd Kh As Ac 2d 3d"), Value("Kc Kd Kh Qs Qc 2d 3d"));
}

TEST(HandRanking, StraightsByHighestCard_HE_32c) {
  EXPECT_GT(Value("Tc 9d 8h 7s 6c"), Value("9c 8d 7h 6s 5c"));
  EXPECT_GT(Value("Th 9h 8h 7h 6h"), Value("9c 8c 7c 6c 5c"));
  EXPECT_EQ(Value("Tc 9d 8h 7s 6c"), Value("Td 9c 8s 7h 6d"));
}

TEST(HandRanking, FlushesCardByCard_HE_32d) {
  EXPECT_GT(Value("Ac 9c 7c 5c 3c"), Value("Kd Qd Jd 9d 7d"));
  // HE gap 15: equal top cards go on down all five.
  EXPECT_GT(Value("Ac 9c 7c 5c 3c"), Value("Ad 9d 7d 5d 2d"));
}

TEST(HandRanking, ThreeOfAKindThenKickers_HE_32e) {
  EXPECT_GT(Value("9c 9d 9h 3s 2c"), Value("8c 8d 8h As Kc"));
  EXPECT_GT(Value("9c 9d 9h As 2c 3d 4s"), Value("9c 9d 9h Ks Qc 3d 4s"));
  EXPECT_GT(Value("9c 9d 9h As Qc"), Value("9c 9d 9h As Jc"));
}

TEST(HandRanking, TwoPairsTopPairSecondPairKicker_HE_32f) {
  EXPECT_GT(Value("Ac Ad 3h 3s 2c"), Value("Kc Kd Qh Qs Jc"));
  EXPECT_GT(Value("Ac Ad 9h 9s 2c"), Value("Ah As 8h 8s Kc"));
  EXPECT_GT(Value("Ac Ad 9h 9s 3c"), Value("Ah As 9c 9d 2c"));
}

TEST(HandRanking, PairThenThirdToFifthCard_HE_32g) {
  EXPECT_GT(Value("Jc Jd 4h 3s 2c"), Value("Tc Td Ah Ks Qc"));
  EXPECT_GT(Value("Jc Jd Ah 3s 2c"), Value("Jh Js Kh Qs Tc"));
  EXPECT_GT(Value("Jc Jd Ah Ks 3c"), Value("Jh Js Ad Kd 2c"));
}

TEST(HandRanking, IdenticalRanksTie_HE_33) {
  EXPECT_EQ(Value("Ac Kd 9h 5s 2c"), Value("Ad Kh 9s 5c 2d"));
  EXPECT_EQ(Value("Ac Ad Kh Ks 2c"), Value("Ah As Kc Kd 2d"));
  // Board plays for both: 7-card hands tie on the same best five.
  EXPECT_EQ(Value("2c 3d As Ks Qs Js Ts"), Value("4c 5d As Ks Qs Js Ts"));
}

TEST(HandRanking, BestFiveOfSevenAnyCombination_HE_26) {
  // Both hole cards, one, or none may play.
  EXPECT_EQ(Value("Ah Kh Qh Jh 2c 3d Th"), Value("Ah Kh Qh Jh Th"));
  EXPECT_EQ(Value("7c 7d 7h 2s 2c Ad Ks").category(), Category::kFullHouse);
  EXPECT_EQ(Value("9c 9d 9h 9s Kc Kd Kh").category(), Category::kFourOfAKind);
  // Flush beats the straight also present among seven cards.
  EXPECT_EQ(Value("2h 3h 4c 5h 6s 9h Kh").category(), Category::kFlush);
  // Six and five cards work too.
  EXPECT_EQ(Value("Ah Kh Qh Jh Th 9h").category(), Category::kStraightFlush);
}

TEST(Evaluator, CheckedRejectsBadInput) {
  const Evaluator& ev = Evaluator::Get();
  EXPECT_FALSE(ev.EvaluateChecked(Cards("As Ks Qs Js")).ok());
  EXPECT_FALSE(ev.EvaluateChecked(Cards("As Ks Qs Js Ts 9s 8s 7s")).ok());
  std::vector<Card> dup = Cards("As Ks Qs Js Ts");
  dup[1] = dup[0];
  EXPECT_FALSE(ev.EvaluateChecked(dup).ok());
}

// An independent, deliberately plain evaluator: category then ranks in
// significance order, best over all five-card subsets.
struct Naive {
  int category;
  std::vector<int> ranks;
  auto operator<=>(const Naive&) const = default;
};

Naive NaiveFive(const std::array<Card, 5>& five) {
  std::array<int, 13> count{};
  bool flush = true;
  for (const Card& c : five) {
    ++count[static_cast<int>(c.rank())];
    flush &= c.suit() == five[0].suit();
  }
  std::vector<std::pair<int, int>> groups;  // (count, rank)
  for (int r = 0; r < 13; ++r) {
    if (count[r]) groups.push_back({count[r], r});
  }
  std::sort(groups.rbegin(), groups.rend());
  std::vector<int> ranks;
  for (auto [n, r] : groups) ranks.push_back(r);
  int straight_top = -1;
  if (groups.size() == 5) {
    if (ranks[0] - ranks[4] == 4) straight_top = ranks[0];
    if (ranks == std::vector<int>{12, 3, 2, 1, 0}) straight_top = 3;
  }
  if (straight_top >= 0) return {flush ? 9 : 5, {straight_top}};
  if (flush) return {6, ranks};
  if (groups[0].first == 4) return {8, ranks};
  if (groups[0].first == 3) return {groups[1].first == 2 ? 7 : 4, ranks};
  if (groups[0].first == 2) return {groups[1].first == 2 ? 3 : 2, ranks};
  return {1, ranks};
}

Naive NaiveBest(const std::vector<Card>& cards) {
  Naive best{0, {}};
  const int n = static_cast<int>(cards.size());
  for (int mask = 0; mask < (1 << n); ++mask) {
    if (std::popcount(static_cast<unsigned>(mask)) != 5) continue;
    std::array<Card, 5> five;
    int k = 0;
    for (int i = 0; i < n; ++i) {
      if (mask >> i & 1) five[k++] = cards[i];
    }
    best = std::max(best, NaiveFive(five));
  }
  return best;
}

TEST(Evaluator, AgreesWithNaiveReferenceOnRandomHands) {
  const Evaluator& ev = Evaluator::Get();
  auto rng = testing::SeededRandomSource::FromSeed(11);
  std::vector<Card> deck = StandardDeck();
  Naive prev_naive{0, {}};
  HandValue prev_value;
  for (int i = 0; i < 100'000; ++i) {
    const int size = 5 + i % 3;
    Shuffle(absl::MakeSpan(deck), rng);
    std::vector<Card> hand(deck.begin(), deck.begin() + size);
    const HandValue v = ev.Evaluate(hand);
    const Naive naive = NaiveBest(hand);
    const HandClass& c = ev.Class(v);
    ASSERT_EQ(static_cast<int>(c.category), naive.category)
        << CardsToString(hand);
    ASSERT_EQ(c.num_ranks, static_cast<int>(naive.ranks.size()));
    for (int k = 0; k < c.num_ranks; ++k) {
      ASSERT_EQ(static_cast<int>(c.ranks[k]), naive.ranks[k])
          << CardsToString(hand);
    }
    ASSERT_EQ(v <=> prev_value, naive <=> prev_naive) << CardsToString(hand);
    if (size == 7) {
      ASSERT_EQ(ev.Evaluate7(hand.data()), v);
    }
    prev_naive = naive;
    prev_value = v;
  }
}

TEST(Evaluator, AccumulatorsCombine) {
  const std::vector<Card> cards = Cards("Ah Kh 7c 7d 2h 9h 3s");
  const CardAccumulator hole = CardAccumulator() + cards[0] + cards[1];
  const CardAccumulator board(absl::MakeConstSpan(cards).subspan(2));
  EXPECT_EQ(Evaluator::Get().Evaluate(hole + board),
            Evaluator::Get().Evaluate(cards));
  EXPECT_EQ((hole + board).key(), CardAccumulator(cards).key());
  EXPECT_EQ((hole + board).mask(), CardAccumulator(cards).mask());
}

}  // namespace
}  // namespace banca::cards
