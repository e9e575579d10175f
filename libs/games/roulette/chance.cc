#include "libs/games/roulette/chance.h"

#include "libs/common/check.h"

namespace banca::games::roulette {
namespace {

// Indexed by Chance. RFD-11 and RFD-12, row by row.
constexpr std::array<ChanceRules, kChanceCount> kRules = {{
    {"straight", 1, 30, 35, 1, false},
    {"split", 2, 60, 17, 1, false},
    {"street", 3, 90, 11, 1, false},
    {"corner", 4, 120, 8, 1, false},
    {"line", 6, 180, 5, 1, false},
    {"dozen", 12, 360, 2, 1, false},
    {"column", 12, 360, 2, 1, false},
    {"dozen_split", 24, 720, 1, 2, false},
    {"column_split", 24, 720, 1, 2, false},
    {"even", 18, 540, 1, 1, true},
    {"odd", 18, 540, 1, 1, true},
    {"low", 18, 540, 1, 1, true},
    {"high", 18, 540, 1, 1, true},
    {"red", 18, 540, 1, 1, true},
    {"black", 18, 540, 1, 1, true},
}};

}  // namespace

const ChanceRules& RulesOf(Chance chance) {
  int i = ChanceIndex(chance);
  BANCA_CHECK(i >= 0 && i < kChanceCount);
  return kRules[i];
}

}  // namespace banca::games::roulette
