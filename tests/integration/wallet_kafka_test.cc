// The wallet end to end on a real Apache Kafka broker: commands are durable
// in Kafka, the projection follows the topic, and a restarted wallet
// replays its state (and its idempotency) from Kafka. Runs when
// BANCA_KAFKA_BOOTSTRAP names a broker (tools/run-tests starts one).
#include <cstdlib>
#include <random>

#include "services/audit/audit.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

class WalletOnKafkaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* bootstrap = std::getenv("BANCA_KAFKA_BOOTSTRAP");
    if (bootstrap == nullptr || *bootstrap == '\0') {
      GTEST_SKIP() << "BANCA_KAFKA_BOOTSTRAP is not set: start a broker with "
                      "tools/kafka-local start (tools/run-tests does)";
    }
    spec_ = absl::StrCat("kafka://", bootstrap);
    dir_ = FreshDir("wallet_kafka");
    // Player ids unique per run: the broker may keep topics between runs.
    player_ = absl::StrCat("k", std::random_device{}());
    Start();
  }
  void Start() {
    wallet::WalletOptions options;
    options.verifier = TestVerifier();
    auto server = wallet::LocalWalletServer::Start(dir_, options, spec_);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    stub_ = v1::WalletService::NewStub(edge::AuthorizedChannel(
        server_->target(), *edge::BackOfficeTokens(TestSigningKey(), "test")));
  }
  grpc::Status Deposit(int64_t amount, const std::string& rid,
                       v1::TransactionResponse* out) {
    v1::DepositRequest req;
    req.set_request_id(absl::StrCat(player_, "-", rid));
    req.set_player_id(player_);
    req.set_amount_minor(amount);
    req.set_payment_ref(absl::StrCat("psp-", rid));
    grpc::ClientContext ctx;
    return stub_->Deposit(&ctx, req, out);
  }
  int64_t Balance() {
    v1::GetBalanceRequest req;
    req.set_player_id(player_);
    v1::BalanceResponse resp;
    grpc::ClientContext ctx;
    EXPECT_TRUE(stub_->GetBalance(&ctx, req, &resp).ok());
    return resp.available_minor();
  }

  std::string spec_, dir_, player_;
  std::unique_ptr<wallet::LocalWalletServer> server_;
  std::unique_ptr<v1::WalletService::Stub> stub_;
};

TEST_F(WalletOnKafkaTest, CommandsSurviveARestartAndRetriesStayIdempotent) {
  v1::OpenAccountRequest open;
  open.set_request_id(absl::StrCat(player_, "-open"));
  open.set_player_id(player_);
  v1::AccountResponse account;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->OpenAccount(&ctx, open, &account).ok());
  v1::TransactionResponse first, again;
  ASSERT_TRUE(Deposit(1'000, "d1", &first).ok());
  ASSERT_TRUE(Deposit(2'000, "d2", &again).ok());
  ASSERT_TRUE(Deposit(3'000, "d3", &again).ok());
  EXPECT_EQ(Balance(), 6'000);

  // Restart: a fresh process would replay the topic from Kafka.
  stub_.reset();
  ASSERT_TRUE(server_->Stop().ok());
  server_.reset();
  Start();
  EXPECT_EQ(Balance(), 6'000);
  v1::TransactionResponse retried;
  ASSERT_TRUE(Deposit(1'000, "d1", &retried).ok());
  EXPECT_EQ(retried.tx().tx_id(), first.tx().tx_id());
  EXPECT_EQ(Balance(), 6'000);

  // The projection, fed from Kafka, has the three deposits once each.
  v1::ListTransactionsRequest list;
  list.set_player_id(player_);
  v1::ListTransactionsResponse statement;
  grpc::ClientContext ctx2;
  ASSERT_TRUE(stub_->ListTransactions(&ctx2, list, &statement).ok());
  int64_t sum = 0;
  for (const auto& e : statement.entries()) sum += e.amount_minor();
  EXPECT_EQ(statement.entries_size(), 3);
  EXPECT_EQ(sum, 6'000);

  // The auditor reads the Kafka topic: sequences, ledger replay, and a
  // rebuild of the projection equal to the live one.
  stub_.reset();
  ASSERT_TRUE(server_->Stop().ok());
  server_.reset();
  auto report = audit::VerifyDataDir(dir_, spec_);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << audit::FormatAuditReport(*report);
  EXPECT_EQ(report->ledger.sum, 0);
  EXPECT_EQ(report->live_hash, report->rebuilt_hash);
  // Open and three deposits (the retry appended nothing); more if the
  // broker kept topics from earlier runs.
  EXPECT_GE(report->events, 4);
}

}  // namespace
}  // namespace banca::testing
