#include "libs/games/tournament/blind_levels.h"

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/limits.h"

namespace banca::games::tournament {
namespace {

absl::Status OutOfRange(size_t i, std::string_view field, int64_t value,
                        int64_t lo, int64_t hi) {
  return absl::InvalidArgumentError(absl::StrCat("levels[", i, "].",
                                                 ToAbsl(field), ": ", value,
                                                 " is outside ", lo, "..", hi));
}

absl::Status CheckLevel(size_t i, const BlindLevel& l) {
  if (l.big_blind < 1 || l.big_blind > kMaxChips) {
    return OutOfRange(i, "big_blind", l.big_blind, 1, kMaxChips);
  }
  if (l.small_blind < 1 || l.small_blind > l.big_blind) {
    return OutOfRange(i, "small_blind", l.small_blind, 1, l.big_blind);
  }
  if (l.ante < 0 || l.ante > l.big_blind) {
    return OutOfRange(i, "ante", l.ante, 0, l.big_blind);
  }
  if (l.duration_micros < 1 || l.duration_micros > kMaxLevelMicros) {
    return OutOfRange(i, "duration_micros", l.duration_micros, 1,
                      kMaxLevelMicros);
  }
  return absl::OkStatus();
}

absl::Status CheckTime(std::string_view field, int64_t micros) {
  if (micros < 0 || micros > kMaxTimeMicros) {
    return absl::InvalidArgumentError(absl::StrCat(
        ToAbsl(field), ": ", micros, " is outside 0..", kMaxTimeMicros));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckBlindSchedule(absl::Span<const BlindLevel> levels) {
  RETURN_IF_ERROR(CheckCount("levels", levels.size(), kMaxLevels));
  for (size_t i = 0; i < levels.size(); ++i) {
    RETURN_IF_ERROR(CheckLevel(i, levels[i]));
    if (i > 0 && levels[i].big_blind <= levels[i - 1].big_blind) {
      return absl::InvalidArgumentError(
          absl::StrCat("levels[", i, "].big_blind: ", levels[i].big_blind,
                       " does not rise above levels[", i - 1, "]'s ",
                       levels[i - 1].big_blind, " (TN-46)"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<LevelNow> LevelAt(absl::Span<const BlindLevel> levels,
                                 int64_t start_micros, int64_t now_micros) {
  RETURN_IF_ERROR(CheckBlindSchedule(levels));
  RETURN_IF_ERROR(CheckTime("start_micros", start_micros));
  RETURN_IF_ERROR(CheckTime("now_micros", now_micros));
  if (now_micros < start_micros) {
    return absl::FailedPreconditionError(absl::StrCat(
        "now_micros: ", now_micros, " is before the start at ", start_micros));
  }
  // No overflow: kMaxTimeMicros + kMaxLevels × kMaxLevelMicros < 2^63.
  int64_t started = start_micros;
  for (size_t i = 0; i + 1 < levels.size(); ++i) {
    const int64_t next = started + levels[i].duration_micros;
    if (now_micros < next) {
      return LevelNow{static_cast<int>(i), started, next};
    }
    started = next;
  }
  BANCA_CHECK(started <= now_micros);
  return LevelNow{static_cast<int>(levels.size() - 1), started, std::nullopt};
}

}  // namespace banca::games::tournament
