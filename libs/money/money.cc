#include "libs/money/money.h"

#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/common/check.h"
#include "libs/common/string_view.h"

namespace banca::money {

absl::StatusOr<int64_t> Add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    return absl::OutOfRangeError(absl::StrCat("overflow: ", a, " + ", b));
  }
  return r;
}

absl::StatusOr<int64_t> Sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) {
    return absl::OutOfRangeError(absl::StrCat("overflow: ", a, " - ", b));
  }
  return r;
}

absl::StatusOr<int64_t> Mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) {
    return absl::OutOfRangeError(absl::StrCat("overflow: ", a, " * ", b));
  }
  return r;
}

bool IsCurrencyCode(std::string_view code) {
  if (code.size() != 3) return false;
  for (char c : code) {
    if (c < 'A' || c > 'Z') return false;
  }
  return true;
}

std::string FormatMinor(int64_t amount_minor) {
  // Work in unsigned magnitude so INT64_MIN prints correctly.
  const bool negative = amount_minor < 0;
  const uint64_t magnitude = negative ? ~static_cast<uint64_t>(amount_minor) + 1
                                      : static_cast<uint64_t>(amount_minor);
  return absl::StrFormat("%s%d.%02d", negative ? "-" : "", magnitude / 100,
                         magnitude % 100);
}

std::string Format(int64_t amount_minor, std::string_view currency) {
  return absl::StrCat(FormatMinor(amount_minor), " ", ToAbsl(currency));
}

absl::StatusOr<Amount> Parse(std::string_view text) {
  const std::string_view original = text;
  auto invalid = [&](std::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot parse amount \"", ToAbsl(original), "\": ", ToAbsl(why)));
  };
  text = ToStd(absl::StripAsciiWhitespace(ToAbsl(text)));
  const size_t space = text.rfind(' ');
  if (space == std::string_view::npos) return invalid("expected \"12.34 EUR\"");
  std::string_view number =
      ToStd(absl::StripAsciiWhitespace(ToAbsl(text.substr(0, space))));
  const std::string_view currency = text.substr(space + 1);
  if (!IsCurrencyCode(currency)) return invalid("bad currency code");
  bool negative = false;
  if (!number.empty() && (number[0] == '-' || number[0] == '+')) {
    negative = number[0] == '-';
    number.remove_prefix(1);
  }
  std::string_view whole = number, fraction;
  if (const size_t dot = number.find('.'); dot != std::string_view::npos) {
    whole = number.substr(0, dot);
    fraction = number.substr(dot + 1);
    if (fraction.empty()) return invalid("no digits after the point");
  }
  if (whole.empty()) return invalid("no digits before the point");
  if (fraction.size() > 2) return invalid("more than two decimals");
  for (std::string_view part : {whole, fraction}) {
    for (char c : part) {
      if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) {
        return invalid("not a number");
      }
    }
  }
  uint64_t units;
  if (whole.size() > 18 || !absl::SimpleAtoi(ToAbsl(whole), &units)) {
    return invalid("too large");
  }
  int64_t cents = 0;
  if (!fraction.empty()) {
    int64_t f = 0;
    if (!absl::SimpleAtoi(ToAbsl(fraction), &f)) return invalid("not a number");
    cents = fraction.size() == 1 ? f * 10 : f;
  }
  auto scaled = Mul(static_cast<int64_t>(units), 100);
  if (!scaled.ok()) return invalid("too large");
  auto total = Add(*scaled, cents);
  if (!total.ok()) return invalid("too large");
  return Amount{negative ? -*total : *total, std::string(currency)};
}

absl::StatusOr<int64_t> ApplyBps(int64_t amount_minor, int32_t bps,
                                 Rounding rounding) {
  if (amount_minor < 0) {
    return absl::InvalidArgumentError("percentage of a negative amount");
  }
  if (bps < 0 || bps > kBpsPerUnit) {
    return absl::InvalidArgumentError(
        absl::StrCat("basis points out of [0, 10000]: ", bps));
  }
  // 128-bit intermediate: amount × bps cannot overflow it.
  const __int128 product = static_cast<__int128>(amount_minor) * bps;
  int64_t quotient = static_cast<int64_t>(product / kBpsPerUnit);
  const int64_t remainder = static_cast<int64_t>(product % kBpsPerUnit);
  switch (rounding) {
    case Rounding::kDown:
      break;
    case Rounding::kUp:
      if (remainder != 0) ++quotient;
      break;
    case Rounding::kHalfUp:
      if (remainder * 2 >= kBpsPerUnit) ++quotient;
      break;
  }
  // A share of an amount is within it, and within the rounding's cent of
  // the exact product: below it by less than a cent (down), above it by
  // less than a cent (up), or at most half a cent either way (half up).
  BANCA_CHECK(quotient >= 0 && quotient <= amount_minor);
  const __int128 error =
      static_cast<__int128>(quotient) * kBpsPerUnit - product;
  switch (rounding) {
    case Rounding::kDown:
      BANCA_CHECK(error <= 0 && error > -kBpsPerUnit);
      break;
    case Rounding::kUp:
      BANCA_CHECK(error >= 0 && error < kBpsPerUnit);
      break;
    case Rounding::kHalfUp:
      BANCA_CHECK(2 * error <= kBpsPerUnit && 2 * error > -kBpsPerUnit);
      break;
  }
  return quotient;
}

absl::StatusOr<std::vector<int64_t>> SplitEvenly(int64_t amount_minor,
                                                 int ways) {
  if (ways <= 0) return absl::InvalidArgumentError("split into no shares");
  if (amount_minor < 0) return absl::InvalidArgumentError("negative split");
  const int64_t share = amount_minor / ways;
  int64_t odd = amount_minor % ways;
  std::vector<int64_t> shares(ways, share);
  for (int i = 0; odd > 0; ++i, --odd) ++shares[i];
  // The shares sum to the amount exactly, differ by at most a cent, and the
  // odd cents went to the first shares.
  __int128 sum = 0;
  for (int i = 0; i < ways; ++i) {
    BANCA_CHECK(shares[i] == share + (i < amount_minor % ways ? 1 : 0));
    sum += shares[i];
  }
  BANCA_CHECK(sum == amount_minor);
  return shares;
}

}  // namespace banca::money
