// Durable before shown (services/table/table_service.h): no answer or view
// of the table service shows a state the log could still lose. The table
// writes through a fault-injecting wrapper around the real embedded log
// (tests/integration/fault_log.h) that holds back the log's "durable"
// callbacks, or fails the append: Act, GetTableView and WatchTable answer
// only after the callback, and a failed append is never shown (the table
// stops; a restart shows the state without it).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "tests/integration/fault_log.h"
#include "tests/integration/table_test_fixture.h"

namespace banca::testing {
namespace {

constexpr absl::Duration kPatience = absl::Seconds(10);
// Long enough for any answer that was not waiting to arrive on loopback.
constexpr absl::Duration kQuiet = absl::Milliseconds(300);

template <typename Pred>
bool Eventually(Pred pred) {
  const absl::Time give_up = absl::Now() + kPatience;
  while (!pred()) {
    if (absl::Now() > give_up) return false;
    absl::SleepFor(absl::Milliseconds(2));
  }
  return true;
}

class TableDurabilityTest : public TableServiceTest {
 protected:
  eventlog::EventLog& TableLog() override {
    fault_ = std::make_unique<FaultLog>(*log_);
    return *fault_;
  }
  void TearDown() override {
    if (fault_ && log_) fault_->Release();
    TableServiceTest::TearDown();
  }

  // Two players seated, hand 1 dealt, the wallet caught up; returns the
  // player to act.
  std::string DealHeadsUp() {
    Fund("ana", 50'000);
    Fund("bob", 50'000);
    EXPECT_TRUE(Create("t1", Holdem()).ok());
    EXPECT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
    EXPECT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
    Settle();
    const v1::TableView v = View("ana", "t1");
    EXPECT_TRUE(v.in_hand());
    return v.to_act() == v.my_seat() ? "ana" : "bob";
  }
  static v1::ActRequest Fold(const v1::TableView& before) {
    v1::ActRequest req;
    req.set_request_id("fold-1");
    req.set_table_id("t1");
    req.set_hand_number(before.hand_number());
    req.set_action(v1::POKER_ACTION_TYPE_FOLD);
    return req;
  }

  // A unary call on its own thread, to see whether it has answered yet.
  struct Pending {
    std::atomic<bool> done{false};
    grpc::Status status;
    v1::TableView view;
    std::thread thread;
    ~Pending() {
      if (thread.joinable()) thread.join();
    }
  };
  void StartAct(const std::string& player, const v1::ActRequest& req,
                Pending* p) {
    p->thread = std::thread([this, player, req, p] {
      p->status = tables_->Act(As(player).get(), req, &p->view);
      p->done = true;
    });
  }
  void StartView(const std::string& player, Pending* p) {
    p->thread = std::thread([this, player, p] {
      v1::WatchTableRequest req;
      req.set_table_id("t1");
      p->status = tables_->GetTableView(As(player).get(), req, &p->view);
      p->done = true;
    });
  }

  std::unique_ptr<FaultLog> fault_;
};

TEST_F(TableDurabilityTest, ActViewsAndTheStreamWaitForTheLogsCallback) {
  const std::string actor = DealHeadsUp();
  const v1::TableView before = View(actor, "t1");
  // A watcher, caught up before the fault.
  std::unique_ptr<grpc::ClientContext> watch_ctx = As(actor);
  v1::WatchTableRequest watch_req;
  watch_req.set_table_id("t1");
  auto reader = tables_->WatchTable(watch_ctx.get(), watch_req);
  std::mutex seen_mu;
  std::vector<v1::TableView> seen;
  std::thread watcher([&] {
    v1::TableView v;
    while (reader->Read(&v)) {
      std::lock_guard<std::mutex> lock(seen_mu);
      seen.push_back(v);
    }
  });
  auto watched = [&] {
    std::lock_guard<std::mutex> lock(seen_mu);
    return seen.size();
  };
  ASSERT_TRUE(Eventually([&] { return watched() >= 1; }));
  const size_t watched_before = watched();

  fault_->SetMode(FaultLog::Mode::kHold);
  const int64_t events_before = TableEvents();
  Pending act;
  StartAct(actor, Fold(before), &act);
  ASSERT_TRUE(Eventually([&] { return fault_->held() >= 1; }));
  // The fold (and the next hand it deals) is in the real log already, but
  // the table has not heard that it is durable: nothing shows it.
  ASSERT_TRUE(Eventually([&] { return TableEvents() > events_before; }));
  Pending view;
  StartView(actor, &view);
  absl::SleepFor(kQuiet);
  EXPECT_FALSE(act.done) << "Act answered before its action was durable";
  EXPECT_FALSE(view.done) << "GetTableView answered before durability";
  EXPECT_EQ(watched(), watched_before) << "the stream showed a lost state";

  fault_->Release();
  ASSERT_TRUE(Eventually([&] { return act.done && view.done; }));
  ASSERT_TRUE(act.status.ok()) << act.status.error_message();
  ASSERT_TRUE(view.status.ok()) << view.status.error_message();
  EXPECT_GT(act.view.version(), before.version());
  EXPECT_EQ(act.view.hand_number(), 2);  // the fold ended hand 1
  EXPECT_EQ(view.view.version(), act.view.version());
  ASSERT_TRUE(Eventually([&] { return watched() > watched_before; }));
  {
    std::lock_guard<std::mutex> lock(seen_mu);
    EXPECT_EQ(seen.back().hand_number(), 2);
  }
  watch_ctx->TryCancel();
  watcher.join();
}

// What the service's own clock decides waits the same way: a timeout
// (HE-45) is shown only once the log has called back.
TEST_F(TableDurabilityTest, TimerActionsAreShownOnlyOnceDurable_HE45) {
  const std::string actor = DealHeadsUp();
  const v1::TableView before = View(actor, "t1");
  table_->Tick();  // starts the decision timer
  fault_->SetMode(FaultLog::Mode::kHold);
  clock_.Advance(absl::Seconds(31));
  table_->Tick();  // HE-45: the timeout folds, held by the log
  ASSERT_EQ(fault_->held(), 1);
  Pending view;
  StartView(actor, &view);
  absl::SleepFor(kQuiet);
  EXPECT_FALSE(view.done);
  fault_->Release();
  ASSERT_TRUE(Eventually([&] { return view.done.load(); }));
  ASSERT_TRUE(view.status.ok());
  EXPECT_EQ(view.view.hand_number(), before.hand_number() + 1);
}

// A failed append is never shown: the callers waiting for it get no
// answer, the table stops (memory holds a decision the log does not), and
// a restart shows the table as the log has it, without the action.
// Threadsafe death tests re-run this test in a child: the child plays and
// dies in the parent's directory, which the parent then reopens.
class TableLogFailureDeathTest : public TableDurabilityTest {
 protected:
  static constexpr char kDirEnv[] = "BANCA_TABLE_DEATH_TEST_DIR";
  void SetUp() override {
    if (const char* dir = std::getenv(kDirEnv)) {
      dir_ = dir;
    } else {
      dir_ = FreshDir(
          ::testing::UnitTest::GetInstance()->current_test_info()->name());
      setenv(kDirEnv, dir_.c_str(), 1);
    }
  }
  void TearDown() override {
    TableDurabilityTest::TearDown();
    unsetenv(kDirEnv);
  }

  // In the child: a fold whose append fails.
  void FoldIntoAFailingLog() {
    Start();
    const std::string actor = DealHeadsUp();
    const v1::TableView before = View(actor, "t1");
    fault_->SetMode(FaultLog::Mode::kFail);
    Pending act;
    StartAct(actor, Fold(before), &act);
    if (!Eventually([&] { return fault_->held() >= 1; })) std::_Exit(2);
    Pending view;
    StartView(actor, &view);
    absl::SleepFor(kQuiet);
    if (act.done || view.done) {
      std::fprintf(stderr, "an answer went out before the log answered\n");
      std::_Exit(3);
    }
    std::fprintf(stderr, "nothing was shown before the log answered\n");
    std::fflush(stderr);
    fault_->Release();  // fails the append: the table stops here
    std::_Exit(4);
  }
};

TEST_F(TableLogFailureDeathTest, AFailedAppendIsNeverShownAndStopsTheTable) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(FoldIntoAFailingLog(),
               "nothing was shown before the log answered(.|\n)*"
               "the event log failed");
  // The parent reopens what the child left: the fold is not in the log,
  // and the table is where it was before it.
  Start();
  v1::TableView any = View("ana", "t1");
  ASSERT_TRUE(any.in_hand());
  EXPECT_EQ(any.hand_number(), 1);
  for (const v1::SeatState& s : any.seats()) EXPECT_FALSE(s.folded());
  int actions = 0;
  for (const v1::TableEvent& e : LoggedTableEvents()) {
    actions += e.has_action_applied();
  }
  EXPECT_EQ(actions, 0);
  // And the table goes on: the same fold now succeeds.
  const std::string actor = any.to_act() == 1 ? "ana" : "bob";
  EXPECT_TRUE(Act(actor, "t1", v1::POKER_ACTION_TYPE_FOLD).ok());
  EXPECT_EQ(View("ana", "t1").hand_number(), 2);
}

}  // namespace
}  // namespace banca::testing
