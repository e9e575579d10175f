#include "libs/eventlog/group_coordinator.h"

#include <vector>

#include "gtest/gtest.h"

namespace banca::eventlog::internal {
namespace {

constexpr int64_t kSecond = 1'000'000;

GroupOptions Options(std::string topic = "t", int session_ms = 1000) {
  GroupOptions o;
  o.group = "g";
  o.topic = std::move(topic);
  o.session_timeout_ms = session_ms;
  return o;
}

TEST(RangeAssignment, SplitsIntoContiguousRunsFirstOnesLonger) {
  EXPECT_EQ(RangeAssignment(8, 2, 0), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(RangeAssignment(8, 2, 1), (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(RangeAssignment(8, 3, 0), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(RangeAssignment(8, 3, 1), (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(RangeAssignment(8, 3, 2), (std::vector<int>{6, 7}));
  EXPECT_EQ(RangeAssignment(2, 3, 2), (std::vector<int>{}));
  EXPECT_EQ(RangeAssignment(2, 0, 0), (std::vector<int>{}));
}

TEST(GroupCoordinator, MembersSplitThePartitionsAndTakeOverOnLeave) {
  GroupCoordinator c;
  absl::StatusOr<int64_t> a = c.Join(Options(), 4, 0);
  ASSERT_TRUE(a.ok()) << a.status();
  Assignment alone = c.Poll("g", *a, 0);
  EXPECT_EQ(alone.partitions, (std::vector<int>{0, 1, 2, 3}));

  absl::StatusOr<int64_t> b = c.Join(Options(), 4, 1);
  ASSERT_TRUE(b.ok());
  Assignment first = c.Poll("g", *a, 2);
  Assignment second = c.Poll("g", *b, 2);
  EXPECT_EQ(first.partitions, (std::vector<int>{0, 1}));
  EXPECT_EQ(second.partitions, (std::vector<int>{2, 3}));
  EXPECT_GT(first.epoch, alone.epoch);
  EXPECT_EQ(first.epoch, second.epoch);

  c.Leave("g", *a, 3);
  Assignment all = c.Poll("g", *b, 4);
  EXPECT_EQ(all.partitions, (std::vector<int>{0, 1, 2, 3}));
}

TEST(GroupCoordinator, SilentMemberIsPresumedDeadAndFenced) {
  GroupCoordinator c;
  const int64_t a = *c.Join(Options(), 4, 0);
  const int64_t b = *c.Join(Options(), 4, 0);
  const Assignment a0 = c.Poll("g", a, 0);
  c.Poll("g", b, 0);
  EXPECT_TRUE(c.CheckFence("g", a, a0.epoch, kSecond / 2).ok());
  // b keeps polling; a falls silent past the session timeout.
  c.Poll("g", b, kSecond);
  const Assignment b1 = c.Poll("g", b, kSecond + kSecond / 2);
  EXPECT_EQ(b1.partitions, (std::vector<int>{0, 1, 2, 3}));
  absl::Status fenced = c.CheckFence("g", a, a0.epoch, kSecond + kSecond / 2);
  EXPECT_EQ(fenced.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(fenced.message().find("presumed dead"), std::string::npos)
      << fenced;
  // Back from its pause, the zombie joins again: nothing for it until b
  // has taken part in the rebalance, then a new generation.
  const Assignment a2 = c.Poll("g", a, 2 * kSecond);
  EXPECT_TRUE(a2.partitions.empty());
  EXPECT_TRUE(c.CheckFence("g", b, b1.epoch, 2 * kSecond).ok());
  const Assignment b3 = c.Poll("g", b, 2 * kSecond);
  const Assignment a3 = c.Poll("g", a, 2 * kSecond);
  EXPECT_GT(b3.epoch, b1.epoch);
  EXPECT_EQ(a3.epoch, b3.epoch);
  EXPECT_EQ(a3.partitions, (std::vector<int>{0, 1}));
  EXPECT_FALSE(c.CheckFence("g", b, b1.epoch, 2 * kSecond).ok());
  EXPECT_TRUE(c.CheckFence("g", a, a3.epoch, 2 * kSecond).ok());
}

// Kafka's eager protocol: a member that has not polled since another
// joined still owns its partitions in the old generation, so its appends
// stand; once it polls, the new generation starts and the old one is
// fenced. No partition ever has two owners: during the rebalance a member
// that has polled gets nothing.
TEST(GroupCoordinator, ARebalanceCompletesOnceEveryMemberHasPolled) {
  GroupCoordinator c;
  const int64_t a = *c.Join(Options(), 2, 0);
  const Assignment a0 = c.Poll("g", a, 0);
  EXPECT_EQ(a0.partitions, (std::vector<int>{0, 1}));
  const int64_t b = *c.Join(Options(), 2, 1);
  EXPECT_TRUE(c.CheckFence("g", a, a0.epoch, 1).ok());
  EXPECT_TRUE(c.Poll("g", b, 1).partitions.empty());
  EXPECT_TRUE(c.CheckFence("g", a, a0.epoch, 1).ok());
  const Assignment a1 = c.Poll("g", a, 2);
  EXPECT_GT(a1.epoch, a0.epoch);
  EXPECT_EQ(a1.partitions, (std::vector<int>{0}));
  EXPECT_EQ(c.CheckFence("g", a, a0.epoch, 2).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(c.CheckFence("g", a, a1.epoch, 2).ok());
  EXPECT_EQ(c.Poll("g", b, 2).partitions, (std::vector<int>{1}));
}

TEST(GroupCoordinator, AGroupSharesOneTopic) {
  GroupCoordinator c;
  ASSERT_TRUE(c.Join(Options("t"), 2, 0).ok());
  absl::StatusOr<int64_t> other = c.Join(Options("u"), 2, 0);
  EXPECT_EQ(other.status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace banca::eventlog::internal
