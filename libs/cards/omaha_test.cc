#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/evaluator.h"
#include "libs/cards/random.h"
#include "libs/cards/seeded_random.h"
#include "libs/cards/test_util.h"

namespace banca::cards {
namespace {

HandValue Omaha(std::string_view hole, std::string_view board) {
  absl::StatusOr<HandValue> v =
      Evaluator::Get().EvaluateOmahaChecked(Cards(hole), Cards(board));
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : HandValue();
}

TEST(Omaha, ExactlyTwoHoleAndThreeBoardCards_Decision) {
  // Four to a flush on board and one suited hole card: no flush.
  EXPECT_NE(Omaha("Ah Kc Qd 2s", "3h 7h 9h Jh 4c").category(),
            Category::kFlush);
  // Two suited hole cards make it.
  EXPECT_EQ(Omaha("Ah Kh Qd 2s", "3h 7h 9h Jc 4c"), Value("Ah Kh 3h 7h 9h"));
  // Four of a kind on board plays only three of them.
  EXPECT_EQ(Omaha("2c 3d 8h 9s", "Ac Ad Ah As Kc").category(),
            Category::kThreeOfAKind);
  // A hole set of trips uses only two.
  EXPECT_EQ(Omaha("Kc Kd Kh 2s", "7c 8d 3h 4s Jc").category(), Category::kPair);
  // Board straight needs two hole cards to join in.
  EXPECT_NE(Omaha("Ac Ad 2h 2s", "5c 6d 7h 8s 9c").category(),
            Category::kStraight);
  // Straight flush from two suited hole cards.
  EXPECT_EQ(Omaha("9s Ts 2c 2d", "Js Qs Ks 3h 4h").category(),
            Category::kStraightFlush);
  EXPECT_TRUE(Omaha("As Ts 2c 2d", "Js Qs Ks 3h 4h").IsRoyalFlush());
}

TEST(Omaha, CheckedRejectsBadInput) {
  const Evaluator& ev = Evaluator::Get();
  EXPECT_FALSE(ev.EvaluateOmahaChecked(Cards("As"), Cards("2c 3c 4c")).ok());
  EXPECT_FALSE(ev.EvaluateOmahaChecked(Cards("As Ks"), Cards("2c 3c")).ok());
  EXPECT_FALSE(
      ev.EvaluateOmahaChecked(Cards("As Ks Qs Js"), Cards("As 3c 4c 5c 6c"))
          .ok());
  // Other sizes (a five-card Omaha setting, a flop) use the enumerator.
  EXPECT_TRUE(
      ev.EvaluateOmahaChecked(Cards("As Ks Qs Js 2d"), Cards("Ts 3c 4c 5c 6c"))
          .ok());
}

// ≥ 1,000,000 random deals: the table evaluator equals the brute-force
// enumeration of all 60 two-plus-three combinations.
TEST(Omaha, FastEqualsBruteForceOnOneMillionRandomDeals) {
  const Evaluator& ev = Evaluator::Get();
  auto rng = testing::SeededRandomSource::FromSeed(404);
  std::vector<Card> deck = StandardDeck();
  int flushes = 0, straight_flushes = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    for (int k = 0; k < 9; ++k) {
      std::swap(deck[k], deck[k + UniformInt(rng, kNumCards - k)]);
    }
    const HandValue fast = ev.EvaluateOmaha(deck.data(), deck.data() + 4);
    const HandValue slow =
        ev.EvaluateOmahaBruteForce(absl::MakeConstSpan(deck.data(), 4),
                                   absl::MakeConstSpan(deck.data() + 4, 5));
    ASSERT_EQ(fast, slow) << CardsToString(absl::MakeConstSpan(deck.data(), 9));
    flushes += fast.category() == Category::kFlush;
    straight_flushes += fast.category() == Category::kStraightFlush;
  }
  // The random deals did exercise the flush paths.
  EXPECT_GT(flushes, 10'000);
  EXPECT_GT(straight_flushes, 10);
}

}  // namespace
}  // namespace banca::cards
