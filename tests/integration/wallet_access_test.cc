// The wallet's matrix (docs/security.md, "The wallet's matrix"), as an
// attacker tries it: every RPC called by every kind of caller — no token, a
// forged, expired or other-audience token, the player itself, another
// player, each role and service. A caller without the right gets
// UNAUTHENTICATED or PERMISSION_DENIED and the log gains nothing; one with
// it gets past the check (the call may still fail on the rules).
#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/wire/topics.h"
#include "tests/harness/access_matrix.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

using auth::Role;
using grpc::StatusCode;
using S = v1::WalletService::Stub;
using Rpc = MatrixRpc<S>;

// A token signed by a key the wallet does not hold.
std::string ForgedToken() {
  std::array<unsigned char, auth::kSeedBytes> seed;
  seed.fill(7);
  return *edge::DayToken(*auth::SigningKey::FromSeed(seed), Role::kOperator,
                         "mallory");
}

std::string ExpiredToken() {
  // Issued two days ago, so a day-long token has run out.
  return *edge::DayToken(TestSigningKey(), Role::kOperator, "op",
                         absl::ToUnixSeconds(absl::Now()) - 2 * 86'400);
}

std::string OtherAudienceToken() {
  auth::Claims c;
  c.subject = "operator:op";
  c.role = Role::kOperator;
  c.audience = "staging";
  c.issued_at_unix_seconds = absl::ToUnixSeconds(absl::Now());
  c.expires_unix_seconds = c.issued_at_unix_seconds + 3600;
  return *auth::IssueToken(TestSigningKey(), c);
}

// A batch of one item, as the matrix sees it: the call's refusal, or else
// the item's own answer (each item is checked as Transfer is).
grpc::Status OneItemBatch(S& s, grpc::ClientContext* c,
                          const v1::TransferRequest& item) {
  v1::TransferBatchRequest r;
  *r.add_items() = item;
  v1::TransferBatchResponse out;
  const grpc::Status status = s.TransferBatch(c, r, &out);
  if (!status.ok() || out.results_size() != 1) return status;
  return grpc::Status(static_cast<grpc::StatusCode>(out.results(0).code()),
                      out.results(0).message());
}

std::vector<Caller> Callers() {
  return {
      {"no token", "", false},
      {"forged", ForgedToken(), false},
      {"expired", ExpiredToken(), false},
      {"other audience", OtherAudienceToken(), false},
      {"player:ana", TestToken(Role::kPlayer, "ana")},
      {"player:bob", TestToken(Role::kPlayer, "bob")},
      {"operator:op", TestToken(Role::kOperator, "op")},
      {"finance:fin", TestToken(Role::kFinance, "fin")},
      {"auditor:aud", TestToken(Role::kAuditor, "aud")},
      {"service:payments", TestToken(Role::kService, "payments")},
      {"service:table", TestToken(Role::kService, "table")},
      {"service:tournament", TestToken(Role::kService, "tournament")},
      {"gateway:gw", TestToken(Role::kGateway, "gw")},
      // A player named like a service or role gains nothing by it.
      {"player:payments", TestToken(Role::kPlayer, "payments")},
  };
}

std::vector<Rpc> Rpcs() {
  const std::set<std::string> readers = {
      "player:ana",    "operator:op",      "finance:fin",       "auditor:aud",
      "service:table", "service:payments", "service:tournament"};
  return {
      {"OpenAccount",
       [](S& s, grpc::ClientContext* c, int n) {
         v1::OpenAccountRequest r;
         r.set_request_id(absl::StrCat("open-", n));
         r.set_player_id(absl::StrCat("new", n));
         v1::AccountResponse out;
         return s.OpenAccount(c, r, &out);
       },
       {"operator:op"}},
      {"CloseAccount",
       [](S& s, grpc::ClientContext* c, int n) {
         v1::CloseAccountRequest r;
         r.set_request_id(absl::StrCat("close-", n));
         r.set_player_id("zed");
         v1::AccountResponse out;
         return s.CloseAccount(c, r, &out);
       },
       {"operator:op"}},
      {"Deposit",
       [](S& s, grpc::ClientContext* c, int n) {
         v1::DepositRequest r;
         r.set_request_id(absl::StrCat("dep-", n));
         r.set_player_id("ana");
         r.set_amount_minor(1'000'000'000);
         r.set_payment_ref("psp");
         v1::TransactionResponse out;
         return s.Deposit(c, r, &out);
       },
       {"service:payments"}},
      {"Withdraw",
       [](S& s, grpc::ClientContext* c, int n) {
         v1::WithdrawRequest r;
         r.set_request_id(absl::StrCat("wd-", n));
         r.set_player_id("ana");
         r.set_amount_minor(1);
         r.set_payment_ref("psp");
         v1::TransactionResponse out;
         return s.Withdraw(c, r, &out);
       },
       {"player:ana", "service:payments"}},
      {"GetBalance",
       [](S& s, grpc::ClientContext* c, int) {
         v1::GetBalanceRequest r;
         r.set_player_id("ana");
         v1::BalanceResponse out;
         return s.GetBalance(c, r, &out);
       },
       readers},
      {"ListTransactions",
       [](S& s, grpc::ClientContext* c, int) {
         v1::ListTransactionsRequest r;
         r.set_player_id("ana");
         v1::ListTransactionsResponse out;
         return s.ListTransactions(c, r, &out);
       },
       readers},
      {"PlaceHold",
       [](S& s, grpc::ClientContext* c, int n) {
         v1::PlaceHoldRequest r;
         r.set_request_id(absl::StrCat("hold-", n));
         r.set_player_id("ana");
         r.set_amount_minor(1);
         r.set_reason(v1::POSTING_REASON_BUY_IN);
         r.mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
         r.mutable_reference()->set_id("t1");
         v1::HoldResponse out;
         return s.PlaceHold(c, r, &out);
       },
       {"service:payments", "service:table", "service:tournament"}},
      {"CaptureHold",
       [](S& s, grpc::ClientContext* c, int n) {
         v1::CaptureHoldRequest r;
         r.set_request_id(absl::StrCat("cap-", n));
         r.set_hold_id("ana:1");  // placed by service:table
         r.set_amount_minor(1);
         r.set_to_account("table/t1/seat/ana");
         r.set_reason(v1::POSTING_REASON_BUY_IN);
         r.mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
         r.mutable_reference()->set_id("t1");
         v1::HoldResponse out;
         return s.CaptureHold(c, r, &out);
       },
       {"service:table"}},
      {"ReleaseHold",
       [](S& s, grpc::ClientContext* c, int n) {
         v1::ReleaseHoldRequest r;
         r.set_request_id(absl::StrCat("rel-", n));
         r.set_hold_id("ana:2");  // placed by service:table
         v1::HoldResponse out;
         return s.ReleaseHold(c, r, &out);
       },
       {"service:table", "operator:op"}},
      {"Transfer adjustment",
       [](S& s, grpc::ClientContext* c, int n) {
         v1::TransferRequest r;
         r.set_request_id(absl::StrCat("adj-", n));
         r.set_from_account("house/bank");
         r.set_to_account("player/ana/cash");
         r.set_amount_minor(1'000'000'000);
         r.set_reason(v1::POSTING_REASON_ADJUSTMENT);
         r.mutable_reference()->set_kind(v1::REFERENCE_KIND_OPERATOR);
         r.mutable_reference()->set_id("ticket-1");
         v1::TransactionResponse out;
         return s.Transfer(c, r, &out);
       },
       {"operator:op"}},
      {"Transfer rake",
       [](S& s, grpc::ClientContext* c, int n) {
         v1::TransferRequest r;
         r.set_request_id(absl::StrCat("rake-", n));
         r.set_from_account("table/t1/seat/ana");
         r.set_to_account("house/rake");
         r.set_amount_minor(1);
         r.set_reason(v1::POSTING_REASON_RAKE);
         r.mutable_reference()->set_kind(v1::REFERENCE_KIND_HAND);
         r.mutable_reference()->set_id("h1");
         v1::TransactionResponse out;
         return s.Transfer(c, r, &out);
       },
       {"service:table"}},
      {"TransferBatch adjustment",
       [](S& s, grpc::ClientContext* c, int n) {
         v1::TransferRequest r;
         r.set_request_id(absl::StrCat("batch-adj-", n));
         r.set_from_account("house/bank");
         r.set_to_account("player/ana/cash");
         r.set_amount_minor(1'000'000'000);
         r.set_reason(v1::POSTING_REASON_ADJUSTMENT);
         r.mutable_reference()->set_kind(v1::REFERENCE_KIND_OPERATOR);
         r.mutable_reference()->set_id("ticket-1");
         return OneItemBatch(s, c, r);
       },
       {"operator:op"}},
      {"TransferBatch rake",
       [](S& s, grpc::ClientContext* c, int n) {
         v1::TransferRequest r;
         r.set_request_id(absl::StrCat("batch-rake-", n));
         r.set_from_account("table/t1/seat/ana");
         r.set_to_account("house/rake");
         r.set_amount_minor(1);
         r.set_reason(v1::POSTING_REASON_RAKE);
         r.mutable_reference()->set_kind(v1::REFERENCE_KIND_HAND);
         r.mutable_reference()->set_id("h1");
         return OneItemBatch(s, c, r);
       },
       {"service:table"}},
      {"Transfer labelled DEPOSIT between players",
       [](S& s, grpc::ClientContext* c, int n) {
         v1::TransferRequest r;
         r.set_request_id(absl::StrCat("fake-dep-", n));
         r.set_from_account("player/ana/cash");
         r.set_to_account("player/zed/cash");
         r.set_amount_minor(1);
         r.set_reason(v1::POSTING_REASON_DEPOSIT);
         r.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
         r.mutable_reference()->set_id("p1");
         v1::TransactionResponse out;
         return s.Transfer(c, r, &out);
       },
       {}},
      {"GetLedgerSummary",
       [](S& s, grpc::ClientContext* c, int) {
         v1::LedgerSummaryResponse out;
         return s.GetLedgerSummary(c, {}, &out);
       },
       {"operator:op", "finance:fin", "auditor:aud"}},
  };
}

class WalletAccessTest : public WalletFixture {
 protected:
  void SetUp() override {
    WalletFixture::SetUp();
    ASSERT_TRUE(Open("ana").ok());
    ASSERT_TRUE(Open("zed").ok());
    ASSERT_TRUE(Deposit("ana", 100'000, "seed").ok());
    for (const char* rid : {"h1", "h2"}) {  // ana:1 and ana:2
      v1::PlaceHoldRequest h;
      h.set_request_id(rid);
      h.set_player_id("ana");
      h.set_amount_minor(1'000);
      h.set_reason(v1::POSTING_REASON_BUY_IN);
      h.mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
      h.mutable_reference()->set_id("t1");
      v1::HoldResponse out;
      grpc::ClientContext ctx;
      ASSERT_TRUE(stub_->PlaceHold(&ctx, h, &out).ok());
    }
    // A plain channel: the attacker's calls carry only what they set.
    raw_ = v1::WalletService::NewStub(grpc::CreateChannel(
        server_->target(), grpc::InsecureChannelCredentials()));
  }
  std::unique_ptr<v1::WalletService::Stub> raw_;
};

TEST_F(WalletAccessTest, EveryRoleAndRpcPairFollowsTheMatrix) {
  // Every refusal appends nothing to the log.
  const int refusals = ExpectAccessMatrix(
      *raw_, Rpcs(), Callers(), {.events = [this] { return Events(); }});
  EXPECT_GT(refusals, 100);
  // Nobody but the payment service minted money: ana holds her seed
  // deposit, plus the payment service's and the operator's one call each,
  // less what the allowed withdrawals, holds and captures moved.
  v1::LedgerSummaryResponse summary;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->GetLedgerSummary(&ctx, {}, &summary).ok());
  EXPECT_EQ(summary.ledger_sum_minor(), 0);
  EXPECT_EQ(summary.deposits_minor(), 100'000 + 1'000'000'000);
}

TEST_F(WalletAccessTest, ClientRequestIdsCannotNameInternalSteps) {
  // The attack that jammed the table-request reader: a client claims the
  // id of a saga's hold step. Client ids live under client/<subject>/, so
  // the internal id stays free and the deposit is an ordinary one.
  v1::DepositRequest r;
  r.set_request_id("table/tp1/buyin/1/hold");
  r.set_player_id("ana");
  r.set_amount_minor(5);
  r.set_payment_ref("psp");
  v1::TransactionResponse out;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->Deposit(&ctx, r, &out).ok());
  // Another caller reusing the same id is not answered with the first
  // caller's result: it is its own request.
  grpc::ClientContext other;
  other.AddMetadata("authorization",
                    "Bearer " + TestToken(Role::kPlayer, "ana"));
  v1::WithdrawRequest w;
  w.set_request_id("table/tp1/buyin/1/hold");
  w.set_player_id("ana");
  w.set_amount_minor(5);
  w.set_payment_ref("psp");
  ASSERT_TRUE(stub_->Withdraw(&other, w, &out).ok());
  EXPECT_EQ(out.tx().reason(), v1::POSTING_REASON_WITHDRAWAL);
  // The events record who asked, under their own namespace.
  std::vector<std::string> keys;
  std::vector<std::string> actors;
  auto& log = server_->log();
  const std::string topic(wire::kWalletTopic);
  for (int p = 0; p < log.PartitionCount(topic).value_or(0); ++p) {
    auto records = log.Read(topic, p, 0, 10'000);
    ASSERT_TRUE(records.ok());
    for (const auto& rec : *records) {
      auto decoded = wire::DecodeWalletRecord(rec);
      ASSERT_TRUE(decoded.ok());
      keys.push_back(decoded->event.request_id());
      actors.push_back(decoded->event.actor());
    }
  }
  EXPECT_NE(std::find(keys.begin(), keys.end(),
                      "client/service:payments/table/tp1/buyin/1/hold"),
            keys.end());
  EXPECT_NE(std::find(keys.begin(), keys.end(),
                      "client/player:ana/table/tp1/buyin/1/hold"),
            keys.end());
  EXPECT_EQ(std::find(keys.begin(), keys.end(), "table/tp1/buyin/1/hold"),
            keys.end());
  EXPECT_NE(std::find(actors.begin(), actors.end(), "player:ana"),
            actors.end());
}

TEST_F(WalletAccessTest, AHoldRecordsItsPlacerAndOnlyItCapturesIt) {
  auto hold = server_->wallet().ledger().Hold("ana:1");
  ASSERT_TRUE(hold.ok());
  EXPECT_EQ(hold->placed_by, "service:table");
  // A service that did not place it (the tournament service) cannot take
  // it, even to a destination its own rules allow.
  v1::CaptureHoldRequest r;
  r.set_request_id("steal");
  r.set_hold_id("ana:1");
  r.set_amount_minor(1'000);
  r.set_to_account("tournament/x/prize_pool");
  r.set_reason(v1::POSTING_REASON_BUY_IN);
  r.mutable_reference()->set_kind(v1::REFERENCE_KIND_TOURNAMENT);
  r.mutable_reference()->set_id("x");
  v1::HoldResponse out;
  grpc::ClientContext ctx;
  ctx.AddMetadata("authorization",
                  "Bearer " + TestToken(Role::kService, "tournament"));
  const int64_t before = Events();
  EXPECT_EQ(stub_->CaptureHold(&ctx, r, &out).error_code(),
            StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Events(), before);
}

}  // namespace
}  // namespace banca::testing
