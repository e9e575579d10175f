// Blind levels (TN-45, TN-46): play runs in levels of equal or different
// duration, and the blinds may rise at each change of level by the table in
// the tournament's specific rules. The schedule is that table; `LevelAt`
// says which level is running at a given time. Time is an input (no clock):
// microseconds, the service reads its clock and passes it in.
//
// Antes are not in the regulation (digest gap 12); a level may carry one
// (0 = none) as an operator's specific rule. Rest breaks (TN-2g: a level is
// "normally preceded by a rest break") are not modelled: a break is time
// the service adds to the level before it.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_BLIND_LEVELS_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_BLIND_LEVELS_H_

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace banca::games::tournament {

struct BlindLevel {
  int64_t small_blind = 0;      // chips, 1..big_blind
  int64_t big_blind = 0;        // chips, 1..kMaxChips
  int64_t ante = 0;             // chips, 0..big_blind (0 = no ante)
  int64_t duration_micros = 0;  // 1..kMaxLevelMicros
  bool operator==(const BlindLevel&) const = default;
};

// INVALID_ARGUMENT naming `levels[i].field` unless there are
// 1..kMaxLevels levels, each within the bounds above, and the big blinds
// rise strictly from one level to the next (TN-46). The last level's
// duration is checked like the others, though it lasts until the end.
absl::Status CheckBlindSchedule(absl::Span<const BlindLevel> levels);

struct LevelNow {
  int index = 0;               // 0-based into the schedule
  int64_t started_micros = 0;  // when this level started
  // When the next level starts; none on the last level, which lasts until
  // the tournament ends.
  std::optional<int64_t> next_starts_micros;
  bool operator==(const LevelNow&) const = default;
};

// The level running at `now_micros` of a tournament whose level 1 started
// at `start_micros`. A level runs over [started, started + duration): at
// the exact instant its duration ends the next one is running.
// INVALID_ARGUMENT naming the field: a bad schedule, start_micros or
// now_micros outside 0..kMaxTimeMicros. FAILED_PRECONDITION when now is
// before the start (no level is running yet).
absl::StatusOr<LevelNow> LevelAt(absl::Span<const BlindLevel> levels,
                                 int64_t start_micros, int64_t now_micros);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_BLIND_LEVELS_H_
