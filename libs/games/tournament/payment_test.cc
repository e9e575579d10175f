#include "libs/games/tournament/payment.h"

#include "gtest/gtest.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/test_util.h"

namespace banca::games::tournament {
namespace {

PaymentSplit Split(PaymentKind kind, int64_t amount, int32_t fee_bps,
                   int64_t bounty = 0) {
  absl::StatusOr<PaymentSplit> s = SplitPayment(kind, amount, fee_bps, bounty);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : PaymentSplit{-1, -1, -1};
}

TEST(TournamentPayment, BuyInIsPrizePartPlusFee_TN17_TN20) {
  // €10 with a 10 % fee: 1000 × 1000 / 10000 = 100 to the house, 900 to
  // the prize pool.
  EXPECT_EQ(Split(PaymentKind::kBuyIn, 1000, 1000), (PaymentSplit{900, 100}));
  // The reentry splits the same way (TN-18).
  EXPECT_EQ(Split(PaymentKind::kReentry, 1000, 1000), (PaymentSplit{900, 100}));
}

TEST(TournamentPayment, FeeIsFlooredThePoolKeepsTheFraction_TN20) {
  // "€10 + €1" is 1/11 of the buy-in, which no whole bps gives: at 909 bps
  // 1100 × 909 / 10000 = 99.99, floored to 99; the pool gets 1001.
  EXPECT_EQ(Split(PaymentKind::kBuyIn, 1100, 909), (PaymentSplit{1001, 99}));
  // 999 × 2000 / 10000 = 199.8 → 199.
  EXPECT_EQ(Split(PaymentKind::kBuyIn, 999, 2000), (PaymentSplit{800, 199}));
  // 1 × 200 / 10000 = 0.02 → 0: the cent goes to the pool.
  EXPECT_EQ(Split(PaymentKind::kBuyIn, 1, 200), (PaymentSplit{1, 0}));
}

TEST(TournamentPayment, EntryFeeIsTwoToTwentyPercent_TN18) {
  for (PaymentKind kind : {PaymentKind::kBuyIn, PaymentKind::kReentry}) {
    EXPECT_TRUE(SplitPayment(kind, 1000, 200, 0).ok());
    EXPECT_TRUE(SplitPayment(kind, 1000, 2000, 0).ok());
    for (int32_t bad : {0, 199, 2001, -200, 10000}) {
      EXPECT_TRUE(
          IsInvalid(SplitPayment(kind, 1000, bad, 0).status(), "fee_bps"))
          << bad;
    }
  }
}

TEST(TournamentPayment, RebuyAndAddOnFeeIsNoneOrTwoToTwentyPercent_TN18) {
  for (PaymentKind kind : {PaymentKind::kRebuy, PaymentKind::kAddOn}) {
    EXPECT_EQ(Split(kind, 1000, 0), (PaymentSplit{1000, 0}));
    // 501 × 1000 / 10000 = 50.1 → 50.
    EXPECT_EQ(Split(kind, 501, 1000), (PaymentSplit{451, 50}));
    for (int32_t bad : {1, 199, 2001, -1}) {
      EXPECT_TRUE(
          IsInvalid(SplitPayment(kind, 1000, bad, 0).status(), "fee_bps"))
          << bad;
    }
  }
}

TEST(TournamentPayment, BountyComesOutOfThePrizeSide_TN7p) {
  // €22 at 10 % with a €10 bounty: fee 220 on the whole buy-in, bounty
  // 1000, pool 2200 − 220 − 1000 = 980.
  const PaymentSplit s = Split(PaymentKind::kBuyIn, 2200, 1000, 1000);
  EXPECT_EQ(s, (PaymentSplit{980, 220, 1000}));
  EXPECT_EQ(s.amount(), 2200);
  // A reentry is an entry: it carries a bounty again.
  EXPECT_EQ(Split(PaymentKind::kReentry, 2200, 1000, 1000), s);
  // The whole prize side may be the bounty: 1000 − 100 = 900.
  EXPECT_EQ(Split(PaymentKind::kBuyIn, 1000, 1000, 900),
            (PaymentSplit{0, 100, 900}));
}

TEST(TournamentPayment, BountyOnlyOnEntriesAndWithinThePrizeSide_TN7p) {
  EXPECT_TRUE(IsInvalid(SplitPayment(PaymentKind::kRebuy, 1000, 0, 1).status(),
                        "bounty"));
  EXPECT_TRUE(IsInvalid(
      SplitPayment(PaymentKind::kAddOn, 1000, 1000, 1).status(), "bounty"));
  // 1000 − fee 100 leaves 900: a bounty of 901 does not fit.
  EXPECT_TRUE(IsInvalid(
      SplitPayment(PaymentKind::kBuyIn, 1000, 1000, 901).status(), "bounty"));
  EXPECT_TRUE(IsInvalid(
      SplitPayment(PaymentKind::kBuyIn, 1000, 1000, -1).status(), "bounty"));
}

TEST(TournamentPayment, FreeEntryHasNoParts_TN15) {
  EXPECT_EQ(Split(PaymentKind::kBuyIn, 0, 1000), (PaymentSplit{0, 0, 0}));
}

TEST(TournamentPayment, AmountsOutOfRangeAreRejected) {
  EXPECT_TRUE(IsInvalid(SplitPayment(PaymentKind::kBuyIn, -1, 1000, 0).status(),
                        "amount"));
  EXPECT_TRUE(IsInvalid(
      SplitPayment(PaymentKind::kBuyIn, kMaxAmountMinor + 1, 1000, 0).status(),
      "amount"));
  EXPECT_TRUE(IsInvalid(
      SplitPayment(PaymentKind::kBuyIn, 1000, 1000, kMaxAmountMinor + 1)
          .status(),
      "bounty"));
}

TEST(TournamentPayment, LargestAmountSplitsExactly_TN20) {
  // 999,999,999,999,999 × 2000 / 10000 = 199,999,999,999,999.8 → floored.
  EXPECT_EQ(Split(PaymentKind::kBuyIn, kMaxAmountMinor - 1, 2000),
            (PaymentSplit{800'000'000'000'000, 199'999'999'999'999}));
  EXPECT_EQ(Split(PaymentKind::kBuyIn, kMaxAmountMinor, 2000, 1),
            (PaymentSplit{799'999'999'999'999, 200'000'000'000'000, 1}));
}

}  // namespace
}  // namespace banca::games::tournament
