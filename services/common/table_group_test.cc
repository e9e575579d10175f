// The table group's rules on the embedded log (whose groups are members
// of one process): two members split the partitions and each announces
// its own; a member the group presumed dead (it stopped polling: a zombie)
// still believes it owns its partitions, but its appends are fenced and
// store nothing; decisions on another member's partition are refused.
#include "services/common/table_group.h"

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "libs/eventlog/embedded_log.h"

namespace banca::table {
namespace {

constexpr char kTopic[] = "banca.test.tables";
constexpr int kPartitions = 4;

class TableGroupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(::testing::TempDir(), "/banca_table_group_", getpid());
    std::filesystem::remove_all(dir_);
    auto log = eventlog::OpenEmbeddedLog(dir_);
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = std::move(*log);
    ASSERT_TRUE(log_->EnsureTopic({kTopic, kPartitions}).ok());
  }
  void TearDown() override {
    members_.clear();
    log_.reset();
    std::filesystem::remove_all(dir_);
  }

  // A member that polls every `poll` (a long one polls once: a zombie once
  // the session passes).
  TableGroup& Member(const std::string& address, absl::Duration poll) {
    TableGroupOptions options;
    options.group = "tables";
    options.topic = kTopic;
    options.partitions = kPartitions;
    options.session_timeout_ms = 300;
    options.poll_interval = poll;
    options.advertise_address = address;
    members_.push_back(std::make_unique<TableGroup>(
        *log_, options, std::vector<int64_t>(kPartitions, 0),
        [](int, int64_t from) -> absl::StatusOr<int64_t> { return from; },
        [](const std::vector<int>&) { return absl::OkStatus(); }));
    EXPECT_TRUE(members_.back()->Join().ok());
    return *members_.back();
  }

  static bool WaitFor(const std::function<bool()>& done) {
    const absl::Time give_up = absl::Now() + absl::Seconds(20);
    while (!done() && absl::Now() < give_up) {
      absl::SleepFor(absl::Milliseconds(10));
    }
    return done();
  }

  absl::Status AppendOn(TableGroup& member, int p) {
    absl::Notification done;
    absl::Status result;
    eventlog::Record r{kTopic, "k", {}, "v"};
    r.partition = p;
    member.AppendAsync({r}, p,
                       [&](absl::Status s, std::vector<eventlog::Position>) {
                         result = s;
                         done.Notify();
                       });
    done.WaitForNotification();
    return result;
  }

  int64_t Records(int p) { return log_->EndOffset(kTopic, p).value_or(-1); }

  std::string dir_;
  std::unique_ptr<eventlog::EventLog> log_;
  std::vector<std::unique_ptr<TableGroup>> members_;
};

TEST_F(TableGroupTest, TwoMembersSplitThePartitionsAndNameEachOther) {
  TableGroup& a = Member("a:1", absl::Milliseconds(20));
  TableGroup& b = Member("b:2", absl::Milliseconds(20));
  ASSERT_TRUE(WaitFor([&] {
    return a.Owned().size() + b.Owned().size() == kPartitions &&
           !a.Owned().empty() && !b.Owned().empty();
  }));
  const int pa = a.Owned().front();
  const int pb = b.Owned().front();
  // A decision on the other's partition is refused, naming the route.
  absl::Status refused = a.Enter(pb, "table t1");
  EXPECT_EQ(refused.code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(refused.message().find("table t1 is on partition"),
            std::string::npos)
      << refused;
  ASSERT_TRUE(a.Enter(pa, "table t2").ok());
  a.Leave();
  // Each names the other as the owner of the other's partitions.
  ASSERT_TRUE(WaitFor([&] {
    absl::StatusOr<TableOwner> o = a.OwnerOf(pb);
    return o.ok() && o->address == "b:2";
  }));
  absl::StatusOr<TableOwner> own = a.OwnerOf(pa);
  ASSERT_TRUE(own.ok());
  EXPECT_TRUE(own->here);
  EXPECT_EQ(own->address, "a:1");
  absl::StatusOr<TableOwner> other = b.OwnerOf(pa);
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(other->here);
}

TEST_F(TableGroupTest, AZombieStillBelievesButItsAppendsAreFenced) {
  // a polls once, owns everything, then falls silent.
  TableGroup& a = Member("a:1", absl::Hours(1));
  ASSERT_TRUE(WaitFor([&] { return a.Owned().size() == kPartitions; }));
  ASSERT_TRUE(AppendOn(a, 0).ok());
  EXPECT_EQ(Records(0), 1);
  // b joins; a's session passes; b takes every partition over.
  TableGroup& b = Member("b:2", absl::Milliseconds(20));
  ASSERT_TRUE(WaitFor([&] { return b.Owned().size() == kPartitions; }));
  EXPECT_EQ(a.Owned().size(), static_cast<size_t>(kPartitions))
      << "a, silent, does not know it lost them";
  // The zombie's append is refused whole; the owner's is stored.
  absl::Status fenced = AppendOn(a, 0);
  EXPECT_EQ(fenced.code(), absl::StatusCode::kFailedPrecondition) << fenced;
  EXPECT_EQ(Records(0), 1);
  ASSERT_TRUE(AppendOn(b, 0).ok());
  EXPECT_EQ(Records(0), 2);
}

TEST_F(TableGroupTest, BadOptionsAreRefused) {
  TableGroupOptions options;
  options.topic = kTopic;
  EXPECT_EQ(ValidateTableGroupOptions(options).code(),
            absl::StatusCode::kInvalidArgument);
  options.group = "tables";
  options.advertise_address = std::string(kMaxAdvertiseAddressBytes + 1, 'x');
  EXPECT_EQ(ValidateTableGroupOptions(options).code(),
            absl::StatusCode::kInvalidArgument);
  options.advertise_address = "127.0.0.1:50051";
  EXPECT_TRUE(ValidateTableGroupOptions(options).ok());
}

}  // namespace
}  // namespace banca::table
