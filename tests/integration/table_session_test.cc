// The table service's session rules over gRPC: HE-70/71 invitations and
// warnings delivered to the player they concern (their TableView and
// WatchTable stream, and the log), and the session ended when the warning
// goes unheeded; HE-44 extra decision time on the service's clock before
// HE-45's timeout; HE-68 rests limited by the operator's setting.
#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/integration/table_test_fixture.h"

namespace banca::testing {
namespace {

using ::testing::HasSubstr;

class TableSessionTest : public TableServiceTest {
 protected:
  // Hands are dealt by the timer (hand_interval_ms = 1): the test decides
  // when the next one starts.
  static v1::PokerTableConfig Paced() {
    v1::PokerTableConfig c = Holdem();
    c.set_hand_interval_ms(1);
    return c;
  }
  void DealNext() {
    table_->Tick();
    clock_.Advance(absl::Milliseconds(1));
    table_->Tick();
  }
  bool Can(const v1::TableView& mine, v1::PokerActionType t) {
    return std::find(mine.legal().actions().begin(),
                     mine.legal().actions().end(),
                     t) != mine.legal().actions().end();
  }
  // Everyone folds until the hand ends (the big blind wins the blinds).
  void FoldAround(const std::string& table) {
    for (v1::TableView v = View("op", table); v.in_hand();
         v = View("op", table)) {
      const std::string player = PlayerAt(v, v.to_act());
      ASSERT_FALSE(player.empty());
      ASSERT_TRUE(Act(player, table, v1::POKER_ACTION_TYPE_FOLD).ok());
    }
  }
  // At t1: rui puts 100 in before the flop and folds after it; the others
  // check it down.
  void RuiPaysTheBigBlindThenFolds() {
    for (v1::TableView v = View("op", "t1"); v.in_hand();
         v = View("op", "t1")) {
      const std::string player = PlayerAt(v, v.to_act());
      const v1::TableView mine = View(player, "t1");
      v1::PokerActionType a = Can(mine, v1::POKER_ACTION_TYPE_CHECK)
                                  ? v1::POKER_ACTION_TYPE_CHECK
                                  : v1::POKER_ACTION_TYPE_CALL;
      if (player == "rui" && mine.board_size() > 0)
        a = v1::POKER_ACTION_TYPE_FOLD;
      ASSERT_TRUE(Act(player, "t1", a).ok()) << player << " " << a;
    }
  }
  std::vector<v1::SessionNotice> LoggedNotices(const std::string& player) {
    std::vector<v1::SessionNotice> out;
    for (const v1::TableEvent& e : LoggedTableEvents()) {
      if (e.has_session_notice() && e.session_notice().player_id() == player) {
        out.push_back(e.session_notice());
      }
    }
    return out;
  }
  // SitOut (HE-68's rest) or, with `out` false, SitIn.
  grpc::Status Rest(const std::string& player, const std::string& rid,
                    bool out = true) {
    v1::SeatResponse resp;
    if (out) {
      v1::SitOutRequest req;
      req.set_request_id(rid);
      req.set_table_id("t1");
      return tables_->SitOut(As(player).get(), req, &resp);
    }
    v1::SitInRequest req;
    req.set_request_id(rid);
    req.set_table_id("t1");
    return tables_->SitIn(As(player).get(), req, &resp);
  }
};

// A WatchTable stream collecting the notices it shows, in order, without
// repeats.
class NoticeWatcher {
 public:
  NoticeWatcher(v1::TableService::Stub& stub,
                std::unique_ptr<grpc::ClientContext> ctx)
      : ctx_(std::move(ctx)) {
    v1::WatchTableRequest req;
    req.set_table_id("t1");
    reader_ = stub.WatchTable(ctx_.get(), req);
    thread_ = std::thread([this] {
      v1::TableView v;
      while (reader_->Read(&v)) {
        std::lock_guard<std::mutex> lock(mu_);
        const int kind = v.has_notice() ? v.notice().kind() : 0;
        if (kinds_.empty() || kinds_.back() != kind) kinds_.push_back(kind);
      }
    });
  }
  ~NoticeWatcher() {
    ctx_->TryCancel();
    thread_.join();
  }
  std::vector<int> kinds() {
    std::lock_guard<std::mutex> lock(mu_);
    return kinds_;
  }

 private:
  std::unique_ptr<grpc::ClientContext> ctx_;
  std::unique_ptr<grpc::ClientReader<v1::TableView>> reader_;
  std::thread thread_;
  std::mutex mu_;
  std::vector<int> kinds_;
};

// HE-70b, HE-71 (gap 11): at a full 10-seat table the first button posts
// no blind in hands 1..8; folding every hand, they are invited after the
// 6th, warned after the 7th, and the 8th ends their session: the stack
// goes back to cash. Only they see their notices; the log has them.
TEST_F(TableSessionTest,
       InactivityNoticesReachThePlayerThenEndTheSession_HE70b_HE71) {
  v1::PokerTableConfig c = Paced();
  c.set_seats(10);
  ASSERT_TRUE(Create("t1", c).ok());
  std::vector<std::string> players;
  for (int i = 1; i <= 10; ++i) {
    players.push_back(absl::StrCat("p", i));
    Fund(players.back(), 50'000);
    ASSERT_TRUE(Sit(players.back(), "t1", i, 10'000).ok());
  }
  DealNext();
  const v1::TableView first = View("op", "t1");
  ASSERT_EQ(first.hand_number(), 1);
  const std::string idle = PlayerAt(first, first.button());
  // The seat right of the button posts its big blind in hand 8.
  const std::string late =
      PlayerAt(first, first.button() == 1 ? 10 : first.button() - 1);
  // Gone before the restart below (a server shuts down once its streams
  // end).
  auto watcher = std::make_unique<NoticeWatcher>(*tables_, As(idle));
  for (int hand = 1; hand <= 8; ++hand) {
    if (hand > 1) DealNext();
    ASSERT_EQ(View("op", "t1").hand_number(), hand);
    FoldAround("t1");
    const v1::TableView mine = View(idle, "t1");
    if (hand < 6) {
      EXPECT_FALSE(mine.has_notice()) << hand;
      continue;
    }
    ASSERT_TRUE(mine.has_notice()) << hand;
    EXPECT_EQ(mine.notice().player_id(), idle);
    EXPECT_EQ(mine.notice().reason(), v1::SESSION_NOTICE_REASON_INACTIVE);
    EXPECT_EQ(mine.notice().hand_number(), hand);
    if (hand == 6) {
      EXPECT_EQ(mine.notice().kind(), v1::SESSION_NOTICE_KIND_INVITED);
      EXPECT_THAT(mine.notice().message(), HasSubstr("HE-70b"));
    } else if (hand == 7) {
      EXPECT_EQ(mine.notice().kind(), v1::SESSION_NOTICE_KIND_WARNED);
      EXPECT_THAT(mine.notice().message(), HasSubstr("HE-71"));
    } else {
      EXPECT_EQ(mine.notice().kind(), v1::SESSION_NOTICE_KIND_ENDED);
      EXPECT_EQ(mine.my_seat(), 0);
    }
    // Nobody sees another player's notice.
    for (const std::string& p : players) {
      const v1::TableView theirs = View(p, "t1");
      if (theirs.has_notice()) {
        EXPECT_EQ(theirs.notice().player_id(), p);
      }
    }
  }
  // The player who posted a blind in hand 8 bet: their warning is over.
  const v1::TableView late_view = View(late, "t1");
  EXPECT_FALSE(late_view.has_notice());
  EXPECT_NE(late_view.my_seat(), 0);
  // The stream delivered the three notices, in order.
  const std::vector<int> want = {0, v1::SESSION_NOTICE_KIND_INVITED,
                                 v1::SESSION_NOTICE_KIND_WARNED,
                                 v1::SESSION_NOTICE_KIND_ENDED};
  const absl::Time give_up = absl::Now() + absl::Seconds(10);
  while (watcher->kinds() != want && absl::Now() < give_up) {
    absl::SleepFor(absl::Milliseconds(5));
  }
  EXPECT_EQ(watcher->kinds(), want);
  watcher.reset();
  // The log has them, and the session's end with its reason.
  std::vector<v1::SessionNotice> logged = LoggedNotices(idle);
  ASSERT_EQ(logged.size(), 3u);
  EXPECT_EQ(logged[0].kind(), v1::SESSION_NOTICE_KIND_INVITED);
  EXPECT_EQ(logged[0].hand_number(), 6);
  EXPECT_EQ(logged[1].kind(), v1::SESSION_NOTICE_KIND_WARNED);
  EXPECT_EQ(logged[1].hand_number(), 7);
  EXPECT_EQ(logged[2].kind(), v1::SESSION_NOTICE_KIND_ENDED);
  EXPECT_EQ(logged[2].hand_number(), 8);
  int left = 0;
  for (const v1::TableEvent& e : LoggedTableEvents()) {
    if (e.has_player_left() && e.player_left().player_id() == idle) {
      ++left;
      EXPECT_EQ(e.player_left().reason(), v1::LEAVE_REASON_INACTIVE);
      EXPECT_EQ(e.player_left().stack_minor(), 10'000);
    }
  }
  EXPECT_EQ(left, 1);
  Settle();
  EXPECT_EQ(Cash(idle), 50'000);
  EXPECT_EQ(Seat("t1", idle), 0);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
  // Replay shows the same.
  const v1::TableView before = View(idle, "t1");
  Shutdown();
  Start();
  const v1::TableView after = View(idle, "t1");
  EXPECT_EQ(after.notice().DebugString(), before.notice().DebugString());
  EXPECT_FALSE(View(late, "t1").has_notice());
}

// HE-70a, HE-71: a stack below the minimum bet is not dealt in (HE-15);
// the player is invited after the hand, warned after the next one without
// a rebuy, and the one after ends the session, paying out what is left.
TEST_F(TableSessionTest, ShortStackNoticesThenTheSessionEnds_HE70a_HE71) {
  v1::PokerTableConfig c = Paced();
  c.set_buy_in_min_minor(100);
  ASSERT_TRUE(Create("t1", c).ok());
  Fund("ana", 50'000);
  Fund("rui", 1'000);
  Fund("eva", 50'000);
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("rui", "t1", 2, 120).ok());
  ASSERT_TRUE(Sit("eva", "t1", 3, 10'000).ok());
  DealNext();
  ASSERT_NO_FATAL_FAILURE(RuiPaysTheBigBlindThenFolds());
  v1::TableView rui = View("rui", "t1");
  ASSERT_EQ(PlayerAt(rui, 2), "rui");
  ASSERT_TRUE(rui.has_notice());
  EXPECT_EQ(rui.notice().kind(), v1::SESSION_NOTICE_KIND_INVITED);
  EXPECT_EQ(rui.notice().reason(), v1::SESSION_NOTICE_REASON_SHORT_STACK);
  EXPECT_THAT(rui.notice().message(), HasSubstr("HE-70a"));
  EXPECT_FALSE(View("ana", "t1").has_notice());
  DealNext();
  const v1::TableView second = View("op", "t1");
  for (const v1::SeatState& s : second.seats()) {
    if (s.player_id() == "rui") {
      EXPECT_FALSE(s.in_hand());  // HE-15
    }
  }
  FoldAround("t1");
  rui = View("rui", "t1");
  ASSERT_TRUE(rui.has_notice());
  EXPECT_EQ(rui.notice().kind(), v1::SESSION_NOTICE_KIND_WARNED);
  EXPECT_EQ(rui.notice().hand_number(), 2);
  DealNext();
  FoldAround("t1");
  rui = View("rui", "t1");
  EXPECT_EQ(rui.my_seat(), 0);
  ASSERT_TRUE(rui.has_notice());
  EXPECT_EQ(rui.notice().kind(), v1::SESSION_NOTICE_KIND_ENDED);
  EXPECT_EQ(rui.notice().reason(), v1::SESSION_NOTICE_REASON_SHORT_STACK);
  Settle();
  EXPECT_EQ(Cash("rui"), 1'000 - 100);  // 100 lost in hand 1, 20 paid back
  EXPECT_EQ(Seat("t1", "rui"), 0);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
  ASSERT_EQ(LoggedNotices("rui").size(), 3u);
}

// The table reads the wallet's answers only when the test says so, so a
// rebuy can be left under way (paid for, not yet credited) for a while.
class TableSessionRebuyTest : public TableSessionTest {
 protected:
  void SetUp() override {
    outcome_poll_interval_ = absl::ZeroDuration();
    sit_wait_ = absl::Milliseconds(50);
    TableSessionTest::SetUp();
  }
  // Reads the wallet's answers until `player` sits at `seat`.
  void SitNow(const std::string& player, int seat, int64_t buy_in) {
    (void)Sit(player, "t1", seat, buy_in);  // DEADLINE_EXCEEDED: not read
    for (int i = 0; i < 1000 && View(player, "t1").my_seat() != seat; ++i) {
      ASSERT_TRUE(table_->PollWalletOutcomes().ok());
      absl::SleepFor(absl::Milliseconds(2));
    }
    ASSERT_EQ(View(player, "t1").my_seat(), seat);
  }
};

// HE-70a/71: a player who is topping up is not short. While the rebuy the
// player paid for waits for the wallet's answer, the hands that end do not
// warn or end the session; the rebuy then lands and ends the invitation.
TEST_F(TableSessionRebuyTest, APendingRebuyKeepsTheShortStackSeated_HE71) {
  v1::PokerTableConfig c = Paced();
  c.set_buy_in_min_minor(100);
  ASSERT_TRUE(Create("t1", c).ok());
  Fund("ana", 50'000);
  Fund("rui", 1'000);
  Fund("eva", 50'000);
  SitNow("ana", 1, 10'000);
  SitNow("rui", 2, 120);
  SitNow("eva", 3, 10'000);
  DealNext();
  ASSERT_NO_FATAL_FAILURE(RuiPaysTheBigBlindThenFolds());
  ASSERT_EQ(View("rui", "t1").notice().kind(), v1::SESSION_NOTICE_KIND_INVITED);
  v1::RebuyRequest rebuy;
  rebuy.set_request_id("rebuy-rui");
  rebuy.set_table_id("t1");
  rebuy.set_amount_minor(500);
  v1::SeatResponse answer;
  EXPECT_EQ(tables_->Rebuy(As("rui").get(), rebuy, &answer).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);  // the saga goes on
  for (int hand = 0; hand < 3; ++hand) {
    DealNext();
    FoldAround("t1");
  }
  v1::TableView rui = View("rui", "t1");
  EXPECT_EQ(rui.my_seat(), 2);
  ASSERT_TRUE(rui.has_notice());
  EXPECT_EQ(rui.notice().kind(), v1::SESSION_NOTICE_KIND_INVITED);
  EXPECT_EQ(LoggedNotices("rui").size(), 1u);
  for (int i = 0; i < 1000 && View("rui", "t1").has_notice(); ++i) {
    ASSERT_TRUE(table_->PollWalletOutcomes().ok());
    absl::SleepFor(absl::Milliseconds(2));
  }
  rui = View("rui", "t1");
  EXPECT_FALSE(rui.has_notice());
  for (const v1::SeatState& s : rui.seats()) {
    if (s.player_id() == "rui") {
      EXPECT_EQ(s.stack_minor(), 520);
    }
  }
  Settle();
  EXPECT_EQ(Cash("rui"), 1'000 - 120 - 500);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
}

// HE-44: the table grants 15 s of extra time once the 30 s run out; the
// view says so and its deadline moves; HE-45 acts when the extra time runs
// out too. All on the service's clock, driven by Tick().
TEST_F(TableSessionTest, ExtraTimeThenTheTimeoutOnTheServiceClock_HE44_HE45) {
  v1::PokerTableConfig c = Holdem();
  c.set_extra_time_seconds(15);
  ASSERT_TRUE(Create("t1", c).ok());
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  table_->Tick();  // starts the decision timer
  const int64_t start = clock_.NowMicros();
  v1::TableView v = View("ana", "t1");
  ASSERT_EQ(v.hand_number(), 1);
  EXPECT_EQ(v.action_deadline_micros(), start + 30'000'000);
  EXPECT_FALSE(v.decision_extended());
  const int to_act = v.to_act();
  clock_.Advance(absl::Seconds(30));
  table_->Tick();  // the ordinary time is over: extra time
  v = View("ana", "t1");
  EXPECT_EQ(v.hand_number(), 1);
  EXPECT_EQ(v.to_act(), to_act);
  EXPECT_TRUE(v.decision_extended());
  EXPECT_EQ(v.action_deadline_micros(), clock_.NowMicros() + 15'000'000);
  clock_.Advance(absl::Seconds(14));
  table_->Tick();
  EXPECT_EQ(View("ana", "t1").hand_number(), 1);  // still thinking
  clock_.Advance(absl::Seconds(1));
  table_->Tick();  // HE-45: facing the big blind, folded
  v = View("ana", "t1");
  EXPECT_EQ(v.hand_number(), 2);
  EXPECT_FALSE(v.decision_extended());
  int extended = 0;
  for (const v1::TableEvent& e : LoggedTableEvents()) {
    if (e.has_decision_time_extended()) {
      ++extended;
      EXPECT_EQ(e.decision_time_extended().seconds(), 15);
      EXPECT_EQ(e.decision_time_extended().hand_number(), 1);
    }
  }
  EXPECT_EQ(extended, 1);
  Settle();
  EXPECT_EQ(Seat("t1", "ana") + Seat("t1", "bob"), 20'000);
  // An extension survives a restart: replay does not grant it twice.
  table_->Tick();
  clock_.Advance(absl::Seconds(30));
  table_->Tick();
  ASSERT_TRUE(View("ana", "t1").decision_extended());
  Shutdown();
  Start();
  EXPECT_TRUE(View("ana", "t1").decision_extended());
  table_->Tick();
  clock_.Advance(absl::Seconds(30));
  table_->Tick();  // a fresh timer after the restart, then HE-45 at once
  EXPECT_EQ(View("ana", "t1").hand_number(), 3);
}

// HE-68: a rest keeps the seat up to the table's limit (here 10 minutes,
// counted from the SitOut on the log, across restarts); past it the player
// leaves with the stack and is told why. Sitting in before it ends the
// rest.
TEST_F(TableSessionTest, RestPastTheLimitEndsTheSessionWithTheStack_HE68) {
  v1::PokerTableConfig c = Holdem();
  c.set_sit_out_max_seconds(600);
  ASSERT_TRUE(Create("t1", c).ok());
  for (const char* p : {"ana", "bob", "cid", "dan"}) Fund(p, 50'000);
  ASSERT_TRUE(Sit("cid", "t1", 3, 10'000).ok());
  ASSERT_TRUE(Rest("cid", "out-1").ok());
  const int64_t rest_ends = clock_.NowMicros() + 600'000'000;
  ASSERT_TRUE(Sit("dan", "t1", 4, 10'000).ok());
  ASSERT_TRUE(Rest("dan", "out-1").ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  EXPECT_EQ(View("cid", "t1").rest_ends_micros(), rest_ends);
  EXPECT_EQ(View("ana", "t1").rest_ends_micros(), 0);
  clock_.Advance(absl::Seconds(300));
  ASSERT_TRUE(Rest("dan", "in-1", false).ok());
  EXPECT_EQ(View("dan", "t1").rest_ends_micros(), 0);
  // A second SitOut does not restart the rest; a restart keeps its start.
  ASSERT_TRUE(Rest("cid", "out-2").ok());
  Shutdown();
  Start();
  EXPECT_EQ(View("cid", "t1").rest_ends_micros(), rest_ends);
  clock_.Advance(absl::Seconds(299));
  table_->Tick();
  EXPECT_EQ(View("cid", "t1").my_seat(), 3);
  clock_.Advance(absl::Seconds(1));
  table_->Tick();
  const v1::TableView cid = View("cid", "t1");
  EXPECT_EQ(cid.my_seat(), 0);
  ASSERT_TRUE(cid.has_notice());
  EXPECT_EQ(cid.notice().kind(), v1::SESSION_NOTICE_KIND_ENDED);
  EXPECT_EQ(cid.notice().reason(), v1::SESSION_NOTICE_REASON_REST_OVER);
  EXPECT_THAT(cid.notice().message(), HasSubstr("HE-68"));
  EXPECT_EQ(View("dan", "t1").my_seat(), 4);  // sat in: still seated
  Settle();
  EXPECT_EQ(Cash("cid"), 50'000);
  EXPECT_EQ(Seat("t1", "cid"), 0);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
  int left = 0;
  for (const v1::TableEvent& e : LoggedTableEvents()) {
    if (e.has_player_left() && e.player_left().player_id() == "cid") {
      ++left;
      EXPECT_EQ(e.player_left().reason(), v1::LEAVE_REASON_REST_OVER);
    }
  }
  EXPECT_EQ(left, 1);
  // More ticks change nothing; the session summary is there (HE-67).
  const int64_t events = TableEvents();
  table_->Tick();
  EXPECT_EQ(TableEvents(), events);
  v1::GetSessionSummaryRequest sr;
  sr.set_table_id("t1");
  v1::SessionSummary summary;
  ASSERT_TRUE(tables_->GetSessionSummary(As("cid").get(), sr, &summary).ok());
  EXPECT_EQ(summary.bought_in_minor(), 10'000);
  // Sitting again clears the notice.
  ASSERT_TRUE(Sit("cid", "t1", 3, 10'000, nullptr, "sit-cid-2").ok());
  EXPECT_FALSE(View("cid", "t1").has_notice());
}

TEST_F(TableSessionTest, SessionSettingsOutOfRangeAreRejected_HE44_HE68) {
  const int64_t before = TableEvents();
  struct Bad {
    int32_t extra;
    int32_t rest;
    const char* field;
  };
  for (const Bad& bad :
       {Bad{601, 0, "extra_time_seconds"}, Bad{-1, 0, "extra_time_seconds"},
        Bad{0, 86'401, "sit_out_max_seconds"},
        Bad{0, -5, "sit_out_max_seconds"}}) {
    v1::PokerTableConfig c = Holdem();
    c.set_extra_time_seconds(bad.extra);
    c.set_sit_out_max_seconds(bad.rest);
    grpc::Status s = Create(absl::StrCat("t", bad.extra, bad.rest), c);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(s.error_message(), HasSubstr(bad.field));
  }
  EXPECT_EQ(TableEvents(), before);
  // The defaults are off.
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  v1::ListTablesResponse list;
  grpc::ClientContext ctx;
  ctx.AddMetadata("authorization", "Bearer " + Token("ana"));
  ASSERT_TRUE(tables_->ListTables(&ctx, {}, &list).ok());
  ASSERT_EQ(list.tables_size(), 1);
  EXPECT_EQ(list.tables(0).config().extra_time_seconds(), 0);
  EXPECT_EQ(list.tables(0).config().sit_out_max_seconds(), 0);
}

}  // namespace
}  // namespace banca::testing
