// Exhaustive exactness: every five-card hand and every seven-card set, checked
// against the published combinatorial counts. Runs in CI in optimized builds
// (about a second for all 133,784,560 seven-card sets).
#include <array>
#include <bitset>
#include <cstdint>

#include "gtest/gtest.h"
#include "libs/cards/card.h"
#include "libs/cards/eval_bench.h"
#include "libs/cards/evaluator.h"

namespace banca::cards {
namespace {

using Counts = std::array<uint64_t, 10>;  // Indexed by Category; [0] unused.

constexpr int kSf = static_cast<int>(Category::kStraightFlush);
constexpr int kQuads = static_cast<int>(Category::kFourOfAKind);
constexpr int kFull = static_cast<int>(Category::kFullHouse);
constexpr int kFlush = static_cast<int>(Category::kFlush);
constexpr int kStraight = static_cast<int>(Category::kStraight);
constexpr int kTrips = static_cast<int>(Category::kThreeOfAKind);
constexpr int kTwoPair = static_cast<int>(Category::kTwoPair);
constexpr int kPair = static_cast<int>(Category::kPair);
constexpr int kHigh = static_cast<int>(Category::kHighCard);

CardAccumulator Add(const CardAccumulator& h, int card) {
  return h + Card::FromIndex(card);
}

TEST(Exhaustive, AllFiveCardHandsGiveKnownCountsAnd7462Classes_HE_29) {
  const Evaluator& ev = Evaluator::Get();
  Counts counts{};
  uint64_t royal = 0;
  std::bitset<1 << 16> seen;
  const CardAccumulator h0;
  for (int a = 0; a < 52; ++a) {
    const CardAccumulator h1 = Add(h0, a);
    for (int b = a + 1; b < 52; ++b) {
      const CardAccumulator h2 = Add(h1, b);
      for (int c = b + 1; c < 52; ++c) {
        const CardAccumulator h3 = Add(h2, c);
        for (int d = c + 1; d < 52; ++d) {
          const CardAccumulator h4 = Add(h3, d);
          for (int e = d + 1; e < 52; ++e) {
            const HandValue v = ev.Evaluate(Add(h4, e));
            ++counts[static_cast<int>(v.category())];
            royal += v.IsRoyalFlush();
            seen.set(v.raw());
          }
        }
      }
    }
  }
  EXPECT_EQ(counts[kSf], 40u);
  EXPECT_EQ(royal, 4u);
  EXPECT_EQ(counts[kQuads], 624u);
  EXPECT_EQ(counts[kFull], 3744u);
  EXPECT_EQ(counts[kFlush], 5108u);
  EXPECT_EQ(counts[kStraight], 10200u);
  EXPECT_EQ(counts[kTrips], 54912u);
  EXPECT_EQ(counts[kTwoPair], 123552u);
  EXPECT_EQ(counts[kPair], 1098240u);
  EXPECT_EQ(counts[kHigh], 1302540u);
  EXPECT_EQ(seen.count(), static_cast<size_t>(kNumHandClasses));
}

TEST(Exhaustive, AllSevenCardSetsGiveKnownBestHandCounts_HE_26) {
  const Evaluator& ev = Evaluator::Get();
  // One histogram per value keeps consecutive increments off the same
  // counter; categories are summed afterwards. A value is its category
  // (< 10) shifted by 12 and its rank inside it, so every index of
  // `counts` has its 4,096 values and no more (with 1 << 16 values, the
  // sum below wrote past the end of `counts`: ASan).
  std::vector<uint32_t> by_value(Counts{}.size() << 12, 0);
  const CardAccumulator h0;
  for (int a = 0; a < 52; ++a) {
    const CardAccumulator h1 = Add(h0, a);
    for (int b = a + 1; b < 52; ++b) {
      const CardAccumulator h2 = Add(h1, b);
      for (int c = b + 1; c < 52; ++c) {
        const CardAccumulator h3 = Add(h2, c);
        for (int d = c + 1; d < 52; ++d) {
          const CardAccumulator h4 = Add(h3, d);
          for (int e = d + 1; e < 52; ++e) {
            const CardAccumulator h5 = Add(h4, e);
            for (int f = e + 1; f < 52; ++f) {
              const CardAccumulator h6 = Add(h5, f);
              for (int g = f + 1; g < 52; ++g) {
                ++by_value[ev.Evaluate(Add(h6, g)).raw()];
              }
            }
          }
        }
      }
    }
  }
  Counts counts{};
  uint64_t total = 0;
  for (size_t v = 0; v < by_value.size(); ++v) {
    counts[v >> 12] += by_value[v];
    total += by_value[v];
  }
  const uint64_t royal =
      by_value[(static_cast<int>(Category::kStraightFlush) << 12) | 10];
  EXPECT_EQ(total, 133784560u);
  EXPECT_EQ(counts[0], 0u);
  EXPECT_EQ(counts[kSf], 41584u);
  EXPECT_EQ(royal, 4324u);
  EXPECT_EQ(counts[kQuads], 224848u);
  EXPECT_EQ(counts[kFull], 3473184u);
  EXPECT_EQ(counts[kFlush], 4047644u);
  EXPECT_EQ(counts[kStraight], 6180020u);
  EXPECT_EQ(counts[kTrips], 6461620u);
  EXPECT_EQ(counts[kTwoPair], 31433400u);
  EXPECT_EQ(counts[kPair], 58627800u);
  EXPECT_EQ(counts[kHigh], 23294460u);

  // The benchmark's enumeration (which skips the flush test when six cards
  // hold no four of a suit) computes exactly the same values.
  uint64_t value_sum = 0;
  for (size_t v = 0; v < by_value.size(); ++v) value_sum += v * by_value[v];
  EXPECT_EQ(EnumerateAllSeven(), value_sum);
}

}  // namespace
}  // namespace banca::cards
