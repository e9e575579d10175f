#include "services/common/saga_refusals.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace banca::table {
namespace {

TEST(SagaRefusals, ReasonReachesItsWaiterAndIsThenForgotten) {
  SagaRefusals r;
  ASSERT_TRUE(r.Wait("banked/t/stake/1"));
  r.Refused("banked/t/stake/1", "FAILED_PRECONDITION: no funds");
  EXPECT_EQ(r.Done("banked/t/stake/1"), "FAILED_PRECONDITION: no funds");
  EXPECT_EQ(r.size(), 0u);
  EXPECT_EQ(r.Done("banked/t/stake/1"), std::nullopt);
}

TEST(SagaRefusals, CapturedStakeLeavesNothing) {
  SagaRefusals r;
  ASSERT_TRUE(r.Wait("banked/t/stake/1"));
  EXPECT_EQ(r.Done("banked/t/stake/1"), std::nullopt);
  EXPECT_EQ(r.size(), 0u);
}

// The unbounded case before: refusals that came after the caller's
// deadline, or with nobody waiting (after a restart, a timeout the clock
// found), stayed in the map for good.
TEST(SagaRefusals, RefusalsNobodyWaitsForAreNotKept) {
  SagaRefusals r;
  for (int i = 0; i < 10'000; ++i) {
    r.Refused(absl::StrCat("banked/t/stake/", i), "timed out");
  }
  EXPECT_EQ(r.size(), 0u);
  // A caller that gave up (deadline) is done before the refusal comes.
  ASSERT_TRUE(r.Wait("banked/t/stake/20000"));
  EXPECT_EQ(r.Done("banked/t/stake/20000"), std::nullopt);
  r.Refused("banked/t/stake/20000", "late");
  EXPECT_EQ(r.size(), 0u);
}

TEST(SagaRefusals, AtMostLimitWaitersAtOnce) {
  SagaRefusals r(/*limit=*/2);
  EXPECT_TRUE(r.Wait("a"));
  EXPECT_TRUE(r.Wait("b"));
  EXPECT_TRUE(r.Wait("a"));  // already waiting: no new entry
  EXPECT_FALSE(r.Wait("c"));
  EXPECT_EQ(r.size(), 2u);
  r.Refused("c", "ignored");
  EXPECT_EQ(r.size(), 2u);
  EXPECT_EQ(r.Done("a"), std::nullopt);
  EXPECT_TRUE(r.Wait("c"));
}

}  // namespace
}  // namespace banca::table
