#include "libs/eventlog/murmur2.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/eventlog/event_log.h"

namespace banca::eventlog {
namespace {

// Apache Kafka's UtilsTest.testMurmur2.
TEST(Murmur2, MatchesKafkaVectors) {
  EXPECT_EQ(internal::Murmur2("21"), -973932308);
  EXPECT_EQ(internal::Murmur2("foobar"), -790332482);
  EXPECT_EQ(internal::Murmur2("a-little-bit-long-string"), -985981536);
  EXPECT_EQ(internal::Murmur2("a-little-bit-longer-string"), -1486304829);
  EXPECT_EQ(
      internal::Murmur2("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8"),
      -58897971);
  EXPECT_EQ(internal::Murmur2("abc"), 479470107);
}

TEST(PartitionForKey, UsesToPositiveNotAbs) {
  // toPositive(-790332482) = 1357151166; 1357151166 % 50 = 16.
  EXPECT_EQ(PartitionForKey("foobar", 50), 16);
  EXPECT_EQ(PartitionForKey("21", 1), 0);
  // 0x7fffffff & -973932308 = 1173551340.
  EXPECT_EQ(PartitionForKey("21", 7), 1173551340 % 7);
}

TEST(PartitionForKey, DeterministicInRangeAndSpread) {
  constexpr int kPartitions = 16;
  constexpr int kKeys = 16000;
  std::vector<int> counts(kPartitions);
  for (int i = 0; i < kKeys; ++i) {
    const std::string key = absl::StrCat("account-", i);
    const int p = PartitionForKey(key, kPartitions);
    ASSERT_GE(p, 0);
    ASSERT_LT(p, kPartitions);
    ASSERT_EQ(p, PartitionForKey(key, kPartitions));
    ++counts[p];
  }
  for (int c : counts) {
    EXPECT_GT(c, kKeys / kPartitions * 8 / 10);
    EXPECT_LT(c, kKeys / kPartitions * 12 / 10);
  }
}

}  // namespace
}  // namespace banca::eventlog
