// The wallet end to end over gRPC on loopback, on a durable embedded log and
// a RocksDB projection on disk.
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

using grpc::StatusCode;

class WalletGrpcTest : public WalletFixture {};

TEST_F(WalletGrpcTest, DepositWithdrawAndBalance) {
  ASSERT_TRUE(Open("ana").ok());
  v1::TransactionResponse dep;
  ASSERT_TRUE(Deposit("ana", 10'000, "d1", &dep).ok());
  EXPECT_EQ(dep.balance_minor(), 10'000);
  EXPECT_EQ(dep.tx().reason(), v1::POSTING_REASON_DEPOSIT);
  EXPECT_EQ(dep.tx().reference().id(), "psp-d1");

  v1::WithdrawRequest w;
  w.set_request_id("w1");
  w.set_player_id("ana");
  w.set_amount_minor(2'500);
  w.set_payment_ref("psp-w1");
  v1::TransactionResponse wr;
  grpc::ClientContext c1;
  ASSERT_TRUE(stub_->Withdraw(&c1, w, &wr).ok());
  EXPECT_EQ(wr.balance_minor(), 7'500);

  v1::GetBalanceRequest b;
  b.set_player_id("ana");
  v1::BalanceResponse br;
  grpc::ClientContext c2;
  ASSERT_TRUE(stub_->GetBalance(&c2, b, &br).ok());
  EXPECT_EQ(br.available_minor(), 7'500);
  EXPECT_EQ(br.currency(), "EUR");
}

TEST_F(WalletGrpcTest, RetryReturnsTheFirstResultAndAppendsNothing) {
  ASSERT_TRUE(Open("ana").ok());
  v1::TransactionResponse first, again;
  ASSERT_TRUE(Deposit("ana", 500, "dup", &first).ok());
  const int64_t events = Events();
  ASSERT_TRUE(Deposit("ana", 500, "dup", &again).ok());
  EXPECT_EQ(Events(), events);
  EXPECT_EQ(first.SerializeAsString(), again.SerializeAsString());
  // Same id, other body.
  EXPECT_EQ(Deposit("ana", 501, "dup").error_code(),
            StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(Events(), events);
}

TEST_F(WalletGrpcTest, RetryAfterRestartStillReturnsTheFirstResult) {
  ASSERT_TRUE(Open("ana").ok());
  v1::TransactionResponse first, again;
  ASSERT_TRUE(Deposit("ana", 700, "before-restart", &first).ok());
  RestartServer();
  const int64_t events = Events();
  ASSERT_TRUE(Deposit("ana", 700, "before-restart", &again).ok());
  EXPECT_EQ(first.SerializeAsString(), again.SerializeAsString());
  EXPECT_EQ(Events(), events);
  v1::GetBalanceRequest b;
  b.set_player_id("ana");
  v1::BalanceResponse br;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->GetBalance(&ctx, b, &br).ok());
  EXPECT_EQ(br.available_minor(), 700);
}

TEST_F(WalletGrpcTest, HoldLifecycleAndTransfer) {
  ASSERT_TRUE(Open("ana").ok());
  ASSERT_TRUE(Deposit("ana", 10'000, "d").ok());
  v1::PlaceHoldRequest ph;
  ph.set_request_id("h1");
  ph.set_player_id("ana");
  ph.set_amount_minor(4'000);
  ph.set_reason(v1::POSTING_REASON_BUY_IN);
  ph.mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
  ph.mutable_reference()->set_id("t1");
  v1::HoldResponse hold;
  grpc::ClientContext c1;
  ASSERT_TRUE(stub_->PlaceHold(&c1, ph, &hold).ok());
  EXPECT_EQ(hold.state(), v1::HOLD_STATE_OPEN);

  v1::CaptureHoldRequest cap;
  cap.set_request_id("c1");
  cap.set_hold_id(hold.hold_id());
  cap.set_amount_minor(3'000);
  cap.set_to_account("table/t1/seat/ana");
  cap.set_reason(v1::POSTING_REASON_BUY_IN);
  *cap.mutable_reference() = ph.reference();
  cap.set_final(true);
  v1::HoldResponse captured;
  grpc::ClientContext c2;
  ASSERT_TRUE(stub_->CaptureHold(&c2, cap, &captured).ok());
  EXPECT_EQ(captured.state(), v1::HOLD_STATE_CLOSED);
  EXPECT_EQ(captured.captured_minor(), 3'000);

  // The table pays rake to the house and the rest back to the player.
  v1::TransferRequest t;
  t.set_request_id("rake1");
  t.set_from_account("table/t1/seat/ana");
  t.set_to_account("house/rake");
  t.set_amount_minor(150);
  t.set_reason(v1::POSTING_REASON_RAKE);
  t.mutable_reference()->set_kind(v1::REFERENCE_KIND_HAND);
  t.mutable_reference()->set_id("hand-1");
  v1::TransactionResponse tr;
  grpc::ClientContext c3;
  ASSERT_TRUE(stub_->Transfer(&c3, t, &tr).ok());

  v1::GetLedgerSummaryRequest sreq;
  v1::LedgerSummaryResponse summary;
  grpc::ClientContext c4;
  ASSERT_TRUE(stub_->GetLedgerSummary(&c4, sreq, &summary).ok());
  EXPECT_EQ(summary.ledger_sum_minor(), 0);
  EXPECT_EQ(summary.deposits_minor(), 10'000);
  int64_t house = 0, table = 0, player = 0;
  for (const auto& c : summary.classes()) {
    if (c.account_class() == "house") house = c.balance_minor();
    if (c.account_class() == "table") table = c.balance_minor();
    if (c.account_class() == "player") player = c.balance_minor();
  }
  EXPECT_EQ(house, 150);
  EXPECT_EQ(table, 2'850);
  EXPECT_EQ(player, 7'000);
}

TEST_F(WalletGrpcTest, StatementPagesThroughEveryPostingInOrder) {
  ASSERT_TRUE(Open("ana").ok());
  for (int i = 1; i <= 7; ++i) {
    ASSERT_TRUE(Deposit("ana", i * 100, absl::StrCat("d", i)).ok());
  }
  std::vector<int64_t> amounts;
  std::string token;
  int pages = 0;
  do {
    v1::ListTransactionsRequest req;
    req.set_player_id("ana");
    req.set_page_size(3);
    req.set_page_token(token);
    v1::ListTransactionsResponse resp;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub_->ListTransactions(&ctx, req, &resp).ok());
    for (const auto& e : resp.entries()) amounts.push_back(e.amount_minor());
    token = resp.next_page_token();
    ++pages;
  } while (!token.empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(amounts, (std::vector<int64_t>{100, 200, 300, 400, 500, 600, 700}));
}

TEST_F(WalletGrpcTest, ExpiredHoldIsReleasedBySweeper) {
  // Restart with a 1-second ttl hold and a fast sweeper.
  ASSERT_TRUE(server_->Stop().ok());
  server_.reset();
  wallet::WalletOptions options;
  options.expiry_interval = absl::Milliseconds(50);
  options.verifier = TestVerifier();
  auto server = wallet::LocalWalletServer::Start(dir_, options);
  ASSERT_TRUE(server.ok());
  server_ = *std::move(server);
  stub_ = v1::WalletService::NewStub(edge::AuthorizedChannel(
      server_->target(), *edge::BackOfficeTokens(TestSigningKey(), "test")));
  ASSERT_TRUE(Open("ana").ok());
  ASSERT_TRUE(Deposit("ana", 1'000, "d").ok());
  v1::PlaceHoldRequest ph;
  ph.set_request_id("h1");
  ph.set_player_id("ana");
  ph.set_amount_minor(600);
  ph.set_reason(v1::POSTING_REASON_BET);
  ph.mutable_reference()->set_kind(v1::REFERENCE_KIND_ROUND);
  ph.mutable_reference()->set_id("r1");
  ph.set_ttl_seconds(1);
  v1::HoldResponse hold;
  grpc::ClientContext c1;
  ASSERT_TRUE(stub_->PlaceHold(&c1, ph, &hold).ok());
  int64_t available = 0;
  for (int i = 0; i < 100 && available != 1'000; ++i) {
    absl::SleepFor(absl::Milliseconds(50));
    v1::GetBalanceRequest b;
    b.set_player_id("ana");
    v1::BalanceResponse br;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub_->GetBalance(&ctx, b, &br).ok());
    available = br.available_minor();
  }
  EXPECT_EQ(available, 1'000);
}

}  // namespace
}  // namespace banca::testing
