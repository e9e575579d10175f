// The table service end to end: gRPC on loopback, the wallet in the same
// process, an embedded log on disk, RocksDB projections. Buy-ins go through
// the saga on the log; hands settle in the ledger; tokens decide who may do
// what.
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "banca/v1/table.grpc.pb.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "libs/auth/token.h"
#include "libs/common/clock.h"
#include "libs/ledger/account.h"
#include "services/table/poker_settlement.h"
#include "services/table/table_codec.h"
#include "services/table/table_service.h"
#include "services/wallet/wallet_service.h"
#include "tests/integration/wallet_test_util.h"
#include "tools/banca/log_backend.h"

namespace banca::testing {
namespace {

auth::Key TestKey() {
  auth::Key k;
  k.fill(42);
  return k;
}

class TableServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir(
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    Start();
  }
  void TearDown() override { Shutdown(); }

  void Start() {
    auto log = cli::OpenLogBackend("embedded", dir_);
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = std::move(*log);
    wallet::WalletOptions wo;
    wo.projection_dir = dir_ + "/projections/wallet";
    std::filesystem::create_directories(wo.projection_dir);
    wo.expiry_interval = absl::ZeroDuration();
    wo.table_requests_interval = absl::Milliseconds(1);
    auto w = wallet::WalletService::Start(*log_, clock_, wo);
    ASSERT_TRUE(w.ok()) << w.status();
    wallet_ = std::move(*w);
    table::TableServiceOptions to;
    to.token_key = TestKey();
    to.tick_interval = absl::ZeroDuration();  // the test drives the timers
    to.poll_interval = absl::Milliseconds(1);
    to.sit_wait = absl::Seconds(10);
    auto t = table::TableService::Start(*log_, clock_, to);
    ASSERT_TRUE(t.ok()) << t.status();
    table_ = std::move(*t);
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.RegisterService(wallet_.get());
    builder.RegisterService(table_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    auto channel = grpc::CreateChannel(absl::StrCat("127.0.0.1:", port),
                                       grpc::InsecureChannelCredentials());
    tables_ = v1::TableService::NewStub(channel);
    wallet_stub_ = v1::WalletService::NewStub(channel);
  }
  void Shutdown() {
    if (server_) server_->Shutdown();
    if (table_) table_->Stop();
    if (wallet_) (void)wallet_->Stop();
    server_.reset();
    table_.reset();
    wallet_.reset();
    log_.reset();
  }

  std::string Token(const std::string& subject,
                    auth::Role role = auth::Role::kPlayer) {
    return *auth::IssueToken(
        TestKey(), {subject, role, clock_.NowMicros() / 1'000'000 + 3600});
  }
  std::unique_ptr<grpc::ClientContext> As(
      const std::string& subject, auth::Role role = auth::Role::kPlayer) {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->AddMetadata("authorization", "Bearer " + Token(subject, role));
    return ctx;
  }

  void Fund(const std::string& player, int64_t cash) {
    v1::OpenAccountRequest open;
    open.set_request_id("open-" + player);
    open.set_player_id(player);
    v1::AccountResponse account;
    grpc::ClientContext c1;
    ASSERT_TRUE(wallet_stub_->OpenAccount(&c1, open, &account).ok());
    if (cash == 0) return;
    v1::DepositRequest dep;
    dep.set_request_id("dep-" + player);
    dep.set_player_id(player);
    dep.set_amount_minor(cash);
    dep.set_payment_ref("psp-" + player);
    v1::TransactionResponse tx;
    grpc::ClientContext c2;
    ASSERT_TRUE(wallet_stub_->Deposit(&c2, dep, &tx).ok());
  }

  grpc::Status Create(const std::string& id, v1::PokerTableConfig config) {
    v1::CreateTableRequest req;
    req.set_request_id("create-" + id);
    req.set_table_id(id);
    req.set_name("Table " + id);
    *req.mutable_config() = config;
    v1::TableInfo info;
    return tables_->CreateTable(As("op", auth::Role::kOperator).get(), req,
                                &info);
  }
  static v1::PokerTableConfig Holdem() {
    v1::PokerTableConfig c;
    c.set_variant(v1::POKER_VARIANT_HOLDEM);
    c.set_small_blind_minor(50);
    c.set_big_blind_minor(100);
    c.set_buy_in_min_minor(5'000);
    c.set_buy_in_max_minor(20'000);
    return c;
  }
  grpc::Status Sit(const std::string& player, const std::string& table,
                   int seat, int64_t buy_in, v1::SeatResponse* out = nullptr,
                   const std::string& rid = "") {
    v1::SitRequest req;
    req.set_request_id(rid.empty() ? "sit-" + player : rid);
    req.set_table_id(table);
    req.set_seat(seat);
    req.set_buy_in_minor(buy_in);
    v1::SeatResponse resp;
    return tables_->Sit(As(player).get(), req, out ? out : &resp);
  }
  v1::TableView View(const std::string& player, const std::string& table) {
    v1::WatchTableRequest req;
    req.set_table_id(table);
    v1::TableView view;
    EXPECT_TRUE(tables_->GetTableView(As(player).get(), req, &view).ok());
    return view;
  }
  grpc::Status Act(const std::string& player, const std::string& table,
                   v1::PokerActionType action, int64_t amount = 0,
                   v1::TableView* out = nullptr) {
    v1::TableView before = View(player, table);
    v1::ActRequest req;
    req.set_request_id(absl::StrCat("act-", player, "-", before.hand_number(),
                                    "-", before.version()));
    req.set_table_id(table);
    req.set_hand_number(before.hand_number());
    req.set_action(action);
    req.set_amount_minor(amount);
    v1::TableView resp;
    return tables_->Act(As(player).get(), req, out ? out : &resp);
  }
  int64_t Cash(const std::string& player) {
    return wallet_->ledger().AccountBalance(ledger::PlayerCashAccount(player));
  }
  int64_t Seat(const std::string& table, const std::string& player) {
    return wallet_->ledger().AccountBalance(table::SeatAccount(table, player));
  }
  // Waits until the wallet has carried out everything the tables logged.
  void Settle() {
    for (int i = 0; i < 2000; ++i) {
      bool idle = true;
      const int partitions =
          log_->PartitionCount(table::kTableTopic).value_or(0);
      for (int p = 0; p < partitions; ++p) {
        const int64_t end = log_->EndOffset(table::kTableTopic, p).value_or(0);
        const int64_t done = log_->CommittedOffset("wallet.table-requests",
                                                   table::kTableTopic, p)
                                 .value_or(0);
        idle &= done == end;
      }
      if (idle) return;
      absl::SleepFor(absl::Milliseconds(2));
    }
    FAIL() << "the wallet did not catch up with the table requests";
  }
  int64_t TableEvents() {
    int64_t n = 0;
    const int partitions = log_->PartitionCount(table::kTableTopic).value_or(0);
    for (int p = 0; p < partitions; ++p) {
      n += log_->EndOffset(table::kTableTopic, p).value_or(0);
    }
    return n;
  }

  std::string dir_;
  ManualClock clock_{1'767'225'600'000'000};
  std::unique_ptr<eventlog::EventLog> log_;
  std::unique_ptr<wallet::WalletService> wallet_;
  std::unique_ptr<table::TableService> table_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::TableService::Stub> tables_;
  std::unique_ptr<v1::WalletService::Stub> wallet_stub_;
};

TEST_F(TableServiceTest, BuyInIsAHoldCapturedIntoTheSeatThroughTheLog_HE8) {
  Fund("ana", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  v1::SeatResponse seat;
  grpc::Status s = Sit("ana", "t1", 3, 10'000, &seat);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(seat.seat(), 3);
  EXPECT_EQ(seat.stack_minor(), 10'000);
  Settle();
  EXPECT_EQ(Cash("ana"), 40'000);
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
  EXPECT_EQ(wallet_->ledger().Summarize().open_holds, 0);
}

TEST_F(TableServiceTest, BuyInBeyondTheCashIsRefusedAndSeatsNobody) {
  Fund("bea", 3'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  grpc::Status s = Sit("bea", "t1", 1, 5'000);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("buy-in refused"), std::string::npos)
      << s.error_message();
  EXPECT_EQ(View("bea", "t1").my_seat(), 0);
  Settle();
  EXPECT_EQ(Cash("bea"), 3'000);
  // A corrected retry with a new id works once the cash is there.
  v1::DepositRequest dep;
  dep.set_request_id("dep2-bea");
  dep.set_player_id("bea");
  dep.set_amount_minor(5'000);
  dep.set_payment_ref("psp2");
  v1::TransactionResponse tx;
  grpc::ClientContext c;
  ASSERT_TRUE(wallet_stub_->Deposit(&c, dep, &tx).ok());
  EXPECT_TRUE(Sit("bea", "t1", 1, 5'000, nullptr, "sit-bea-2").ok());
}

TEST_F(TableServiceTest, BadInputIsRejectedPreciselyAndAppendsNothing) {
  Fund("ana", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  const int64_t before = TableEvents();
  // Outside the buy-in range (HE-8), a seat that does not exist, no table.
  EXPECT_EQ(Sit("ana", "t1", 1, 100).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Sit("ana", "t1", 11, 10'000, nullptr, "r2").error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Sit("ana", "nope", 1, 10'000, nullptr, "r3").error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Sit("ana", "Bad Id", 1, 10'000, nullptr, "r4").error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // A player may not create tables; a bad config names the field.
  {
    v1::CreateTableRequest req;
    req.set_request_id("c2");
    req.set_table_id("t2");
    *req.mutable_config() = Holdem();
    v1::TableInfo info;
    EXPECT_EQ(tables_->CreateTable(As("ana").get(), req, &info).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
    v1::PokerTableConfig bad = Holdem();
    bad.set_seats(11);
    grpc::Status s = Create("t3", bad);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(s.error_message().find("seat"), std::string::npos);
  }
  // No token, a forged token.
  {
    v1::SitRequest req;
    req.set_request_id("r5");
    req.set_table_id("t1");
    req.set_seat(1);
    req.set_buy_in_minor(10'000);
    v1::SeatResponse resp;
    grpc::ClientContext none;
    EXPECT_EQ(tables_->Sit(&none, req, &resp).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
    grpc::ClientContext forged;
    std::string token = Token("ana");
    token.back() = token.back() == '0' ? '1' : '0';
    forged.AddMetadata("authorization", "Bearer " + token);
    EXPECT_EQ(tables_->Sit(&forged, req, &resp).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  // Acting with no hand in progress.
  EXPECT_EQ(Act("ana", "t1", v1::POKER_ACTION_TYPE_CHECK).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(TableEvents(), before);
}

TEST_F(TableServiceTest, HandSettlesInTheLedgerAndViewsHideOtherCards_HE2d) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  // Two players: the hand is dealt at once.
  v1::TableView ana = View("ana", "t1");
  v1::TableView bob = View("bob", "t1");
  ASSERT_TRUE(ana.in_hand());
  EXPECT_EQ(ana.hand_number(), 1);
  for (const v1::SeatState& s : ana.seats()) {
    EXPECT_EQ(s.cards_size(), s.player_id() == "ana" ? 2 : 0) << s.player_id();
  }
  for (const v1::SeatState& s : bob.seats()) {
    EXPECT_EQ(s.cards_size(), s.player_id() == "bob" ? 2 : 0) << s.player_id();
  }
  // Whoever is to act folds: the other wins the blinds (HE-36).
  const std::string first =
      ana.to_act() == ana.my_seat() ? std::string("ana") : std::string("bob");
  // Only the player to act may act; another's turn is refused.
  const std::string second = first == "ana" ? "bob" : "ana";
  EXPECT_EQ(Act(second, "t1", v1::POKER_ACTION_TYPE_FOLD).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  ASSERT_TRUE(Act(first, "t1", v1::POKER_ACTION_TYPE_FOLD).ok());
  Settle();
  EXPECT_EQ(Seat("t1", "ana") + Seat("t1", "bob"), 20'000);
  EXPECT_NE(Seat("t1", "ana"), 10'000);
  EXPECT_EQ(wallet_->ledger().AccountBalance(table::PotAccount("t1")), 0);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
  // HE-65: the last hand, from the caller's side.
  v1::GetLastHandRequest lr;
  lr.set_table_id("t1");
  v1::LastHandResponse last;
  ASSERT_TRUE(tables_->GetLastHand(As(first).get(), lr, &last).ok());
  EXPECT_EQ(last.hand_number(), 1);
  EXPECT_TRUE(last.folded());
}

TEST_F(TableServiceTest, LeaveMidHandFoldsThenPaysTheStackBack_HE10_HE67) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  ASSERT_TRUE(View("ana", "t1").in_hand());
  v1::LeaveRequest req;
  req.set_request_id("leave-ana");
  req.set_table_id("t1");
  v1::LeaveResponse resp;
  ASSERT_TRUE(tables_->Leave(As("ana").get(), req, &resp).ok());
  // Folded at her turn (at once if it was hers), gone after the hand.
  if (!resp.left()) {
    ASSERT_TRUE(Act("bob", "t1", v1::POKER_ACTION_TYPE_CALL).ok() ||
                Act("bob", "t1", v1::POKER_ACTION_TYPE_CHECK).ok());
  }
  Settle();
  EXPECT_EQ(View("ana", "t1").my_seat(), 0);
  EXPECT_EQ(Seat("t1", "ana"), 0);
  EXPECT_EQ(Cash("ana") + Cash("bob") + Seat("t1", "bob"), 100'000);
  v1::GetSessionSummaryRequest sr;
  sr.set_table_id("t1");
  v1::SessionSummary summary;
  ASSERT_TRUE(tables_->GetSessionSummary(As("ana").get(), sr, &summary).ok());
  EXPECT_EQ(summary.bought_in_minor(), 10'000);
  EXPECT_EQ(summary.net_minor(), Cash("ana") - 50'000);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
}

TEST_F(TableServiceTest, TimeoutChecksElseFolds_HE45) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  v1::TableView v = View("ana", "t1");
  ASSERT_TRUE(v.in_hand());
  table_->Tick();  // starts the decision timer
  clock_.Advance(absl::Seconds(29));
  table_->Tick();
  EXPECT_EQ(View("ana", "t1").hand_number(), 1);  // 29 s: still thinking
  clock_.Advance(absl::Seconds(2));
  table_->Tick();  // 31 s: the player to act facing the big blind folds
  EXPECT_EQ(View("ana", "t1").hand_number(), 2);
  Settle();
  EXPECT_EQ(Seat("t1", "ana") + Seat("t1", "bob"), 20'000);
}

TEST_F(TableServiceTest, OperatorVoidsAHandAndEveryBetGoesBack_HE72) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  v1::VoidHandRequest req;
  req.set_request_id("void-1");
  req.set_table_id("t1");
  req.set_reason("dealer server fault");
  v1::TableInfo info;
  EXPECT_EQ(tables_->VoidHand(As("ana").get(), req, &info).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(
      tables_->VoidHand(As("op", auth::Role::kOperator).get(), req, &info)
          .ok());
  Settle();
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
  EXPECT_EQ(Seat("t1", "bob"), 10'000);
}

TEST_F(TableServiceTest, RestartReplaysTablesAndRetriesStayIdempotent) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  const v1::TableView before = View("ana", "t1");
  Settle();
  Shutdown();
  Start();
  const v1::TableView after = View("ana", "t1");
  EXPECT_EQ(after.hand_number(), before.hand_number());
  EXPECT_EQ(after.to_act(), before.to_act());
  ASSERT_EQ(after.seats_size(), before.seats_size());
  for (int i = 0; i < after.seats_size(); ++i) {
    EXPECT_EQ(after.seats(i).DebugString(), before.seats(i).DebugString());
  }
  const int64_t events = TableEvents();
  EXPECT_TRUE(Sit("ana", "t1", 1, 10'000).ok());  // the same request again
  EXPECT_EQ(TableEvents(), events);
  Settle();
  EXPECT_EQ(Cash("ana"), 40'000);
}

// A rebuy asked during a hand waits for its end (HE-11b); if the player
// wins meanwhile and the stack plus the rebuy would pass the table maximum
// (HE-12), the rebuy is paid back to cash instead of breaking the table.
TEST_F(TableServiceTest, RebuyThatNoLongerFitsAfterTheHandIsPaidBack_HE12) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  ASSERT_TRUE(View("ana", "t1").in_hand());
  v1::RebuyRequest req;
  req.set_request_id("rebuy-ana");
  req.set_table_id("t1");
  req.set_amount_minor(10'000);  // 10,000 + 10,000 = the maximum
  v1::SeatResponse seat;
  ASSERT_TRUE(tables_->Rebuy(As("ana").get(), req, &seat).ok());
  EXPECT_EQ(seat.pending_rebuy_minor(), 10'000);
  // Bob folds at his turn, Ana checks or calls: she wins his blind.
  while (View("ana", "t1").hand_number() == 1) {
    const v1::TableView v = View("ana", "t1");
    if (v.to_act() == v.my_seat()) {
      ASSERT_TRUE(Act("ana", "t1", v1::POKER_ACTION_TYPE_CALL).ok() ||
                  Act("ana", "t1", v1::POKER_ACTION_TYPE_CHECK).ok());
    } else {
      grpc::Status s = Act("bob", "t1", v1::POKER_ACTION_TYPE_FOLD);
      ASSERT_TRUE(s.ok()) << s.error_message();
    }
  }
  Settle();
  const int64_t stack = Seat("t1", "ana");
  EXPECT_GT(stack, 10'000);
  EXPECT_LE(stack, 20'000);
  EXPECT_EQ(Cash("ana"), 40'000);  // the rebuy came back
  EXPECT_EQ(Seat("t1", "ana") + Seat("t1", "bob"), 20'000);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
  EXPECT_EQ(wallet_->ledger().Summarize().open_holds, 0);
  // The table replays to the same state.
  const v1::TableView before = View("ana", "t1");
  Shutdown();
  Start();
  const v1::TableView after = View("ana", "t1");
  EXPECT_EQ(after.hand_number(), before.hand_number());
  ASSERT_EQ(after.seats_size(), before.seats_size());
  for (int i = 0; i < after.seats_size(); ++i) {
    EXPECT_EQ(after.seats(i).DebugString(), before.seats(i).DebugString());
  }
}

}  // namespace
}  // namespace banca::testing
