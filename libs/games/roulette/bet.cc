#include "libs/games/roulette/bet.h"

#include <array>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/roulette/call_bets.h"
#include "libs/money/money.h"

namespace banca::games::roulette {
namespace {

struct KindName {
  BetKind kind;
  std::string_view name;
};

constexpr std::array<KindName, 20> kKinds = {{
    {BetKind::kStraight, "straight"},
    {BetKind::kSplit, "split"},
    {BetKind::kStreet, "street"},
    {BetKind::kCorner, "corner"},
    {BetKind::kLine, "line"},
    {BetKind::kDozen, "dozen"},
    {BetKind::kColumn, "column"},
    {BetKind::kDozenSplit, "dozen_split"},
    {BetKind::kColumnSplit, "column_split"},
    {BetKind::kEven, "even"},
    {BetKind::kOdd, "odd"},
    {BetKind::kLow, "low"},
    {BetKind::kHigh, "high"},
    {BetKind::kRed, "red"},
    {BetKind::kBlack, "black"},
    {BetKind::kVoisins, "voisins"},
    {BetKind::kTiers, "tiers"},
    {BetKind::kOrphelins, "orphelins"},
    {BetKind::kNeighbours, "neighbours"},
    {BetKind::kFinals, "finals"},
}};

absl::Status Extra(std::string_view what, std::string_view kind) {
  return absl::InvalidArgumentError(
      absl::StrCat(ToAbsl(kind), " takes no ", ToAbsl(what)));
}

absl::StatusOr<Position> OrdinaryPosition(WheelKind wheel,
                                          const BetRequest& request,
                                          Chance chance) {
  const std::string_view name = BetKindName(request.kind);
  if (request.count != 0) return Extra("count", name);
  switch (chance) {
    case Chance::kStraight:
    case Chance::kSplit:
    case Chance::kStreet:
    case Chance::kCorner:
    case Chance::kLine:
      if (!request.index.empty()) return Extra("index", name);
      return InsidePosition(wheel, chance, request.numbers);
    case Chance::kDozen:
    case Chance::kColumn:
      if (!request.numbers.empty()) return Extra("numbers", name);
      if (request.index.size() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat(ToAbsl(name), " needs one index (1, 2 or 3), got ",
                         request.index.size()));
      }
      return chance == Chance::kDozen ? DozenPosition(request.index[0])
                                      : ColumnPosition(request.index[0]);
    case Chance::kDozenSplit:
      if (!request.numbers.empty()) return Extra("numbers", name);
      return DozenSplitPosition(request.index);
    case Chance::kColumnSplit:
      if (!request.numbers.empty()) return Extra("numbers", name);
      return ColumnSplitPosition(request.index);
    default:
      if (!request.numbers.empty()) return Extra("numbers", name);
      if (!request.index.empty()) return Extra("index", name);
      return SimplePosition(chance);
  }
}

}  // namespace

std::string_view BetKindName(BetKind kind) {
  for (const KindName& k : kKinds) {
    if (k.kind == kind) return k.name;
  }
  return "?";
}

absl::StatusOr<BetKind> ParseBetKind(std::string_view name) {
  for (const KindName& k : kKinds) {
    if (k.name == name) return k.kind;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "\"", ToAbsl(name.substr(0, 32)), "\" is not a roulette bet"));
}

bool IsCallBet(BetKind kind) { return !ChanceOfKind(kind).has_value(); }

std::optional<Chance> ChanceOfKind(BetKind kind) {
  // The first fifteen kinds are the chances, in the same order.
  int i = static_cast<int>(kind);
  if (i < kChanceCount) return kAllChances[i];
  return std::nullopt;
}

absl::StatusOr<std::vector<Chip>> LayOut(WheelKind wheel,
                                         const BetRequest& request) {
  const absl::string_view name = ToAbsl(BetKindName(request.kind));
  if (request.amount <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " amount must be positive, got ", request.amount));
  }
  if (request.amount > money::kMaxAmountMinor) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, " amount ", request.amount, " is above the largest amount (",
        money::kMaxAmountMinor, ")"));
  }
  if (request.numbers.size() > kMaxRequestNumbers ||
      request.index.size() > kMaxRequestIndexes) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " lists too many numbers or indexes"));
  }
  if (std::optional<Chance> chance = ChanceOfKind(request.kind)) {
    ASSIGN_OR_RETURN(Position position,
                     OrdinaryPosition(wheel, request, *chance));
    if (RulesOf(*chance).pays_denominator == 2 && request.amount % 2 != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          name,
          " pays half the stake, so the stake must be an even number "
          "of cents, got ",
          request.amount));
    }
    return std::vector<Chip>{Chip{position, request.amount}};
  }
  ASSIGN_OR_RETURN(std::vector<CallBetChip> layout,
                   CallBetLayout(wheel, request));
  const int units = TotalUnits(layout);
  BANCA_CHECK(units > 0);
  if (request.amount % units != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, " is ", units, " units, so its amount must divide by ", units,
        "; got ", request.amount));
  }
  const int64_t unit = request.amount / units;
  std::vector<Chip> chips;
  for (const CallBetChip& c : layout) {
    // Call bets use inside chances only, which pay whole multiples.
    BANCA_CHECK(RulesOf(c.position.chance).pays_denominator == 1);
    chips.push_back(Chip{c.position, unit * c.units});
  }
  return chips;
}

int64_t ChipReturn(const Chip& chip, Pocket result) {
  if (!Wins(chip.position, result)) return 0;
  const ChanceRules& rules = RulesOf(chip.position.chance);
  // The stake is at most money::kMaxAmountMinor (10^15) and pays at most 35,
  // so nothing here overflows.
  BANCA_CHECK(chip.amount > 0 && chip.amount <= money::kMaxAmountMinor);
  BANCA_CHECK(chip.amount * rules.pays_numerator % rules.pays_denominator == 0);
  const int64_t back =
      chip.amount + chip.amount * rules.pays_numerator / rules.pays_denominator;
  // A winning chip returns more than its stake, at most the largest multiple.
  BANCA_CHECK(back > chip.amount && back <= kMaxReturnMultiple * chip.amount);
  return back;
}

}  // namespace banca::games::roulette
