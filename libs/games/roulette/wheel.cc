#include "libs/games/roulette/wheel.h"

#include <array>

#include "libs/common/check.h"

namespace banca::games::roulette {
namespace {

constexpr Pocket OO = kDoubleZero;

// RF-6c.
constexpr std::array<Pocket, 37> kFrench = {
    0, 32, 15, 19, 4, 21, 2,  25, 17, 34, 6,  27, 13, 36, 11, 30, 8, 23, 10,
    5, 24, 16, 33, 1, 20, 14, 31, 9,  22, 18, 29, 7,  28, 12, 35, 3, 26};

// RA-6c, first sequence. It is the 38-pocket one without 00, so 1 and 27
// (both red) sit side by side: RA-6b cannot hold there (RA gap 2); the
// regulated order is kept as printed.
constexpr std::array<Pocket, 37> kAmericanSingle = {
    0,  28, 9,  26, 30, 11, 7,  20, 32, 17, 5,  22, 34, 15, 3,  24, 36, 13, 1,
    27, 10, 25, 29, 12, 8,  19, 31, 18, 6,  21, 33, 16, 4,  23, 35, 14, 2};

// RA-6c, second sequence.
constexpr std::array<Pocket, 38> kAmericanDouble = {
    0,  28, 9,  26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1,
    OO, 27, 10, 25, 29, 12, 8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2};

}  // namespace

absl::Span<const Pocket> WheelOrder(WheelKind wheel) {
  switch (wheel) {
    case WheelKind::kFrench:
      return kFrench;
    case WheelKind::kAmericanSingleZero:
      return kAmericanSingle;
    case WheelKind::kAmericanDoubleZero:
      return kAmericanDouble;
  }
  BANCA_CHECK(false);
  return {};
}

std::vector<Pocket> WheelSection(WheelKind wheel, Pocket centre, int per_side) {
  absl::Span<const Pocket> order = WheelOrder(wheel);
  const int n = static_cast<int>(order.size());
  BANCA_CHECK(per_side >= 0 && 2 * per_side + 1 <= n);
  int at = -1;
  for (int i = 0; i < n; ++i) {
    if (order[i] == centre) at = i;
  }
  BANCA_CHECK(at >= 0);
  std::vector<Pocket> out;
  for (int d = -per_side; d <= per_side; ++d) {
    out.push_back(order[((at + d) % n + n) % n]);
  }
  return out;
}

}  // namespace banca::games::roulette
