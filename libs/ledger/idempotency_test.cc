#include "libs/ledger/idempotency.h"

#include <thread>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace banca::ledger {
namespace {

TEST(Idempotency, FirstThenRepeatReturnsTheStoredResult) {
  IdempotencyIndex index;
  auto first = index.Begin("r1", "body-a");
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->outcome, IdempotencyIndex::Outcome::kFirst);
  index.Complete("r1", "result-1");
  auto again = index.Begin("r1", "body-a");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->outcome, IdempotencyIndex::Outcome::kRepeat);
  EXPECT_EQ(again->result, "result-1");
}

TEST(Idempotency, SameIdOtherBodyIsAlreadyExists) {
  IdempotencyIndex index;
  ASSERT_TRUE(index.Begin("r1", "body-a").ok());
  index.Complete("r1", "x");
  EXPECT_EQ(index.Begin("r1", "body-b").status().code(),
            absl::StatusCode::kAlreadyExists);
}

TEST(Idempotency, FindSeesOnlyADecidedRequestWithItsFingerprint) {
  IdempotencyIndex index;
  EXPECT_FALSE(index.Find("r1", "body-a").has_value());
  ASSERT_TRUE(index.Begin("r1", "body-a").ok());
  EXPECT_FALSE(index.Find("r1", "body-a").has_value());  // in flight
  index.Complete("r1", "result-1");
  EXPECT_EQ(index.Find("r1", "body-a"), "result-1");
  EXPECT_FALSE(index.Find("r1", "body-b").has_value());  // another request
  // Finding claims nothing: the id is still a repeat, not a first.
  EXPECT_EQ(index.Begin("r1", "body-a")->outcome,
            IdempotencyIndex::Outcome::kRepeat);
}

TEST(Idempotency, AbandonedAttemptCanBeRetried) {
  IdempotencyIndex index;
  ASSERT_TRUE(index.Begin("r1", "body-a").ok());
  index.Abandon("r1");
  auto retry = index.Begin("r1", "body-b");
  ASSERT_TRUE(retry.ok());
  EXPECT_EQ(retry->outcome, IdempotencyIndex::Outcome::kFirst);
}

TEST(Idempotency, ConcurrentRetryWaitsForTheFirstAttempt) {
  IdempotencyIndex index;
  ASSERT_TRUE(index.Begin("r1", "body").ok());
  std::thread finisher([&] {
    absl::SleepFor(absl::Milliseconds(50));
    index.Complete("r1", "done");
  });
  auto waited = index.Begin("r1", "body");
  finisher.join();
  ASSERT_TRUE(waited.ok());
  EXPECT_EQ(waited->outcome, IdempotencyIndex::Outcome::kRepeat);
  EXPECT_EQ(waited->result, "done");
}

// An unbounded wait is capped at kMaxRetryWait rather than added to the
// clock as it is (which would overflow the deadline into the past and time
// out at once).
TEST(Idempotency, AnInfiniteWaitIsCappedAndStillWaits) {
  IdempotencyIndex index;
  ASSERT_TRUE(index.Begin("r1", "body").ok());
  std::thread finisher([&] {
    absl::SleepFor(absl::Milliseconds(50));
    index.Complete("r1", "done");
  });
  auto waited = index.Begin("r1", "body", absl::InfiniteDuration());
  finisher.join();
  ASSERT_TRUE(waited.ok()) << waited.status();
  EXPECT_EQ(waited->outcome, IdempotencyIndex::Outcome::kRepeat);
  EXPECT_EQ(waited->result, "done");
}

TEST(Idempotency, InFlightAttemptTimesOut) {
  IdempotencyIndex index;
  ASSERT_TRUE(index.Begin("r1", "body").ok());
  EXPECT_EQ(index.Begin("r1", "body", absl::Milliseconds(10)).status().code(),
            absl::StatusCode::kDeadlineExceeded);
}

TEST(Idempotency, RestoredEntriesAreRepeats) {
  IdempotencyIndex index;
  index.Restore("r1", "body", "old", 1);
  EXPECT_EQ(index.Begin("r1", "body")->result, "old");
  EXPECT_TRUE(IsValidRequestId("a-b_c.1"));
  EXPECT_FALSE(IsValidRequestId(""));
  EXPECT_FALSE(IsValidRequestId("has space"));
  EXPECT_FALSE(IsValidRequestId(std::string(129, 'x')));
}

TEST(Idempotency, AnAnswerOutsideTheWindowIsANewRequest) {
  ManualClock clock;
  IdempotencyIndex index({.window = absl::Hours(1), .clock = &clock});
  ASSERT_TRUE(index.Begin("r1", "body-a").ok());
  index.Complete("r1", "result-1");
  clock.Advance(absl::Minutes(59));
  EXPECT_EQ(index.Begin("r1", "body-a")->outcome,
            IdempotencyIndex::Outcome::kRepeat);
  EXPECT_EQ(index.Begin("r1", "body-b").status().code(),
            absl::StatusCode::kAlreadyExists);
  clock.Advance(absl::Minutes(1));
  // An hour on, the id is free again, for any body.
  EXPECT_FALSE(index.Find("r1", "body-a").has_value());
  auto again = index.Begin("r1", "body-b");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->outcome, IdempotencyIndex::Outcome::kFirst);
  index.Complete("r1", "result-2");
  EXPECT_EQ(index.Find("r1", "body-b"), "result-2");
}

TEST(Idempotency, AReplayKeepsTheLaterUseOfAReusedId) {
  ManualClock clock;
  const int64_t now = clock.NowMicros();
  IdempotencyIndex index({.window = absl::Hours(1), .clock = &clock});
  index.Restore("r1", "body-b", "later", now - 10);
  index.Restore("r1", "body-a", "earlier", now - 20);
  EXPECT_EQ(index.Find("r1", "body-b"), "later");
  // One already outside the window is not kept at all.
  index.Restore("r2", "body", "old",
                now - absl::ToInt64Microseconds(absl::Hours(2)));
  EXPECT_FALSE(index.Find("r2", "body").has_value());
}

TEST(Idempotency, MemoryIsBoundedByTheWindow) {
  ManualClock clock;
  IdempotencyIndex index({.window = absl::Minutes(10), .clock = &clock});
  for (int minute = 0; minute < 60; ++minute) {
    for (int i = 0; i < 100; ++i) {
      const std::string id = absl::StrCat("m", minute, "-", i);
      ASSERT_TRUE(index.Begin(id, "body").ok());
      index.Complete(id, "r");
    }
    clock.Advance(absl::Minutes(1));
  }
  // 6,000 answered, at most the last 10 minutes' (and a shard's stragglers
  // until its next answer) kept.
  EXPECT_LE(index.size(), 1'100u);
  EXPECT_GE(index.size(), 900u);
}

TEST(Idempotency, WithoutAWindowAnswersAreKeptForEver) {
  ManualClock clock;
  IdempotencyIndex index({.clock = &clock});
  ASSERT_TRUE(index.Begin("r1", "body").ok());
  index.Complete("r1", "result");
  clock.Advance(absl::Hours(24 * 365 * 10));
  EXPECT_EQ(index.Begin("r1", "body")->result, "result");
}

}  // namespace
}  // namespace banca::ledger
