#include "libs/games/stud_no_draw/exact_rtp.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/random.h"
#include "libs/cards/seeded_random.h"
#include "libs/cards/sem_descarte.h"
#include "libs/cards/test_util.h"

namespace banca::games::stud_no_draw {
namespace {

using cards::Card;

const ExactRtpCalculator& Calculator() {
  static const std::unique_ptr<ExactRtpCalculator> kCalc =
      ExactRtpCalculator::Build();
  return *kCalc;
}

TEST(StudNoDrawExactRtp, ComparisonKeyOrdersAsTheRules_SD_9_SD_13) {
  auto rng = cards::testing::SeededRandomSource::FromSeed(7);
  std::vector<Card> deck = cards::StandardDeck();
  for (int i = 0; i < 100'000; ++i) {
    cards::Shuffle(absl::MakeSpan(deck), rng);
    const absl::Span<const Card> p(deck.data(), 5), b(deck.data() + 5, 5);
    const int key_order = ComparisonKey(p) < ComparisonKey(b)   ? -1
                          : ComparisonKey(p) > ComparisonKey(b) ? 1
                                                                : 0;
    ASSERT_EQ(key_order,
              cards::sem_descarte::ComparePlayerWithBank(p, b).winner)
        << cards::CardsToString(p) << " vs " << cards::CardsToString(b);
  }
  // Equal high cards, one with three of a suit.
  EXPECT_GT(ComparisonKey(cards::Cards("Ac Kc 9c 5s 3d")),
            ComparisonKey(cards::Cards("Ad Kh 9s 5c 3h")));
}

// Every bank hand against a player hand, one by one.
BankCounts BruteForce(const std::vector<Card>& player) {
  const cards::CardSet used = cards::CardSet::Of(player);
  std::vector<Card> rest;
  for (Card c : cards::StandardDeck()) {
    if (!used.Contains(c)) rest.push_back(c);
  }
  const uint16_t kp = ComparisonKey(player);
  const uint16_t q = ComparisonKey(cards::Cards("As Kh 4c 3d 2c"));
  BankCounts n;
  const int m = static_cast<int>(rest.size());
  Card d[5];
  for (int a = 0; a < m; ++a) {
    d[0] = rest[a];
    for (int b = a + 1; b < m; ++b) {
      d[1] = rest[b];
      for (int c = b + 1; c < m; ++c) {
        d[2] = rest[c];
        for (int e = c + 1; e < m; ++e) {
          d[3] = rest[e];
          for (int f = e + 1; f < m; ++f) {
            d[4] = rest[f];
            const uint16_t kb = ComparisonKey(d);
            if (kb < q) {
              ++n.not_qualified;
            } else if (kb < kp) {
              ++n.player_wins;
            } else if (kb == kp) {
              ++n.push;
            } else {
              ++n.bank_wins;
            }
          }
        }
      }
    }
  }
  return n;
}

TEST(StudNoDrawExactRtp, InclusionExclusionEqualsBruteForce) {
  for (const char* hand :
       {"Ac Kc 9c 5s 3d", "As Kd 4c 3h 2c", "Qh Qs 5c 7s 6c", "2c 3d 4h 5s 7c",
        "As Ks Qs Js Ts", "9c 9d 9h Qs Qc"}) {
    const std::vector<Card> p = cards::Cards(hand);
    EXPECT_EQ(Calculator().CountsFor(p), BruteForce(p)) << hand;
  }
}

TEST(StudNoDrawExactRtp, EveryDealCountedOnce) {
  const ExactRtp r = Calculator().Compute();
  EXPECT_EQ(r.deals, int64_t{2'598'960} * 1'533'939);
  int64_t won = 0;
  for (int64_t w : r.won_by_multiplier) won += w;
  EXPECT_EQ(r.folded + r.not_qualified + r.pushed + r.lost + won, r.deals);
  // The strategy folds exactly the hands below ace-king: 1,302,540
  // high-card hands less 164 ace-king rank sets × 1,020 non-flush suitings.
  EXPECT_EQ(r.folded, int64_t{1'135'260} * 1'533'939);
  EXPECT_EQ(r.not_qualified, 979'597'801'296);
  EXPECT_EQ(r.pushed, 54'696'780);
  EXPECT_EQ(r.lost, 632'787'008'112);
  EXPECT_EQ(r.won_by_multiplier[1], 471'277'377'192);
  EXPECT_EQ(r.won_by_multiplier[2], 97'602'427'872);
  EXPECT_EQ(r.won_by_multiplier[3], 46'848'581'664);
  EXPECT_EQ(r.won_by_multiplier[4], 8'761'103'220);
  EXPECT_EQ(r.won_by_multiplier[5], 4'371'398'056);
  EXPECT_EQ(r.won_by_multiplier[7], 3'324'895'056);
  EXPECT_EQ(r.won_by_multiplier[20], 566'487'160);
  EXPECT_EQ(r.won_by_multiplier[50], 31'385'944);
  EXPECT_EQ(r.won_by_multiplier[100], 3'351'948);
  // docs/rtp.md: RTP = 8,250,579,091,332 / 8,477,099,132,040 ≈ 97.3279 %.
  EXPECT_EQ(r.staked, kExactStakedAntes);
  EXPECT_EQ(r.returned, kExactReturnedAntes);
}

}  // namespace
}  // namespace banca::games::stud_no_draw
