// Issue 17's attacks, as an attacker runs them: over gRPC against a real
// `banca serve --services=wallet,table,tournament` child, each asserting the
// refusal, the server alive, the ledger unchanged by what was refused, and at
// the end a restart and a clean audit (docs/security.md).
#include <signal.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "banca/v1/table.grpc.pb.h"
#include "banca/v1/tournament.grpc.pb.h"
#include "google/protobuf/unknown_field_set.h"
#include "services/audit/audit.h"
#include "testing/grpc_health_client.grpc.pb.h"
#include "tests/integration/serve_child.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

using auth::Role;
using grpc::StatusCode;

constexpr int64_t kBig = 1'000'000'000'000'000;  // 10^15, the largest amount

class AttackTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir("attack");
    Start();
  }
  void TearDown() override {
    if (child_.pid > 0) StopServeChild(child_, SIGTERM);
  }
  void Start() {
    child_ = StartServeChild(dir_, {"--services=wallet,table,tournament"});
    ASSERT_GT(child_.port, 0);
    const std::string target = absl::StrCat("127.0.0.1:", child_.port);
    back_office_ = ConnectWallet(child_.port);
    raw_channel_ =
        grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
    wallet_ = v1::WalletService::NewStub(raw_channel_);
    tables_ = v1::TableService::NewStub(raw_channel_);
    tournaments_ = v1::TournamentService::NewStub(raw_channel_);
  }
  void Restart() {
    StopServeChild(child_, SIGTERM);
    Start();
  }

  static std::unique_ptr<grpc::ClientContext> As(Role role,
                                                 const std::string& name) {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->AddMetadata("authorization", "Bearer " + TestToken(role, name));
    return ctx;
  }
  static v1::TransferRequest Move(const std::string& rid,
                                  const std::string& from,
                                  const std::string& to, int64_t amount,
                                  v1::PostingReason reason) {
    v1::TransferRequest t;
    t.set_request_id(rid);
    t.set_from_account(from);
    t.set_to_account(to);
    t.set_amount_minor(amount);
    t.set_reason(reason);
    t.mutable_reference()->set_kind(v1::REFERENCE_KIND_OPERATOR);
    t.mutable_reference()->set_id("attack");
    return t;
  }
  static v1::CreateTableRequest HoldemTable(const std::string& id) {
    v1::CreateTableRequest create;
    create.set_request_id("create-" + id);
    create.set_table_id(id);
    create.set_name(id);
    v1::PokerTableConfig* c = create.mutable_config();
    c->set_variant(v1::POKER_VARIANT_HOLDEM);
    c->set_small_blind_minor(50);
    c->set_big_blind_minor(100);
    c->set_buy_in_min_minor(5'000);
    c->set_buy_in_max_minor(20'000);
    return create;
  }
  v1::LedgerSummaryResponse Summary() {
    v1::LedgerSummaryResponse s;
    grpc::ClientContext ctx;
    EXPECT_TRUE(back_office_->GetLedgerSummary(&ctx, {}, &s).ok());
    return s;
  }
  int64_t Available(const std::string& player) {
    v1::GetBalanceRequest r;
    r.set_player_id(player);
    v1::BalanceResponse b;
    grpc::ClientContext ctx;
    EXPECT_TRUE(back_office_->GetBalance(&ctx, r, &b).ok());
    return b.available_minor();
  }
  void Fund(const std::string& player, int64_t amount) {
    FundPlayer(*back_office_, player, amount);
  }
  void ExpectAlive() {
    auto health = grpc::health::v1::Health::NewStub(raw_channel_);
    grpc::health::v1::HealthCheckRequest req;
    req.set_service("banca.v1.WalletService");
    grpc::health::v1::HealthCheckResponse resp;
    grpc::ClientContext ctx;
    ASSERT_TRUE(health->Check(&ctx, req, &resp).ok());
    EXPECT_EQ(resp.status(), grpc::health::v1::HealthCheckResponse::SERVING);
    EXPECT_FALSE(ServeChildExited(child_));
  }
  // The same money, the same number of transactions.
  static void ExpectSameLedger(const v1::LedgerSummaryResponse& a,
                               const v1::LedgerSummaryResponse& b,
                               const std::string& what) {
    EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString()) << what;
    EXPECT_EQ(b.ledger_sum_minor(), 0) << what;
  }

  std::string dir_;
  ServeChild child_;
  std::shared_ptr<grpc::Channel> raw_channel_;
  std::unique_ptr<v1::WalletService::Stub> back_office_;
  std::unique_ptr<v1::WalletService::Stub> wallet_;
  std::unique_ptr<v1::TableService::Stub> tables_;
  std::unique_ptr<v1::TournamentService::Stub> tournaments_;
};

TEST_F(AttackTest, NobodyWithoutTheRightMintsOrStealsMoney) {
  Fund("ana", 100'000);
  Fund("bob", 100);
  const v1::LedgerSummaryResponse before = Summary();
  struct Try {
    std::string what;
    std::unique_ptr<grpc::ClientContext> ctx;
    v1::TransferRequest transfer;
    StatusCode expected;
  };
  std::vector<Try> tries;
  auto add = [&](std::string what, std::unique_ptr<grpc::ClientContext> ctx,
                 v1::TransferRequest t, StatusCode code) {
    tries.push_back({std::move(what), std::move(ctx), std::move(t), code});
  };
  add("mint from the bank with no token",
      std::make_unique<grpc::ClientContext>(),
      Move("m1", "house/bank", "player/bob/cash", kBig,
           v1::POSTING_REASON_ADJUSTMENT),
      StatusCode::UNAUTHENTICATED);
  add("mint as a player", As(Role::kPlayer, "bob"),
      Move("m2", "house/bank", "player/bob/cash", kBig,
           v1::POSTING_REASON_ADJUSTMENT),
      StatusCode::PERMISSION_DENIED);
  add("take another player's cash", As(Role::kPlayer, "bob"),
      Move("m3", "player/ana/cash", "player/bob/cash", 50'000,
           v1::POSTING_REASON_PAYOUT),
      StatusCode::PERMISSION_DENIED);
  add("a player-to-player transfer labelled DEPOSIT, as an operator",
      As(Role::kOperator, "op"),
      Move("m4", "player/ana/cash", "player/bob/cash", 1,
           v1::POSTING_REASON_DEPOSIT),
      StatusCode::PERMISSION_DENIED);
  add("mint from outside as the table service", As(Role::kService, "table"),
      Move("m5", "external/payments", "player/bob/cash", kBig,
           v1::POSTING_REASON_PAYOUT),
      StatusCode::PERMISSION_DENIED);
  for (Try& t : tries) {
    v1::TransactionResponse out;
    const grpc::Status s = wallet_->Transfer(t.ctx.get(), t.transfer, &out);
    EXPECT_EQ(s.error_code(), t.expected)
        << t.what << ": " << s.error_message();
  }
  // Withdrawing another player's money, and a token signed by another key.
  v1::WithdrawRequest w;
  w.set_request_id("w1");
  w.set_player_id("ana");
  w.set_amount_minor(50'000);
  w.set_payment_ref("psp");
  v1::TransactionResponse out;
  EXPECT_EQ(
      wallet_->Withdraw(As(Role::kPlayer, "bob").get(), w, &out).error_code(),
      StatusCode::PERMISSION_DENIED);
  std::array<unsigned char, auth::kSeedBytes> seed;
  seed.fill(9);
  grpc::ClientContext forged;
  forged.AddMetadata(
      "authorization",
      "Bearer " + *edge::DayToken(*auth::SigningKey::FromSeed(seed),
                                  Role::kService, "payments"));
  v1::DepositRequest d;
  d.set_request_id("d-forged");
  d.set_player_id("bob");
  d.set_amount_minor(kBig);
  d.set_payment_ref("psp");
  EXPECT_EQ(wallet_->Deposit(&forged, d, &out).error_code(),
            StatusCode::UNAUTHENTICATED);
  ExpectAlive();
  ExpectSameLedger(before, Summary(), "after the refused attempts");
  EXPECT_EQ(Available("bob"), 100);

  // Restart: the data directory starts, and the audit is clean.
  Restart();
  ExpectSameLedger(before, Summary(), "after a restart");
  StopServeChild(child_, SIGTERM);
  child_.pid = -1;
  auto audit = audit::VerifyDataDir(dir_);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_TRUE(audit->ok()) << audit::FormatAuditReport(*audit);
}

TEST_F(AttackTest, HugeUnknownFieldsNeitherStopTheProcessNorReachTheLog) {
  Fund("bob", 100);
  // 1.5 MB under an unknown field of the reference: once past the log's
  // 1 MiB record limit and a fail-stop; now dropped before the handler.
  v1::TransferRequest t = Move("big-unknown", "house/bank", "player/bob/cash",
                               1, v1::POSTING_REASON_ADJUSTMENT);
  t.mutable_reference()
      ->GetReflection()
      ->MutableUnknownFields(t.mutable_reference())
      ->AddLengthDelimited(999, std::string(1'500'000, 'x'));
  v1::TransactionResponse out;
  grpc::Status s = wallet_->Transfer(As(Role::kOperator, "op").get(), t, &out);
  EXPECT_TRUE(s.ok()) << s.error_message();
  // Past the receive limit: refused before it is parsed.
  v1::TransferRequest huge = t;
  huge.set_request_id("huge-unknown");
  huge.mutable_reference()
      ->GetReflection()
      ->MutableUnknownFields(huge.mutable_reference())
      ->AddLengthDelimited(998, std::string(5'000'000, 'y'));
  s = wallet_->Transfer(As(Role::kOperator, "op").get(), huge, &out);
  EXPECT_EQ(s.error_code(), StatusCode::RESOURCE_EXHAUSTED)
      << s.error_message();
  // An operator's CreateTable with a 1.5 MB unknown field in its config.
  v1::CreateTableRequest create = HoldemTable("t1");
  v1::PokerTableConfig* c = create.mutable_config();
  c->GetReflection()->MutableUnknownFields(c)->AddLengthDelimited(
      777, std::string(1'500'000, 'z'));
  v1::TableInfo info;
  s = tables_->CreateTable(As(Role::kOperator, "op").get(), create, &info);
  EXPECT_TRUE(s.ok()) << s.error_message();
  ExpectAlive();
  EXPECT_EQ(Available("bob"), 101);
  Restart();
  EXPECT_EQ(Available("bob"), 101);
}

TEST_F(AttackTest, BalancesStayFarBelowOverflowAndTheDataDirectoryStarts) {
  Fund("bob", 100);
  // The bank's stripe may move at most 10^17 / 16 each way: the 7th
  // transfer of 10^15 out of it is refused before it is decided, where
  // 18,500 of them once made a history that no longer replayed.
  int accepted = 0;
  grpc::Status last;
  for (int i = 0; i < 10; ++i) {
    v1::TransactionResponse out;
    last = wallet_->Transfer(
        As(Role::kOperator, "op").get(),
        Move(absl::StrCat("big-", i), "house/bank", "player/bob/cash", kBig,
             v1::POSTING_REASON_ADJUSTMENT),
        &out);
    if (!last.ok()) break;
    ++accepted;
  }
  EXPECT_EQ(last.error_code(), StatusCode::OUT_OF_RANGE)
      << last.error_message();
  EXPECT_GE(accepted, 1);
  EXPECT_LT(accepted, 10);
  const v1::LedgerSummaryResponse before = Summary();
  EXPECT_EQ(before.ledger_sum_minor(), 0);
  Restart();
  ExpectSameLedger(before, Summary(), "after a restart");
  EXPECT_EQ(Available("bob"), 100 + accepted * kBig);
  // The audit is clean and names the operator behind each adjustment.
  StopServeChild(child_, SIGTERM);
  child_.pid = -1;
  auto audit = audit::VerifyDataDir(dir_);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_TRUE(audit->ok()) << audit::FormatAuditReport(*audit);
  EXPECT_EQ(audit->adjustments["operator:op"].count, accepted);
  EXPECT_EQ(audit->adjustments["operator:op"].moved_minor, accepted * kBig);
}

// The tournaments, as an attacker tries them: a guarantee at the largest
// amount (the house's overlay) neither overflows nor stops the process; a
// registration without a token, a player's CreateTournament with a huge
// unknown field, a registration with another's money (the token names the
// payer) are refused; the data directory starts again with the same money.
TEST_F(AttackTest,
       ATournamentNeitherMintsNorOverflowsAndTheDataDirectoryStarts) {
  Fund("ana", 5'000);
  Fund("bob", 5'000);
  v1::CreateTournamentRequest create;
  create.set_request_id("create-tn1");
  create.set_tournament_id("tn1");
  create.set_name("attack");
  v1::TournamentConfig* c = create.mutable_config();
  c->set_buy_in_minor(1'000);
  c->set_fee_bps(1'000);
  c->set_guarantee_minor(kBig);
  c->add_payouts_bps(10'000);
  v1::TournamentInfo info;
  // A player does not create, even with 1.5 MB nobody reads.
  v1::CreateTournamentRequest padded = create;
  padded.GetReflection()->MutableUnknownFields(&padded)->AddLengthDelimited(
      999, std::string(1'500'000, 'x'));
  EXPECT_EQ(
      tournaments_
          ->CreateTournament(As(Role::kPlayer, "ana").get(), padded, &info)
          .error_code(),
      StatusCode::PERMISSION_DENIED);
  grpc::Status s = tournaments_->CreateTournament(
      As(Role::kOperator, "op").get(), padded, &info);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::PlayerTournamentRequest reg;
  reg.set_request_id("reg-1");
  reg.set_tournament_id("tn1");
  {
    grpc::ClientContext none;
    EXPECT_EQ(tournaments_->Register(&none, reg, &info).error_code(),
              StatusCode::UNAUTHENTICATED);
  }
  for (const std::string p : {"ana", "bob"}) {
    reg.set_request_id("reg-" + p);
    s = tournaments_->Register(As(Role::kPlayer, p).get(), reg, &info);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  EXPECT_EQ(Available("ana"), 4'000);  // each paid for itself only
  EXPECT_EQ(Available("bob"), 4'000);
  v1::OperatorTournamentRequest start;
  start.set_request_id("start-tn1");
  start.set_tournament_id("tn1");
  s = tournaments_->StartTournament(As(Role::kOperator, "op").get(), start,
                                    &info);
  ASSERT_TRUE(s.ok()) << s.error_message();
  // TN-7m: the guarantee tops the pool up to 10^15 from house/overlay.
  EXPECT_EQ(info.prize_pool_minor(), kBig);
  EXPECT_EQ(info.overlay_minor(), kBig - 1'800);
  ExpectAlive();
  // The wallet posts the overlay from the log, after the start answered.
  v1::LedgerSummaryResponse before = Summary();
  for (int i = 0; i < 100; ++i) {
    absl::SleepFor(absl::Milliseconds(100));
    const v1::LedgerSummaryResponse now = Summary();
    if (now.SerializeAsString() == before.SerializeAsString() && i >= 5) {
      break;
    }
    before = now;
  }
  EXPECT_EQ(before.ledger_sum_minor(), 0);
  Restart();
  ExpectSameLedger(before, Summary(), "after a restart");
  v1::GetTournamentRequest get;
  get.set_tournament_id("tn1");
  grpc::ClientContext ctx;
  ctx.AddMetadata("authorization",
                  "Bearer " + TestToken(Role::kAuditor, "aud"));
  ASSERT_TRUE(tournaments_->DescribeTournament(&ctx, get, &info).ok());
  EXPECT_EQ(info.prize_pool_minor(), kBig);
  EXPECT_EQ(info.entrants(), 2);
}

TEST_F(AttackTest, AClientCannotJamATablesBuyInWithItsRequestId) {
  Fund("ana", 100'000);
  // The attack: a Deposit under the id of table t1's first buy-in's hold
  // step, before the buy-in. It is the payment service's own request now.
  for (const char* step : {"hold", "seat", "rake"}) {
    v1::DepositRequest d;
    d.set_request_id(absl::StrCat("table/t1/buyin/1/", step));
    d.set_player_id("ana");
    d.set_amount_minor(1);
    d.set_payment_ref("psp");
    v1::TransactionResponse out;
    grpc::ClientContext ctx;
    ASSERT_TRUE(back_office_->Deposit(&ctx, d, &out).ok());
  }
  v1::CreateTableRequest create = HoldemTable("t1");
  v1::TableInfo info;
  ASSERT_TRUE(
      tables_->CreateTable(As(Role::kOperator, "op").get(), create, &info)
          .ok());
  v1::SitRequest sit;
  sit.set_request_id("sit-ana");
  sit.set_table_id("t1");
  sit.set_seat(1);
  sit.set_buy_in_minor(10'000);
  v1::SeatResponse seat;
  grpc::Status s = tables_->Sit(As(Role::kPlayer, "ana").get(), sit, &seat);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(seat.stack_minor(), 10'000);
  EXPECT_EQ(Available("ana"), 100'003 - 10'000);

  // Someone named like ana in another role is not ana at the table.
  for (Role role : {Role::kAuditor, Role::kGateway, Role::kOperator}) {
    v1::LeaveRequest leave;
    leave.set_request_id("leave");
    leave.set_table_id("t1");
    v1::LeaveResponse out;
    (void)tables_->Leave(As(role, "ana").get(), leave, &out);
  }
  v1::WatchTableRequest req;
  req.set_table_id("t1");
  v1::TableView view;
  ASSERT_TRUE(
      tables_->GetTableView(As(Role::kPlayer, "ana").get(), req, &view).ok());
  bool seated = false;
  for (const v1::SeatState& st : view.seats()) {
    seated |= st.player_id() == "ana" && st.stack_minor() == 10'000;
  }
  EXPECT_TRUE(seated) << view.DebugString();
  ExpectAlive();
  StopServeChild(child_, SIGTERM);
  child_.pid = -1;
  auto audit = audit::VerifyDataDir(dir_);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_TRUE(audit->ok()) << audit::FormatAuditReport(*audit);
}

}  // namespace
}  // namespace banca::testing
