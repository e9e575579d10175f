// The log as the live audit reads it (audited_log.h) and its progress
// line (audit_progress.h).
#include "services/audit/audited_log.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/group_member.h"
#include "libs/wire/topics.h"
#include "services/audit/audit_progress.h"

namespace banca::audit {
namespace {

using ::absl::StatusCode;

eventlog::Record Rec(std::string topic, std::string value) {
  eventlog::Record r;
  r.topic = std::move(topic);
  r.value = std::move(value);
  r.partition = 0;
  return r;
}

class AuditedLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(
        ::testing::TempDir(), "/audited_log_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    auto log = eventlog::OpenEmbeddedLog(dir_);
    ASSERT_TRUE(log.ok()) << log.status();
    writer_ = *std::move(log);
    ASSERT_TRUE(writer_->EnsureTopic({"t", 1}).ok());
    ASSERT_TRUE(
        writer_->EnsureTopic({std::string(wire::kTableRequestsTopic), 1}).ok());
  }

  // The audit's reader beside the writer.
  std::unique_ptr<AuditedLog> Audited(AuditProgress* progress = nullptr) {
    auto inner = eventlog::OpenEmbeddedLog(
        dir_, {.read_only = true, .beside_writer = true});
    EXPECT_TRUE(inner.ok()) << inner.status();
    if (!inner.ok()) return nullptr;
    auto log = AuditedLog::Open(*std::move(inner), progress);
    EXPECT_TRUE(log.ok()) << log.status();
    return log.ok() ? *std::move(log) : nullptr;
  }

  std::string dir_;
  std::unique_ptr<eventlog::EventLog> writer_;
};

TEST_F(AuditedLogTest, ReadsItsRangeAndWritesNothing) {
  ASSERT_TRUE(writer_->Append({Rec("t", "a"), Rec("t", "b")}).ok());
  const std::string group(wire::kTableRequestsGroup);
  const std::string requests(wire::kTableRequestsTopic);
  ASSERT_TRUE(writer_->CommitOffsets({{group, requests, 0, 0}}).ok());
  std::vector<std::string> lines;
  AuditProgress progress([&](const std::string& l) { lines.push_back(l); },
                         absl::ZeroDuration());
  progress.StartPhase("test", 2);
  std::unique_ptr<AuditedLog> log = Audited(&progress);
  ASSERT_NE(log, nullptr);
  ASSERT_TRUE(writer_->Append({Rec("t", "c")}).ok());

  EXPECT_EQ(log->EndOffset("t", 0).value(), 2);
  EXPECT_EQ((log->ends().at({"t", 0})), 2);
  absl::StatusOr<std::vector<eventlog::StoredRecord>> read =
      log->Read("t", 0, 0, 100);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 2u);
  EXPECT_EQ(read->back().value, "b");
  EXPECT_TRUE(log->Read("t", 0, 2, 100)->empty());
  EXPECT_EQ(log->Read("t", 0, 3, 100).status().code(), StatusCode::kOutOfRange);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), AuditProgress::Line("test", 2, 2));
  EXPECT_EQ(lines.back(), "banca audit verify: test: 2/2 records read");

  EXPECT_EQ(log->Append({Rec("t", "d")}).status().code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(log->CommitOffsets({{group, requests, 0, 1}}).code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(log->EnsureTopic({"u", 1}).code(), StatusCode::kFailedPrecondition);
  eventlog::GroupOptions join;
  join.group = "g";
  join.topic = "t";
  EXPECT_EQ(log->JoinGroup(join).status().code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(log->PartitionCount("u").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(writer_->EndOffset("t", 0).value(), 3);
}

// The wallet's readers' positions are taken before the ends, and kept:
// a position that moves on during the audit is not one the range holds.
TEST_F(AuditedLogTest, ReaderPositionsAreTakenFirst) {
  const std::string group(wire::kTableRequestsGroup);
  const std::string requests(wire::kTableRequestsTopic);
  ASSERT_TRUE(writer_
                  ->Append({Rec(requests, "r1"), Rec(requests, "r2")},
                           {{group, requests, 0, 1}})
                  .ok());
  ASSERT_TRUE(writer_->CommitOffsets({{"other", requests, 0, 2}}).ok());
  std::unique_ptr<AuditedLog> log = Audited();
  ASSERT_NE(log, nullptr);
  ASSERT_TRUE(writer_->CommitOffsets({{group, requests, 0, 2}}).ok());
  EXPECT_EQ(log->CommittedOffset(group, requests, 0).value(), 1);
  // A group it did not take first is read from the range.
  EXPECT_EQ(log->CommittedOffset("other", requests, 0).value(), 2);
}

TEST(AuditProgress, ALineEveryIntervalAndNoneOnShortRuns) {
  absl::Time now = absl::UnixEpoch();
  std::vector<std::string> lines;
  AuditProgress progress([&](const std::string& l) { lines.push_back(l); },
                         absl::Seconds(2), [&] { return now; });
  progress.StartPhase("wallet", 100);
  progress.Add(10);
  now += absl::Seconds(1);
  progress.Add(10);
  EXPECT_TRUE(lines.empty());
  now += absl::Seconds(1);
  progress.Add(5);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "banca audit verify: wallet: 25/100 records read");
  progress.StartPhase("poker tables", 40);
  progress.Add(7);
  EXPECT_EQ(lines.size(), 1u);
  now += absl::Seconds(2);
  progress.Add(1);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], "banca audit verify: poker tables: 8/40 records read");
  AuditProgress silent(nullptr);
  silent.Add(1);  // no sink: nothing, and no crash
}

}  // namespace
}  // namespace banca::audit
