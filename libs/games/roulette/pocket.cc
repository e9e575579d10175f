#include "libs/games/roulette/pocket.h"

#include <algorithm>
#include <array>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"

namespace banca::games::roulette {
namespace {

constexpr std::array<Pocket, 18> kRed = {1,  3,  5,  7,  9,  12, 14, 16, 18,
                                         19, 21, 23, 25, 27, 30, 32, 34, 36};

}  // namespace

int PocketCount(WheelKind wheel) { return HasDoubleZero(wheel) ? 38 : 37; }

bool HasDoubleZero(WheelKind wheel) {
  return wheel == WheelKind::kAmericanDoubleZero;
}

bool IsZero(Pocket p) { return p == kZero || p == kDoubleZero; }

bool IsOnWheel(WheelKind wheel, Pocket p) {
  if (p >= 0 && p <= kHighestNumber) return true;
  return p == kDoubleZero && HasDoubleZero(wheel);
}

std::string PocketName(Pocket p) {
  if (p == kDoubleZero) return "00";
  return absl::StrCat(p);
}

absl::Status CheckPocket(WheelKind wheel, Pocket p) {
  if (IsOnWheel(wheel, p)) return absl::OkStatus();
  if (p == kDoubleZero) {
    return absl::InvalidArgumentError("00 is only on a double-zero wheel");
  }
  return absl::InvalidArgumentError(
      absl::StrCat("number ", p, " is not on the wheel (0..36)"));
}

absl::StatusOr<Pocket> ParsePocket(WheelKind wheel, std::string_view text) {
  Pocket p = -1;
  if (text == "00") {
    p = kDoubleZero;
  } else if (text.empty() || text.size() > 2 ||
             !std::all_of(text.begin(), text.end(),
                          [](char c) { return c >= '0' && c <= '9'; }) ||
             !absl::SimpleAtoi(ToAbsl(text), &p) ||
             (text.size() == 2 && text[0] == '0')) {
    return absl::InvalidArgumentError(
        absl::StrCat("\"", ToAbsl(text.substr(0, 16)),
                     "\" is not a roulette number (0..36 or 00)"));
  }
  RETURN_IF_ERROR(CheckPocket(wheel, p));
  return p;
}

Colour ColourOf(Pocket p) {
  if (IsZero(p)) return Colour::kGreen;
  BANCA_CHECK(p >= 1 && p <= kHighestNumber);
  for (Pocket red : kRed) {
    if (red == p) return Colour::kRed;
  }
  return Colour::kBlack;
}

std::string_view ColourName(Colour c) {
  switch (c) {
    case Colour::kGreen:
      return "green";
    case Colour::kRed:
      return "red";
    case Colour::kBlack:
      return "black";
  }
  return "?";
}

NumberSet NumberSet::Of(std::initializer_list<Pocket> pockets) {
  NumberSet s;
  for (Pocket p : pockets) {
    BANCA_CHECK(p == kDoubleZero || (p >= 0 && p <= kHighestNumber));
    s.Add(p);
  }
  return s;
}

NumberSet NumberSet::Range(Pocket first, Pocket last) {
  BANCA_CHECK(first >= 0 && last <= kHighestNumber && first <= last);
  NumberSet s;
  for (Pocket p = first; p <= last; ++p) s.Add(p);
  return s;
}

std::vector<Pocket> NumberSet::Pockets() const {
  std::vector<Pocket> out;
  for (Pocket p = 0; p <= kHighestNumber; ++p) {
    if (Contains(p)) out.push_back(p);
  }
  if (Contains(kDoubleZero)) out.push_back(kDoubleZero);
  return out;
}

std::string NumberSet::ToString() const {
  std::vector<std::string> names;
  for (Pocket p : Pockets()) names.push_back(PocketName(p));
  return absl::StrJoin(names, "-");
}

}  // namespace banca::games::roulette
