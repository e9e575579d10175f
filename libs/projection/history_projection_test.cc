// The history projection's keys (newest first) and its refusal to resume
// past offset 0 without the log it rebuilds its tables from.
#include "libs/projection/history_projection.h"

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/projection/projection_store.h"
#include "libs/wire/topics.h"

namespace banca::projection {
namespace {

TEST(HistoryKeys, NewerStartsSortFirstAndReadBack) {
  const std::string prefix = HistoryPlayerPrefix("ana", "");
  const std::string older = NewestFirstStart(prefix, 1'000);
  const std::string newer = NewestFirstStart(prefix, 2'000);
  EXPECT_LT(newer, older);
  EXPECT_EQ(IndexMicros(prefix, older), 1'000);
  EXPECT_EQ(IndexMicros(prefix, absl::StrCat(newer, "/0000/1/pk.h1")), 2'000);
  EXPECT_EQ(IndexMicros(prefix, prefix), 0);  // too short: not an index key
  // One player's prefix is not another's, nor a game's of the same player.
  EXPECT_NE(HistoryPlayerPrefix("ana", "poker").rfind(prefix, 0), 0u);
  EXPECT_NE(HistoryPlayerPrefix("anabela", "").rfind(prefix, 0), 0u);
  EXPECT_NE(HistoryTablePrefix("pk"), HistoryTableKey("pk"));
}

TEST(HistoryProjector, DoesNotResumePastOffsetZeroWithoutItsLog) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/history_", ::getpid());
  std::filesystem::remove_all(dir);
  absl::StatusOr<std::unique_ptr<ProjectionStore>> store =
      ProjectionStore::Open(dir);
  ASSERT_TRUE(store.ok()) << store.status();
  HistoryProjector projector(nullptr);
  eventlog::StoredRecord record;
  record.topic = std::string(wire::kTableTopic);
  record.offset = 5;
  Txn txn(**store);
  EXPECT_EQ(projector.Apply(record, txn).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(txn.pending(), 0u);
  // From offset 0 no log is needed; a record that is not a table event
  // is DATA_LOSS, and nothing is written.
  record.offset = 0;
  record.value = "not an event";
  EXPECT_EQ(projector.Apply(record, txn).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(txn.pending(), 0u);
  store->reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace banca::projection
