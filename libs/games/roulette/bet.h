// A player's bet in the scenario vocabulary (/work/shared/SCENARIOS.md) and
// its layout on the board as chips: one chip for an ordinary chance, one per
// standard chip for a call bet (call_bets.h). Every chip is an ordinary bet
// on one position, paid and limited by its own chance (digest section 3,
// gap 3).
#ifndef BANCA_LIBS_GAMES_ROULETTE_BET_H_
#define BANCA_LIBS_GAMES_ROULETTE_BET_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/games/roulette/board.h"
#include "libs/games/roulette/chance.h"
#include "libs/games/roulette/pocket.h"

namespace banca::games::roulette {

enum class BetKind : uint8_t {
  kStraight,
  kSplit,
  kStreet,
  kCorner,
  kLine,
  kDozen,
  kColumn,
  kDozenSplit,
  kColumnSplit,
  kEven,
  kOdd,
  kLow,
  kHigh,
  kRed,
  kBlack,
  // RF-8: call bets.
  kVoisins,
  kTiers,
  kOrphelins,
  kNeighbours,
  kFinals,
};

std::string_view BetKindName(BetKind kind);
// INVALID_ARGUMENT for a name that is not a bet kind.
absl::StatusOr<BetKind> ParseBetKind(std::string_view name);
bool IsCallBet(BetKind kind);
// The chance of a non-call bet kind.
std::optional<Chance> ChanceOfKind(BetKind kind);

// Bounds on a request's lists: no legal bet needs more.
inline constexpr int kMaxRequestNumbers = 6;
inline constexpr int kMaxRequestIndexes = 2;

struct BetRequest {
  BetKind kind = BetKind::kStraight;
  // Inside bets: the covered numbers. Neighbours: {centre}. Finals: {digit}.
  std::vector<Pocket> numbers;
  // Dozen / column: {1..3}. Two dozens / two columns: {a, b}, adjacent.
  std::vector<int> index;
  // Neighbours: 2, 4 or 6 (RF-8d), split evenly on both sides.
  int count = 0;
  // Cents, the total over all of a call bet's chips.
  int64_t amount = 0;
};

struct Chip {
  Position position;
  int64_t amount = 0;
};

// The request's chips. INVALID_ARGUMENT when the numbers do not form a
// legal bet on this wheel's board, when the amount is not positive or
// above money::kMaxAmountMinor, when a two-dozen / two-column stake is odd
// (it pays half; gap 8), or when a call bet's amount does not divide into
// its chips. Table limits (minimum, maximum) are the table's business.
absl::StatusOr<std::vector<Chip>> LayOut(WheelKind wheel,
                                         const BetRequest& request);

// The most a stake can return: a straight's stake plus 35 times it
// (RFD-12). A bet's chips together return at most this times its stake.
inline constexpr int64_t kMaxReturnMultiple = 36;

// RFD-12: what a chip returns on `result`: 0 when it loses, else the stake
// plus stake × pays (a two-dozen / two-column stake is even, so half is
// exact).
int64_t ChipReturn(const Chip& chip, Pocket result);

}  // namespace banca::games::roulette

#endif  // BANCA_LIBS_GAMES_ROULETTE_BET_H_
