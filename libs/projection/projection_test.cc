#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "libs/projection/txn_values.h"

namespace banca::projection {
namespace {

// Counts records per key and sums their values.
class CountingProjector : public Projector {
 public:
  std::vector<std::string> Topics() const override { return {"t"}; }
  absl::Status Apply(const eventlog::StoredRecord& record, Txn& txn) override {
    const std::string key = absl::StrCat("sum/", record.key);
    auto current = txn.Get(key);
    if (!current.ok()) return current.status();
    int64_t sum = 0, add = 0;
    if (current->has_value()) (void)absl::SimpleAtoi(**current, &sum);
    if (!absl::SimpleAtoi(record.value, &add)) {
      return absl::InvalidArgumentError("not a number");
    }
    txn.Put(key, absl::StrCat(sum + add));
    return absl::OkStatus();
  }
};

// As CountingProjector, and keeps each key's last value unless it is a
// multiple of 5, which deletes it: puts, overwrites and deletes; and a
// typed sum of each key's values (Txn::Typed), written when the txn is.
// In a bulk catch-up it has two lanes (Projector::Lanes): the counts on
// one, the rest on the other, each into its own txn.
class LastValueProjector final : public CountingProjector {
 public:
  absl::Status Apply(const eventlog::StoredRecord& record, Txn& txn) override {
    if (auto s = CountingProjector::Apply(record, txn); !s.ok()) return s;
    return ApplyLast(record, txn);
  }
  int Lanes() const override { return 2; }
  absl::Status ApplyLanes(const std::vector<eventlog::StoredRecord>& records,
                          const std::vector<Txn*>& txns) override {
    ++lane_calls;
    for (const eventlog::StoredRecord& record : records) {
      if (auto s = CountingProjector::Apply(record, *txns[0]); !s.ok()) {
        return s;
      }
      if (auto s = ApplyLast(record, *txns[1]); !s.ok()) return s;
    }
    return absl::OkStatus();
  }
  int lane_calls = 0;

 private:
  static absl::Status ApplyLast(const eventlog::StoredRecord& record,
                                Txn& txn) {
    int64_t v = 0;
    (void)absl::SimpleAtoi(record.value, &v);
    auto typed = TypedInt(txn, absl::StrCat("typed/", record.key));
    if (!typed.ok()) return typed.status();
    (*typed)->value += v;
    const std::string key = absl::StrCat("last/", record.key);
    if (v % 5 == 0) {
      txn.Delete(key);
    } else {
      txn.Put(key, record.value);
    }
    return absl::OkStatus();
  }
};

// A log whose offsets have gaps, as Kafka's do (a transaction marker after
// every record), and whose Read, like Kafka's, returns up to `max_records`
// records whatever their offsets: one topic "t" of one partition.
class GappedLog final : public eventlog::EventLog {
 public:
  void Add(int64_t value) {
    eventlog::StoredRecord r;
    r.topic = "t";
    r.offset = 2 * static_cast<int64_t>(records_.size());
    r.key = absl::StrCat("k", value % 7);
    r.value = absl::StrCat(value);
    records_.push_back(std::move(r));
  }
  absl::Status EnsureTopic(const eventlog::TopicConfig&) override {
    return absl::OkStatus();
  }
  absl::StatusOr<int> PartitionCount(std::string_view) override { return 1; }
  void AppendAsync(std::vector<eventlog::Record>,
                   std::vector<eventlog::OffsetCommit>,
                   eventlog::AppendCallback done) override {
    done(absl::UnimplementedError("GappedLog::AppendAsync"), {});
  }
  absl::StatusOr<std::vector<eventlog::StoredRecord>> Read(
      std::string_view, int, int64_t offset, size_t max_records) override {
    std::vector<eventlog::StoredRecord> out;
    for (const eventlog::StoredRecord& r : records_) {
      if (r.offset >= offset && out.size() < max_records) out.push_back(r);
    }
    return out;
  }
  absl::StatusOr<int64_t> EndOffset(std::string_view, int) override {
    return 2 * static_cast<int64_t>(records_.size());  // after the marker
  }
  absl::Status CommitOffsets(std::vector<eventlog::OffsetCommit>) override {
    return absl::UnimplementedError("GappedLog::CommitOffsets");
  }
  absl::StatusOr<int64_t> CommittedOffset(std::string_view, std::string_view,
                                          int) override {
    return 0;
  }
  absl::StatusOr<std::vector<eventlog::TopicConfig>> ListTopics() override {
    return std::vector<eventlog::TopicConfig>{{"t", 1}};
  }

 private:
  std::vector<eventlog::StoredRecord> records_;
};

std::string TempDir(const std::string& name) {
  std::string dir =
      absl::StrCat(::testing::TempDir(), "/projection_", name, "_", ::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

class ProjectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TempDir(
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    auto log = eventlog::OpenEmbeddedLog(dir_ + "/log");
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
    ASSERT_TRUE(log_->EnsureTopic({"t", 4}).ok());
  }
  void AppendN(int n, int start = 0) {
    for (int i = start; i < start + n; ++i) {
      eventlog::Record r;
      r.topic = "t";
      r.key = absl::StrCat("k", i % 7);
      r.value = absl::StrCat(i);
      ASSERT_TRUE(log_->Append({r}).ok());
    }
  }
  std::unique_ptr<ProjectionStore> OpenStore(const std::string& name) {
    auto store = ProjectionStore::Open(dir_ + "/" + name);
    EXPECT_TRUE(store.ok()) << store.status();
    return *std::move(store);
  }
  std::string dir_;
  std::unique_ptr<eventlog::EventLog> log_;
  CountingProjector projector_;
};

TEST_F(ProjectionTest, CatchUpAppliesEveryRecordOnce) {
  AppendN(100);
  auto store = OpenStore("p");
  auto applied = CatchUp(*log_, *store, projector_);
  ASSERT_TRUE(applied.ok()) << applied.status();
  EXPECT_EQ(*applied, 100);
  EXPECT_EQ(*CatchUp(*log_, *store, projector_), 0);
  int64_t total = 0;
  auto rows = store->Scan("sum/", "", 100);
  ASSERT_TRUE(rows.ok());
  for (auto& [k, v] : *rows) {
    int64_t x;
    ASSERT_TRUE(absl::SimpleAtoi(v, &x));
    total += x;
  }
  EXPECT_EQ(total, 99 * 100 / 2);
}

TEST_F(ProjectionTest, OffsetsSurviveReopenAndResumeWithoutDoubleApply) {
  AppendN(50);
  std::string hash_once;
  {
    auto store = OpenStore("p");
    ASSERT_TRUE(CatchUp(*log_, *store, projector_).ok());
  }
  AppendN(50, 50);
  auto store = OpenStore("p");
  EXPECT_EQ(*CatchUp(*log_, *store, projector_), 50);
  auto rebuilt = OpenStore("rebuilt");
  EXPECT_EQ(*CatchUp(*log_, *rebuilt, projector_), 100);
  EXPECT_EQ(*store->StateHash(), *rebuilt->StateHash());
  EXPECT_EQ(store->Offsets(), rebuilt->Offsets());
}

// A bulk catch-up (ProjectionStore::Ingest: sorted table files instead of
// inserts) ends in the bytes a record-at-a-time one does, with tiny bulk
// batches so that later files overwrite and delete keys of earlier ones,
// and goes on after a reopen.
TEST_F(ProjectionTest, ABulkCatchUpEndsInTheStateOfARecordAtATimeOne) {
  AppendN(300);
  LastValueProjector projector;
  CatchUpOptions one_at_a_time;
  one_at_a_time.bulk_min_records = 0;
  one_at_a_time.batch_records = 7;
  CatchUpOptions bulk;
  bulk.bulk_min_records = 1;
  bulk.bulk_bytes = 2'000;
  bulk.batch_records = 16;
  auto slow = OpenStore("slow");
  ASSERT_EQ(*CatchUp(*log_, *slow, projector, one_at_a_time), 300);
  EXPECT_EQ(projector.lane_calls, 0);
  {
    CatchUpOptions one_lane = bulk;
    one_lane.lanes = false;
    auto fast = OpenStore("fast-one-lane");
    ASSERT_EQ(*CatchUp(*log_, *fast, projector, one_lane), 300);
    EXPECT_EQ(*fast->StateHash(), *slow->StateHash());
    EXPECT_EQ(projector.lane_calls, 0);
  }
  {
    auto fast = OpenStore("fast");
    ASSERT_EQ(*CatchUp(*log_, *fast, projector, bulk), 300);
    EXPECT_GT(projector.lane_calls, 0);
    EXPECT_EQ(*fast->StateHash(), *slow->StateHash());
    EXPECT_EQ(fast->Offsets(), slow->Offsets());
    EXPECT_GT(*fast->KeyCount(), 7);
  }
  for (const auto& entry :
       std::filesystem::directory_iterator(dir_ + "/fast")) {
    EXPECT_EQ(entry.path().filename().string().rfind("ingest-", 0),
              std::string::npos)
        << entry.path() << " was left behind";
  }
  AppendN(50, 300);
  auto fast = OpenStore("fast");
  EXPECT_EQ(fast->Offsets(), slow->Offsets());
  ASSERT_EQ(*CatchUp(*log_, *fast, projector, bulk), 50);
  ASSERT_EQ(*CatchUp(*log_, *slow, projector, one_at_a_time), 50);
  EXPECT_EQ(*fast->StateHash(), *slow->StateHash());
  EXPECT_EQ(fast->Offsets(), slow->Offsets());
  auto value = fast->Get("last/k1");
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, *slow->Get("last/k1"));
}

TEST_F(ProjectionTest, RebuildUntilOffsetsMatchesAPartialProjection) {
  AppendN(40);
  auto live = OpenStore("live");
  ASSERT_TRUE(CatchUp(*log_, *live, projector_).ok());
  const OffsetMap at = live->Offsets();
  AppendN(40, 40);
  auto scratch = OpenStore("scratch");
  CatchUpOptions options;
  options.until = &at;
  ASSERT_TRUE(CatchUp(*log_, *scratch, projector_, options).ok());
  EXPECT_EQ(*live->StateHash(), *scratch->StateHash());
  ASSERT_TRUE(CatchUp(*log_, *scratch, projector_).ok());
  EXPECT_NE(*live->StateHash(), *scratch->StateHash());
}

// On Kafka a read of `until - next` records runs past `until` (markers
// take offsets): the live audit's rebuilds applied records the live
// projections had not, and their hashes differed.
TEST_F(ProjectionTest, RebuildUntilOffsetsStopsThereWhenOffsetsHaveGaps) {
  GappedLog log;
  for (int i = 0; i < 5; ++i) log.Add(i);
  auto live = OpenStore("live");
  ASSERT_EQ(*CatchUp(log, *live, projector_), 5);
  const OffsetMap at = live->Offsets();
  ASSERT_EQ(at.at({"t", 0}), 9);  // after the record at 8
  for (int i = 5; i < 20; ++i) log.Add(i);
  auto scratch = OpenStore("scratch");
  CatchUpOptions options;
  options.until = &at;
  auto applied = CatchUp(log, *scratch, projector_, options);
  ASSERT_TRUE(applied.ok()) << applied.status();
  EXPECT_EQ(*applied, 5);
  EXPECT_EQ(scratch->Offsets(), at);
  EXPECT_EQ(*live->StateHash(), *scratch->StateHash());
  // Without `until`, the rest; the live one catches up the same way.
  EXPECT_EQ(*CatchUp(log, *scratch, projector_), 15);
  EXPECT_EQ(*CatchUp(log, *live, projector_), 15);
  EXPECT_EQ(*live->StateHash(), *scratch->StateHash());
  EXPECT_EQ(live->Offsets(), scratch->Offsets());
}

TEST_F(ProjectionTest, HashChangesWithContent) {
  auto a = OpenStore("a");
  auto b = OpenStore("b");
  EXPECT_EQ(*a->StateHash(), *b->StateHash());
  Txn txn(*a);
  txn.Put("x", "1");
  ASSERT_TRUE(a->Commit(txn).ok());
  EXPECT_NE(*a->StateHash(), *b->StateHash());
  EXPECT_EQ(*a->KeyCount(), 1);
}

TEST_F(ProjectionTest, TxnReadsItsOwnWritesAndDeletes) {
  auto store = OpenStore("p");
  Txn txn(*store);
  txn.Put("a", "1");
  EXPECT_EQ(**txn.Get("a"), "1");
  txn.Delete("a");
  EXPECT_FALSE(txn.Get("a")->has_value());
}

// The txns of a catch-up's lanes must keep disjoint keys: two that write
// one key are refused, and nothing is written.
TEST_F(ProjectionTest, LanesThatWriteOneKeyAreRefused) {
  auto store = OpenStore("p");
  Txn a(*store), b(*store);
  a.Put("a", "1");
  a.Put("x", "1");
  b.Put("x", "2");
  b.Put("z", "2");
  a.SetOffset("t", 0, 5);
  EXPECT_TRUE(absl::IsInternal(store->Ingest({&a, &b})));
  EXPECT_EQ(*store->KeyCount(), 0);
  EXPECT_TRUE(store->Offsets().empty());
  for (const auto& entry : std::filesystem::directory_iterator(dir_ + "/p")) {
    EXPECT_EQ(entry.path().filename().string().rfind("ingest-", 0),
              std::string::npos)
        << entry.path() << " was left behind";
  }
}

// A typed value is loaded once from the store, changed in place and
// written when the txn is committed; the next txn loads what was written.
TEST_F(ProjectionTest, ATypedValueIsWrittenOnceWhenTheTxnIs) {
  auto store = OpenStore("p");
  for (int round = 1; round <= 2; ++round) {
    Txn txn(*store);
    for (int i = 0; i < 3; ++i) {
      auto v = TypedInt(txn, "n");
      ASSERT_TRUE(v.ok()) << v.status();
      (*v)->value += 10;
    }
    EXPECT_EQ(txn.pending(), 1u);
    EXPECT_GT(txn.pending_bytes(), 0u);
    ASSERT_TRUE(store->Commit(txn).ok());
    EXPECT_EQ(txn.pending(), 0u);
    EXPECT_EQ(**store->Get("n"), absl::StrCat(30 * round));
  }
  Txn bad(*store);
  bad.Put("x", "not a number");
  ASSERT_TRUE(store->Commit(bad).ok());
  Txn txn(*store);
  EXPECT_TRUE(absl::IsDataLoss(TypedInt(txn, "x").status()));
}

TEST_F(ProjectionTest, RunnerFollowsTheLogAndWaitForBlocksUntilApplied) {
  auto store = OpenStore("p");
  ProjectionRunner runner(*log_, *store, projector_);
  runner.Start();
  AppendN(30);
  OffsetMap targets;
  for (int p = 0; p < 4; ++p) {
    const int64_t end = *log_->EndOffset("t", p);
    if (end > 0) targets[{"t", p}] = end;
  }
  ASSERT_TRUE(runner.WaitFor(targets, absl::Seconds(10)).ok());
  ASSERT_TRUE(runner.Stop().ok());
  EXPECT_EQ(store->Offsets(), targets);
}

// Issue 20, the live audit: a reader beside the running projection (a
// read-only open, which sees the last flush) finds what the runner applied
// once kRunnerFlushInterval has passed, without the runner stopping.
TEST_F(ProjectionTest, ARunningProjectionFlushesForReadersBesideIt) {
  auto store = OpenStore("p");
  ProjectionRunner runner(*log_, *store, projector_);
  runner.Start();
  AppendN(30);
  OffsetMap targets;
  for (int p = 0; p < 4; ++p) {
    const int64_t end = *log_->EndOffset("t", p);
    if (end > 0) targets[{"t", p}] = end;
  }
  ASSERT_TRUE(runner.WaitFor(targets, absl::Seconds(10)).ok());
  absl::SleepFor(kRunnerFlushInterval);
  AppendN(1, 30);  // a pass after the interval flushes
  OffsetMap seen;
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (seen.empty() && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(50));
    auto beside = ProjectionStore::OpenReadOnly(dir_ + "/p");
    ASSERT_TRUE(beside.ok()) << beside.status();
    seen = (*beside)->Offsets();
  }
  int64_t applied = 0;
  for (const auto& [where, next] : seen) applied += next;
  EXPECT_GE(applied, 30);
  ASSERT_TRUE(runner.Stop().ok());
}

TEST_F(ProjectionTest, ApplyErrorStopsAndIsReported) {
  eventlog::Record r;
  r.topic = "t";
  r.key = "k";
  r.value = "not-a-number";
  ASSERT_TRUE(log_->Append({r}).ok());
  auto store = OpenStore("p");
  auto applied = CatchUp(*log_, *store, projector_);
  EXPECT_EQ(applied.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(store->Offsets().empty());
}

}  // namespace
}  // namespace banca::projection
