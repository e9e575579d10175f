// The chances of RF-7 / RA-7 with the draft's maxima (RFD-11) and payouts
// (RFD-12). American tables use the same table (digest, "Decisions for
// banca"), with 00 treated as a zero.
#ifndef BANCA_LIBS_GAMES_ROULETTE_CHANCE_H_
#define BANCA_LIBS_GAMES_ROULETTE_CHANCE_H_

#include <array>
#include <cstdint>
#include <string_view>

namespace banca::games::roulette {

enum class Chance : uint8_t {
  // RF-7a: multiple chances.
  kStraight,     // pleno
  kSplit,        // cavalo
  kStreet,       // rua
  kCorner,       // quadro
  kLine,         // linha
  kDozen,        // dúzia
  kColumn,       // coluna
  kDozenSplit,   // cavalo de dúzia
  kColumnSplit,  // cavalo de coluna
  // RF-7b: simple chances.
  kEven,
  kOdd,
  kLow,
  kHigh,
  kRed,
  kBlack,
};
inline constexpr int kChanceCount = 15;

inline constexpr std::array<Chance, kChanceCount> kAllChances = {
    Chance::kStraight,    Chance::kSplit, Chance::kStreet, Chance::kCorner,
    Chance::kLine,        Chance::kDozen, Chance::kColumn, Chance::kDozenSplit,
    Chance::kColumnSplit, Chance::kEven,  Chance::kOdd,    Chance::kLow,
    Chance::kHigh,        Chance::kRed,   Chance::kBlack};

struct ChanceRules {
  std::string_view name;  // the scenario vocabulary: "straight", "red", …
  int numbers = 0;        // numbers covered (RF-7)
  // RFD-11: the maximum per chance is this multiple of the minimum bet.
  int max_multiple = 0;
  // RFD-12: winnings = stake × pays_numerator / pays_denominator (the
  // stake itself stays the player's). Two dozens / two columns pay half.
  int pays_numerator = 0;
  int pays_denominator = 1;
  bool simple = false;  // RF-7b: lose on a zero (RFD-21)
};

const ChanceRules& RulesOf(Chance chance);
inline int ChanceIndex(Chance chance) { return static_cast<int>(chance); }

}  // namespace banca::games::roulette

#endif  // BANCA_LIBS_GAMES_ROULETTE_CHANCE_H_
