// Money is integers: int64 minor units (cents), checked arithmetic, explicit
// rounding. Nothing in banca holds money in a floating-point type.
#ifndef BANCA_LIBS_MONEY_MONEY_H_
#define BANCA_LIBS_MONEY_MONEY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace banca::money {

// The largest amount any single input may carry: 10^15 cents (10 trillion
// euros). Balances may grow past it; single commands may not.
inline constexpr int64_t kMaxAmountMinor = 1'000'000'000'000'000;

// Overflow-checked arithmetic. OUT_OF_RANGE on overflow.
absl::StatusOr<int64_t> Add(int64_t a, int64_t b);
absl::StatusOr<int64_t> Sub(int64_t a, int64_t b);
absl::StatusOr<int64_t> Mul(int64_t a, int64_t b);

// An ISO 4217-style code: exactly three upper-case ASCII letters.
bool IsCurrencyCode(std::string_view code);

// "12.34 EUR", "-0.05 EUR". Two decimal places: banca's currencies all have
// cents as their minor unit.
std::string Format(int64_t amount_minor, std::string_view currency);
// "12.34" (no currency).
std::string FormatMinor(int64_t amount_minor);

struct Amount {
  int64_t minor = 0;
  std::string currency;
};

// Parses "12.34 EUR", "12 EUR", "12.3 EUR", "-1.50 EUR". At most two decimals
// (INVALID_ARGUMENT for "1.234 EUR": nothing is rounded silently).
absl::StatusOr<Amount> Parse(std::string_view text);

// Basis points: 1 bp = 0.01 %, 10'000 bp = 100 %.
inline constexpr int32_t kBpsPerUnit = 10'000;

enum class Rounding {
  // Toward zero: the fraction of a cent is dropped. banca's default for
  // house takes (rake, fees): the player never pays a fractional cent.
  kDown,
  // Away from zero on any fraction.
  kUp,
  // Nearest cent, halves away from zero.
  kHalfUp,
};

// amount × bps / 10'000 rounded as asked. bps in [0, 10'000]; amount ≥ 0.
absl::StatusOr<int64_t> ApplyBps(int64_t amount_minor, int32_t bps,
                                 Rounding rounding);

// Splits `amount` into `ways` shares that differ by at most one cent and sum
// to `amount` exactly. The indivisible remainder goes one cent each to the
// first shares (callers order the recipients by their odd-chip rule).
absl::StatusOr<std::vector<int64_t>> SplitEvenly(int64_t amount_minor,
                                                 int ways);

}  // namespace banca::money

#endif  // BANCA_LIBS_MONEY_MONEY_H_
