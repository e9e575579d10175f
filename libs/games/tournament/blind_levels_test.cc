#include "libs/games/tournament/blind_levels.h"

#include <vector>

#include "gtest/gtest.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/test_util.h"

namespace banca::games::tournament {
namespace {

constexpr int64_t kMinute = 60'000'000;
constexpr int64_t kStart = 1'700'000'000'000'000;

// 25/50 for 15 min, 50/100 for 15, 100/200 ante 25 for 20, then 200/400.
const std::vector<BlindLevel> kSchedule = {
    {25, 50, 0, 15 * kMinute},
    {50, 100, 0, 15 * kMinute},
    {100, 200, 25, 20 * kMinute},
    {200, 400, 50, 20 * kMinute},
};

LevelNow At(int64_t now) {
  absl::StatusOr<LevelNow> l = LevelAt(kSchedule, kStart, now);
  EXPECT_TRUE(l.ok()) << l.status();
  return l.value_or(LevelNow{-1, 0, std::nullopt});
}

TEST(BlindLevels, LevelsOfDifferentDurations_TN45) {
  EXPECT_EQ(At(kStart), (LevelNow{0, kStart, kStart + 15 * kMinute}));
  EXPECT_EQ(At(kStart + 15 * kMinute - 1),
            (LevelNow{0, kStart, kStart + 15 * kMinute}));
  // At the exact instant a level ends the next one is running.
  EXPECT_EQ(At(kStart + 15 * kMinute),
            (LevelNow{1, kStart + 15 * kMinute, kStart + 30 * kMinute}));
  EXPECT_EQ(At(kStart + 49 * kMinute),
            (LevelNow{2, kStart + 30 * kMinute, kStart + 50 * kMinute}));
}

TEST(BlindLevels, TheLastLevelLastsUntilTheEnd_TN45) {
  EXPECT_EQ(At(kStart + 50 * kMinute),
            (LevelNow{3, kStart + 50 * kMinute, std::nullopt}));
  EXPECT_EQ(At(kMaxTimeMicros),
            (LevelNow{3, kStart + 50 * kMinute, std::nullopt}));
  absl::StatusOr<LevelNow> one =
      LevelAt({{25, 50, 0, kMinute}}, 0, kMaxTimeMicros);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(*one, (LevelNow{0, 0, std::nullopt}));
}

TEST(BlindLevels, BlindsRiseAtEachLevel_TN46) {
  EXPECT_TRUE(CheckBlindSchedule(kSchedule).ok());
  EXPECT_TRUE(IsInvalid(
      CheckBlindSchedule({{25, 50, 0, kMinute}, {25, 50, 0, kMinute}}),
      "levels[1].big_blind"));
  EXPECT_TRUE(IsInvalid(
      CheckBlindSchedule({{50, 100, 0, kMinute}, {25, 50, 0, kMinute}}),
      "levels[1].big_blind"));
  // The small blind and the ante need not rise with it.
  EXPECT_TRUE(
      CheckBlindSchedule({{50, 100, 50, kMinute}, {50, 150, 0, kMinute}}).ok());
}

TEST(BlindLevels, LongestScheduleWithoutOverflow_TN45) {
  std::vector<BlindLevel> levels;
  for (int i = 1; i <= kMaxLevels; ++i) {
    levels.push_back({i, 2 * i, 0, kMaxLevelMicros});
  }
  absl::StatusOr<LevelNow> l = LevelAt(levels, kMaxTimeMicros, kMaxTimeMicros);
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(*l,
            (LevelNow{0, kMaxTimeMicros, kMaxTimeMicros + kMaxLevelMicros}));
  l = LevelAt(levels, 0, kMaxTimeMicros);
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(*l, (LevelNow{kMaxLevels - 1, (kMaxLevels - 1) * kMaxLevelMicros,
                          std::nullopt}));
}

TEST(BlindLevels, BadInputIsRejected) {
  EXPECT_TRUE(IsInvalid(CheckBlindSchedule({}), "levels"));
  std::vector<BlindLevel> many(kMaxLevels + 1);
  for (int i = 0; i <= kMaxLevels; ++i) many[i] = {1, i + 1, 0, 1};
  EXPECT_TRUE(IsInvalid(CheckBlindSchedule(many), "levels"));
  many.pop_back();
  EXPECT_TRUE(CheckBlindSchedule(many).ok());
  const auto bad = [](BlindLevel l) { return CheckBlindSchedule({l}); };
  EXPECT_TRUE(IsInvalid(bad({0, 0, 0, kMinute}), "levels[0].big_blind"));
  EXPECT_TRUE(
      IsInvalid(bad({1, kMaxChips + 1, 0, kMinute}), "levels[0].big_blind"));
  EXPECT_TRUE(IsInvalid(bad({0, 50, 0, kMinute}), "levels[0].small_blind"));
  EXPECT_TRUE(IsInvalid(bad({51, 50, 0, kMinute}), "levels[0].small_blind"));
  EXPECT_TRUE(IsInvalid(bad({25, 50, -1, kMinute}), "levels[0].ante"));
  EXPECT_TRUE(IsInvalid(bad({25, 50, 51, kMinute}), "levels[0].ante"));
  EXPECT_TRUE(IsInvalid(bad({25, 50, 0, 0}), "levels[0].duration_micros"));
  EXPECT_TRUE(IsInvalid(bad({25, 50, 0, kMaxLevelMicros + 1}),
                        "levels[0].duration_micros"));
  EXPECT_TRUE(bad({50, 50, 50, kMaxLevelMicros}).ok());

  EXPECT_TRUE(IsInvalid(LevelAt({}, kStart, kStart).status(), "levels"));
  EXPECT_TRUE(
      IsInvalid(LevelAt(kSchedule, -1, kStart).status(), "start_micros"));
  EXPECT_TRUE(IsInvalid(LevelAt(kSchedule, kMaxTimeMicros + 1, kStart).status(),
                        "start_micros"));
  EXPECT_TRUE(IsInvalid(LevelAt(kSchedule, kStart, -1).status(), "now_micros"));
  EXPECT_TRUE(IsInvalid(LevelAt(kSchedule, kStart, kMaxTimeMicros + 1).status(),
                        "now_micros"));
  EXPECT_EQ(LevelAt(kSchedule, kStart, kStart - 1).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace banca::games::tournament
