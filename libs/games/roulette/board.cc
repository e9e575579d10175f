#include "libs/games/roulette/board.h"

#include <algorithm>
#include <array>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"

namespace banca::games::roulette {
namespace {

constexpr Pocket OO = kDoubleZero;
constexpr int kRows = 12;

int Column(Pocket n) { return (n - 1) % 3; }  // 0, 1, 2

std::vector<NumberSet> LegalSets(WheelKind wheel, Chance chance) {
  const bool double_zero = HasDoubleZero(wheel);
  std::vector<NumberSet> out;
  switch (chance) {
    case Chance::kStraight:
      for (Pocket p = 0; p <= kHighestNumber; ++p)
        out.push_back(NumberSet::Of({p}));
      if (double_zero) out.push_back(NumberSet::Of({OO}));
      break;
    case Chance::kSplit:
      if (double_zero) {
        for (auto s : {NumberSet::Of({0, 1}), NumberSet::Of({0, 2}),
                       NumberSet::Of({OO, 2}), NumberSet::Of({OO, 3}),
                       NumberSet::Of({0, OO})}) {
          out.push_back(s);
        }
      } else {
        for (Pocket p : {1, 2, 3}) out.push_back(NumberSet::Of({0, p}));
      }
      for (Pocket n = 1; n <= kHighestNumber; ++n) {
        if (Column(n) < 2) out.push_back(NumberSet::Of({n, n + 1}));
        if (n + 3 <= kHighestNumber) out.push_back(NumberSet::Of({n, n + 3}));
      }
      break;
    case Chance::kStreet:
      if (double_zero) {
        out.push_back(NumberSet::Of({0, 1, 2}));
        out.push_back(NumberSet::Of({0, OO, 2}));
        out.push_back(NumberSet::Of({OO, 2, 3}));
      } else {
        out.push_back(NumberSet::Of({0, 1, 2}));
        out.push_back(NumberSet::Of({0, 2, 3}));
      }
      for (int r = 0; r < kRows; ++r) {
        out.push_back(NumberSet::Range(3 * r + 1, 3 * r + 3));
      }
      break;
    case Chance::kCorner:
      if (!double_zero) out.push_back(NumberSet::Of({0, 1, 2, 3}));
      for (Pocket n = 1; n + 4 <= kHighestNumber; ++n) {
        if (Column(n) < 2)
          out.push_back(NumberSet::Of({n, n + 1, n + 3, n + 4}));
      }
      break;
    case Chance::kLine:
      for (int r = 0; r + 1 < kRows; ++r) {
        out.push_back(NumberSet::Range(3 * r + 1, 3 * r + 6));
      }
      break;
    default:
      BANCA_CHECK(false);
  }
  return out;
}

std::string_view ShapeOf(Chance chance) {
  switch (chance) {
    case Chance::kSplit:
      return "two bordering numbers";
    case Chance::kStreet:
      return "a row of three or a zero trio";
    case Chance::kCorner:
      return "a block of four bordering numbers";
    case Chance::kLine:
      return "two adjacent rows of three";
    default:
      return "one number";
  }
}

bool IsInside(Chance chance) {
  return chance == Chance::kStraight || chance == Chance::kSplit ||
         chance == Chance::kStreet || chance == Chance::kCorner ||
         chance == Chance::kLine;
}

NumberSet ColumnSet(int column) {  // 0-based
  NumberSet s;
  for (Pocket n = column + 1; n <= kHighestNumber; n += 3) s.Add(n);
  return s;
}

NumberSet Union(NumberSet a, NumberSet b) {
  NumberSet s = a;
  for (Pocket p : b.Pockets()) s.Add(p);
  return s;
}

absl::Status CheckIndex(std::string_view what, int index) {
  if (index >= 1 && index <= 3) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(ToAbsl(what), " index must be 1, 2 or 3, got ", index));
}

absl::StatusOr<std::pair<int, int>> AdjacentPair(
    std::string_view what, absl::Span<const int> indexes) {
  if (indexes.size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(what), " needs two indexes, got ", indexes.size()));
  }
  for (int i : indexes) {
    RETURN_IF_ERROR(CheckIndex(what, i));
  }
  int lo = std::min(indexes[0], indexes[1]);
  int hi = std::max(indexes[0], indexes[1]);
  if (hi - lo != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        ToAbsl(what), " needs two adjacent indexes (1 and 2, or 2 and 3), got ",
        indexes[0], " and ", indexes[1]));
  }
  return std::pair<int, int>(lo, hi);
}

}  // namespace

std::vector<Position> LegalInsidePositions(WheelKind wheel, Chance chance) {
  BANCA_CHECK(IsInside(chance));
  std::vector<Position> out;
  for (NumberSet s : LegalSets(wheel, chance)) {
    BANCA_CHECK(s.size() == RulesOf(chance).numbers);
    out.push_back(Position{chance, s});
  }
  return out;
}

absl::StatusOr<Position> InsidePosition(WheelKind wheel, Chance chance,
                                        absl::Span<const Pocket> numbers) {
  if (!IsInside(chance)) {
    return absl::InvalidArgumentError(absl::StrCat(
        ToAbsl(RulesOf(chance).name), " is not a bet on listed numbers"));
  }
  const ChanceRules& rules = RulesOf(chance);
  if (static_cast<int>(numbers.size()) != rules.numbers) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(rules.name), " covers ", rules.numbers, " number",
                     rules.numbers == 1 ? "" : "s", ", got ", numbers.size()));
  }
  NumberSet set;
  for (Pocket p : numbers) {
    RETURN_IF_ERROR(CheckPocket(wheel, p));
    if (set.Contains(p)) {
      return absl::InvalidArgumentError(absl::StrCat("number ", PocketName(p),
                                                     " appears twice in the ",
                                                     ToAbsl(rules.name)));
    }
    set.Add(p);
  }
  for (NumberSet legal : LegalSets(wheel, chance)) {
    if (legal == set) return Position{chance, set};
  }
  return absl::InvalidArgumentError(
      absl::StrCat(ToAbsl(rules.name), " ", set.ToString(), " is not ",
                   ToAbsl(ShapeOf(chance)), " on the board (RFD-7)"));
}

absl::StatusOr<Position> DozenPosition(int index) {
  RETURN_IF_ERROR(CheckIndex("dozen", index));
  return Position{Chance::kDozen,
                  NumberSet::Range(12 * (index - 1) + 1, 12 * index)};
}

absl::StatusOr<Position> ColumnPosition(int index) {
  RETURN_IF_ERROR(CheckIndex("column", index));
  return Position{Chance::kColumn, ColumnSet(index - 1)};
}

absl::StatusOr<Position> DozenSplitPosition(absl::Span<const int> indexes) {
  ASSIGN_OR_RETURN(auto pair, AdjacentPair("dozen_split", indexes));
  return Position{
      Chance::kDozenSplit,
      NumberSet::Range(12 * (pair.first - 1) + 1, 12 * pair.second)};
}

absl::StatusOr<Position> ColumnSplitPosition(absl::Span<const int> indexes) {
  ASSIGN_OR_RETURN(auto pair, AdjacentPair("column_split", indexes));
  return Position{Chance::kColumnSplit,
                  Union(ColumnSet(pair.first - 1), ColumnSet(pair.second - 1))};
}

Position SimplePosition(Chance chance) {
  NumberSet s;
  for (Pocket n = 1; n <= kHighestNumber; ++n) {
    bool in = false;
    switch (chance) {
      case Chance::kEven:
        in = n % 2 == 0;
        break;
      case Chance::kOdd:
        in = n % 2 == 1;
        break;
      case Chance::kLow:
        in = n <= 18;
        break;
      case Chance::kHigh:
        in = n >= 19;
        break;
      case Chance::kRed:
        in = ColourOf(n) == Colour::kRed;
        break;
      case Chance::kBlack:
        in = ColourOf(n) == Colour::kBlack;
        break;
      default:
        BANCA_CHECK(false);
    }
    if (in) s.Add(n);
  }
  BANCA_CHECK(s.size() == 18);
  return Position{chance, s};
}

}  // namespace banca::games::roulette
