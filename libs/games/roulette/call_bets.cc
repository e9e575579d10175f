#include "libs/games/roulette/call_bets.h"

#include <initializer_list>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/roulette/wheel.h"

namespace banca::games::roulette {
namespace {

constexpr int kMaxNeighbours = 6;

struct ChipSpec {
  Chance chance;
  std::initializer_list<Pocket> numbers;
  int units;
};

// Builds chips from fixed layouts; each must be legal on the French board.
std::vector<CallBetChip> Chips(std::initializer_list<ChipSpec> specs) {
  std::vector<CallBetChip> out;
  for (const ChipSpec& spec : specs) {
    std::vector<Pocket> numbers(spec.numbers);
    absl::StatusOr<Position> position =
        InsidePosition(WheelKind::kFrench, spec.chance, numbers);
    BANCA_CHECK(position.ok());
    out.push_back(CallBetChip{*position, spec.units});
  }
  return out;
}

std::vector<CallBetChip> Voisins() {
  return Chips({{Chance::kStreet, {0, 2, 3}, 2},
                {Chance::kSplit, {4, 7}, 1},
                {Chance::kSplit, {12, 15}, 1},
                {Chance::kSplit, {18, 21}, 1},
                {Chance::kSplit, {19, 22}, 1},
                {Chance::kCorner, {25, 26, 28, 29}, 2},
                {Chance::kSplit, {32, 35}, 1}});
}

std::vector<CallBetChip> Tiers() {
  return Chips({{Chance::kSplit, {5, 8}, 1},
                {Chance::kSplit, {10, 11}, 1},
                {Chance::kSplit, {13, 16}, 1},
                {Chance::kSplit, {23, 24}, 1},
                {Chance::kSplit, {27, 30}, 1},
                {Chance::kSplit, {33, 36}, 1}});
}

std::vector<CallBetChip> Orphelins() {
  return Chips({{Chance::kStraight, {1}, 1},
                {Chance::kSplit, {6, 9}, 1},
                {Chance::kSplit, {14, 17}, 1},
                {Chance::kSplit, {17, 20}, 1},
                {Chance::kSplit, {31, 34}, 1}});
}

CallBetChip Straight(Pocket p) {
  return CallBetChip{Position{Chance::kStraight, NumberSet::Of({p})}, 1};
}

absl::Status ExpectNoIndex(const BetRequest& request) {
  if (!request.index.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(BetKindName(request.kind)), " takes no index"));
  }
  return absl::OkStatus();
}

}  // namespace

int TotalUnits(const std::vector<CallBetChip>& chips) {
  int units = 0;
  for (const CallBetChip& chip : chips) units += chip.units;
  return units;
}

absl::StatusOr<std::vector<CallBetChip>> CallBetLayout(
    WheelKind wheel, const BetRequest& request) {
  const absl::string_view name = ToAbsl(BetKindName(request.kind));
  RETURN_IF_ERROR(ExpectNoIndex(request));
  switch (request.kind) {
    case BetKind::kVoisins:
    case BetKind::kTiers:
    case BetKind::kOrphelins: {
      if (wheel != WheelKind::kFrench) {
        return absl::InvalidArgumentError(absl::StrCat(
            name,
            " is a section of the French wheel (RF-8); not offered on "
            "the American wheel"));
      }
      if (!request.numbers.empty() || request.count != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(name, " takes no numbers or count"));
      }
      if (request.kind == BetKind::kVoisins) return Voisins();
      if (request.kind == BetKind::kTiers) return Tiers();
      return Orphelins();
    }
    case BetKind::kNeighbours: {
      if (request.numbers.size() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("neighbours needs one centre number, got ",
                         request.numbers.size()));
      }
      if (request.count != 2 && request.count != 4 &&
          request.count != kMaxNeighbours) {
        return absl::InvalidArgumentError(absl::StrCat(
            "neighbours count must be 2, 4 or 6 (RF-8d), got ", request.count));
      }
      Pocket centre = request.numbers[0];
      RETURN_IF_ERROR(CheckPocket(wheel, centre));
      std::vector<CallBetChip> out;
      for (Pocket p : WheelSection(wheel, centre, request.count / 2)) {
        out.push_back(Straight(p));
      }
      return out;
    }
    case BetKind::kFinals: {
      if (request.numbers.size() != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "finals needs one digit, got ", request.numbers.size()));
      }
      if (request.count != 0) {
        return absl::InvalidArgumentError("finals takes no count");
      }
      int digit = request.numbers[0];
      if (digit < 0 || digit > 9) {
        return absl::InvalidArgumentError(
            absl::StrCat("finals digit must be 0..9, got ", PocketName(digit)));
      }
      std::vector<CallBetChip> out;
      for (Pocket p = digit; p <= kHighestNumber; p += 10) {
        out.push_back(Straight(p));
      }
      return out;
    }
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(name, " is not a call bet"));
  }
}

}  // namespace banca::games::roulette
