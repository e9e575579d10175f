#include "libs/games/tournament/guarantee.h"

#include <vector>

#include "gtest/gtest.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/test_util.h"

namespace banca::games::tournament {
namespace {

using Prizes = std::vector<int64_t>;

FixedPrizes Fix(int64_t collected, int64_t guarantee,
                const std::vector<int32_t>& payouts_bps, int players) {
  absl::StatusOr<FixedPrizes> f =
      FixPrizes(collected, guarantee, payouts_bps, players);
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? *f : FixedPrizes{};
}

TEST(PrizeGuarantee, HousePaysTheShortfall_TN7m) {
  // 30 buy-ins of 900 to the pool: 27,000 under a 30,000 guarantee; the
  // overlay is 3,000 and the prizes are paid on 30,000.
  const FixedPrizes f = Fix(27'000, 30'000, {5000, 3000, 2000}, 30);
  EXPECT_EQ(f.collected, 27'000);
  EXPECT_EQ(f.overlay, 3'000);
  EXPECT_EQ(f.pool, 30'000);
  EXPECT_EQ(f.prizes, (Prizes{15'000, 9'000, 6'000}));
}

TEST(PrizeGuarantee, NoOverlayOnceThePoolMeetsIt_TN7m) {
  // 30 × 1001 = 30,030 ≥ 30,000: 50/30/20 % of 30,030, exact.
  FixedPrizes f = Fix(30'030, 30'000, {5000, 3000, 2000}, 30);
  EXPECT_EQ(f.overlay, 0);
  EXPECT_EQ(f.prizes, (Prizes{15'015, 9'009, 6'006}));
  EXPECT_EQ(Fix(30'000, 30'000, {10'000}, 2).overlay, 0);
  EXPECT_EQ(Fix(30'000, 0, {10'000}, 2).overlay, 0);
}

TEST(PrizeGuarantee, WorkedExampleOfTheDocs_TN7m_TN54) {
  // docs/tournaments.md: 30 × 1001 = 30,030 under a €305 guarantee:
  // overlay 470; 30,500 paid 40 / 26.5 / 19.5 / 14 % (see PrizeStructure.
  // LeftoverCentsGoToTopPlaces_TN54 for the cents).
  const FixedPrizes f = Fix(30'030, 30'500, {4000, 2650, 1950, 1400}, 30);
  EXPECT_EQ(f.overlay, 470);
  EXPECT_EQ(f.prizes, (Prizes{12'201, 8'082, 5'947, 4'270}));
}

TEST(PrizeGuarantee, AFreeTournamentIsAllOverlay_TN7m) {
  const FixedPrizes f = Fix(0, 10'001, {6000, 4000}, 2);
  EXPECT_EQ(f.overlay, 10'001);
  // 6,000.6 → 6,000 and 4,000.4 → 4,000: one cent left, to place 1.
  EXPECT_EQ(f.prizes, (Prizes{6'001, 4'000}));
}

TEST(PrizeGuarantee, LargestGuaranteeOnAnEmptyPool_TN7m) {
  EXPECT_EQ(*Overlay(0, kMaxAmountMinor), kMaxAmountMinor);
  EXPECT_EQ(*Overlay(kMaxAmountMinor, kMaxAmountMinor), 0);
  EXPECT_EQ(*Overlay(kMaxAmountMinor - 1, kMaxAmountMinor), 1);
}

TEST(PrizeGuarantee, BadInputIsRejected) {
  EXPECT_TRUE(IsInvalid(Overlay(0, -1).status(), "guarantee"));
  EXPECT_TRUE(IsInvalid(Overlay(0, kMaxAmountMinor + 1).status(), "guarantee"));
  EXPECT_TRUE(IsInvalid(Overlay(-1, 0).status(), "pool"));
  EXPECT_TRUE(
      IsInvalid(FixPrizes(100, 0, {5000, 5001}, 2).status(), "payouts_bps"));
  EXPECT_TRUE(IsInvalid(FixPrizes(100, 0, {5000, 3000, 2000}, 2).status(),
                        "payouts_bps"));
}

}  // namespace
}  // namespace banca::games::tournament
