#include "libs/ledger/idempotency.h"

#include <thread>

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
  index.Restore("r1", "body", "old");
  EXPECT_EQ(index.Begin("r1", "body")->result, "old");
  EXPECT_TRUE(IsValidRequestId("a-b_c.1"));
  EXPECT_FALSE(IsValidRequestId(""));
  EXPECT_FALSE(IsValidRequestId("has space"));
  EXPECT_FALSE(IsValidRequestId(std::string(129, 'x')));
}

}  // namespace
}  // namespace banca::ledger
