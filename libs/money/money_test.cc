#include "libs/money/money.h"

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace banca::money {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(MoneyArithmetic, AddSubMulExact) {
  EXPECT_EQ(*Add(1234, 66), 1300);
  EXPECT_EQ(*Sub(100, 250), -150);
  EXPECT_EQ(*Mul(-7, 3), -21);
}

TEST(MoneyArithmetic, OverflowIsOutOfRange) {
  EXPECT_EQ(Add(kMax, 1).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(Sub(kMin, 1).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(Mul(kMax / 2 + 1, 2).status().code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(*Add(kMax, kMin), -1);
}

TEST(MoneyFormat, PrintsTwoDecimalsAndCurrency) {
  EXPECT_EQ(Format(1234, "EUR"), "12.34 EUR");
  EXPECT_EQ(Format(5, "EUR"), "0.05 EUR");
  EXPECT_EQ(Format(-5, "EUR"), "-0.05 EUR");
  EXPECT_EQ(Format(0, "EUR"), "0.00 EUR");
  EXPECT_EQ(FormatMinor(kMin), "-92233720368547758.08");
  EXPECT_EQ(FormatMinor(kMax), "92233720368547758.07");
}

TEST(MoneyParse, AcceptsCanonicalForms) {
  EXPECT_EQ(Parse("12.34 EUR")->minor, 1234);
  EXPECT_EQ(Parse("12.34 EUR")->currency, "EUR");
  EXPECT_EQ(Parse("12 EUR")->minor, 1200);
  EXPECT_EQ(Parse("12.3 EUR")->minor, 1230);
  EXPECT_EQ(Parse("-1.50 EUR")->minor, -150);
  EXPECT_EQ(Parse("  0.01 USD ")->minor, 1);
}

TEST(MoneyParse, RoundTripsFormat) {
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-99}, int64_t{123456789},
                    kMaxAmountMinor}) {
    auto parsed = Parse(Format(v, "EUR"));
    ASSERT_TRUE(parsed.ok()) << v;
    EXPECT_EQ(parsed->minor, v);
  }
}

TEST(MoneyParse, RejectsBadInput) {
  for (const char* bad :
       {"", "12.34", "12.345 EUR", "1.2.3 EUR", "abc EUR", "12.34 eur",
        "12.34 EURO", ". EUR", "1. EUR", "99999999999999999999 EUR",
        "92233720368547758.08 EUR", "1e5 EUR", "--1 EUR"}) {
    EXPECT_EQ(Parse(bad).status().code(), absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

TEST(MoneyBps, RoundingIsExplicit) {
  // 5 % of 1,999 cents is 99.95 cents.
  EXPECT_EQ(*ApplyBps(1999, 500, Rounding::kDown), 99);
  EXPECT_EQ(*ApplyBps(1999, 500, Rounding::kUp), 100);
  EXPECT_EQ(*ApplyBps(1999, 500, Rounding::kHalfUp), 100);
  // 5 % of 1,990 cents is 99.5 cents: half rounds up only with kHalfUp.
  EXPECT_EQ(*ApplyBps(1990, 500, Rounding::kDown), 99);
  EXPECT_EQ(*ApplyBps(1990, 500, Rounding::kHalfUp), 100);
  EXPECT_EQ(*ApplyBps(1989, 500, Rounding::kHalfUp), 99);
  EXPECT_EQ(*ApplyBps(kMax, 10'000, Rounding::kDown), kMax);
  EXPECT_EQ(*ApplyBps(1000, 0, Rounding::kUp), 0);
}

TEST(MoneyBps, RejectsOutOfRange) {
  EXPECT_FALSE(ApplyBps(100, -1, Rounding::kDown).ok());
  EXPECT_FALSE(ApplyBps(100, 10'001, Rounding::kDown).ok());
  EXPECT_FALSE(ApplyBps(-100, 500, Rounding::kDown).ok());
}

TEST(MoneySplit, OddCentsGoToTheFirstShares) {
  EXPECT_EQ(*SplitEvenly(101, 2), (std::vector<int64_t>{51, 50}));
  EXPECT_EQ(*SplitEvenly(100, 3), (std::vector<int64_t>{34, 33, 33}));
  EXPECT_EQ(*SplitEvenly(2, 3), (std::vector<int64_t>{1, 1, 0}));
  for (int ways = 1; ways <= 10; ++ways) {
    for (int64_t amount : {0, 1, 7, 999, 100001}) {
      auto shares = *SplitEvenly(amount, ways);
      int64_t sum = 0;
      for (int64_t s : shares) sum += s;
      EXPECT_EQ(sum, amount);
      EXPECT_LE(shares.front() - shares.back(), 1);
    }
  }
  EXPECT_FALSE(SplitEvenly(10, 0).ok());
  EXPECT_FALSE(SplitEvenly(-10, 2).ok());
}

}  // namespace
}  // namespace banca::money
