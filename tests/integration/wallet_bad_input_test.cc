// Bad input changes nothing: each case gets a precise gRPC status and the
// log gains no event (DESIGN.md invariant 6).
#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>

#include "libs/money/money.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

using grpc::StatusCode;

struct Case {
  std::string name;
  std::function<grpc::Status(v1::WalletService::Stub&)> call;
  StatusCode expected;
};

template <typename Request, typename Response>
using Method = grpc::Status (v1::WalletService::Stub::*)(grpc::ClientContext*,
                                                         const Request&,
                                                         Response*);

template <typename Request, typename Response>
std::function<grpc::Status(v1::WalletService::Stub&)> Call(
    Method<Request, Response> method, Request request) {
  return [method, request](v1::WalletService::Stub& stub) {
    grpc::ClientContext ctx;
    // Adjustments are an operator's (the fixture's Transfer token is the
    // table service's).
    if constexpr (std::is_same_v<Request, v1::TransferRequest>) {
      if (request.reason() == v1::POSTING_REASON_ADJUSTMENT) {
        ctx.AddMetadata("authorization",
                        "Bearer " + TestToken(auth::Role::kOperator, "test"));
      }
    }
    Response response;
    return (stub.*method)(&ctx, request, &response);
  };
}

v1::DepositRequest Dep(const std::string& rid, const std::string& player,
                       int64_t amount) {
  v1::DepositRequest r;
  r.set_request_id(rid);
  r.set_player_id(player);
  r.set_amount_minor(amount);
  r.set_payment_ref("psp-1");
  return r;
}

v1::CaptureHoldRequest Cap(const std::string& hold, int64_t amount,
                           const std::string& to) {
  v1::CaptureHoldRequest r;
  r.set_request_id("cap-" + hold + "-" + to.substr(0, 20));
  r.set_hold_id(hold);
  r.set_amount_minor(amount);
  r.set_to_account(to);
  r.set_reason(v1::POSTING_REASON_BUY_IN);
  r.mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
  r.mutable_reference()->set_id("t1");
  return r;
}

v1::PlaceHoldRequest Hold(int64_t amount, int32_t ttl = 0) {
  v1::PlaceHoldRequest r;
  r.set_request_id("hold-bad");
  r.set_player_id("ana");
  r.set_amount_minor(amount);
  r.set_ttl_seconds(ttl);
  r.set_reason(v1::POSTING_REASON_BUY_IN);
  r.mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
  r.mutable_reference()->set_id("t1");
  return r;
}

v1::TransferRequest Move(const std::string& from, const std::string& to,
                         int64_t amount) {
  v1::TransferRequest r;
  r.set_request_id("move-bad");
  r.set_from_account(from);
  r.set_to_account(to);
  r.set_amount_minor(amount);
  r.set_reason(v1::POSTING_REASON_ADJUSTMENT);
  r.mutable_reference()->set_kind(v1::REFERENCE_KIND_OPERATOR);
  r.mutable_reference()->set_id("op-1");
  return r;
}

class WalletBadInputTest : public WalletFixture {
 protected:
  void SetUp() override {
    WalletFixture::SetUp();
    // ana: 1,000.00 EUR with an open hold ana:1 (300) and a closed one ana:2.
    ASSERT_TRUE(Open("ana").ok());
    ASSERT_TRUE(Deposit("ana", 100'000, "seed").ok());
    for (const char* rid : {"h-open", "h-closed"}) {
      v1::PlaceHoldRequest h = Hold(300);
      h.set_request_id(rid);
      v1::HoldResponse hr;
      grpc::ClientContext ctx;
      ASSERT_TRUE(stub_->PlaceHold(&ctx, h, &hr).ok());
    }
    v1::ReleaseHoldRequest rel;
    rel.set_request_id("release-2");
    rel.set_hold_id("ana:2");
    v1::HoldResponse hr;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub_->ReleaseHold(&ctx, rel, &hr).ok());
    // bob's account is closed.
    ASSERT_TRUE(Open("bob").ok());
    v1::CloseAccountRequest close;
    close.set_request_id("close-bob");
    close.set_player_id("bob");
    v1::AccountResponse ar;
    grpc::ClientContext ctx2;
    ASSERT_TRUE(stub_->CloseAccount(&ctx2, close, &ar).ok());
  }
};

TEST_F(WalletBadInputTest, EveryBadInputIsRejectedPreciselyAndAppendsNothing) {
  using S = v1::WalletService::Stub;
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  v1::DepositRequest wrong_currency = Dep("cur", "ana", 100);
  wrong_currency.set_currency("USD");
  v1::DepositRequest no_ref = Dep("noref", "ana", 100);
  no_ref.set_payment_ref("");
  v1::WithdrawRequest too_much;
  too_much.set_request_id("w-big");
  too_much.set_player_id("ana");
  too_much.set_amount_minor(100'000);  // 300 of it is held
  too_much.set_payment_ref("psp-9");
  v1::PlaceHoldRequest no_reason = Hold(10);
  no_reason.set_reason(v1::POSTING_REASON_UNSPECIFIED);
  v1::PlaceHoldRequest no_reference = Hold(10);
  no_reference.clear_reference();
  v1::TransferRequest long_memo = Move("house/bank", "player/ana/cash", 10);
  long_memo.set_memo(std::string(300, 'm'));
  v1::TransferRequest empty_seat = Move("table/t9/seat/ana", "house/rake", 10);
  empty_seat.set_reason(v1::POSTING_REASON_RAKE);
  v1::TransferRequest hold_reason = Move("house/bank", "player/ana/cash", 10);
  hold_reason.set_reason(v1::POSTING_REASON_HOLD);
  v1::ReleaseHoldRequest release_closed;
  release_closed.set_request_id("rel-closed");
  release_closed.set_hold_id("ana:2");
  v1::ListTransactionsRequest big_page;
  big_page.set_player_id("ana");
  big_page.set_page_size(100'000);
  v1::ListTransactionsRequest bad_token;
  bad_token.set_player_id("ana");
  bad_token.set_page_token("bm90LWEtdG9rZW4");
  v1::GetBalanceRequest ghost_balance;
  ghost_balance.set_player_id("ghost");
  v1::OpenAccountRequest reopen;
  reopen.set_request_id("open-ana-again");
  reopen.set_player_id("ana");
  v1::CloseAccountRequest close_funded;
  close_funded.set_request_id("close-ana");
  close_funded.set_player_id("ana");

  const std::vector<Case> cases = {
      {"zero amount", Call(&S::Deposit, Dep("z", "ana", 0)),
       StatusCode::INVALID_ARGUMENT},
      {"negative amount", Call(&S::Deposit, Dep("n", "ana", -5)),
       StatusCode::INVALID_ARGUMENT},
      {"overflowing amount", Call(&S::Deposit, Dep("o", "ana", kMax)),
       StatusCode::INVALID_ARGUMENT},
      {"amount past the limit",
       Call(&S::Deposit, Dep("l", "ana", money::kMaxAmountMinor + 1)),
       StatusCode::INVALID_ARGUMENT},
      {"unknown account", Call(&S::Deposit, Dep("u", "ghost", 100)),
       StatusCode::NOT_FOUND},
      {"closed account", Call(&S::Deposit, Dep("c", "bob", 100)),
       StatusCode::FAILED_PRECONDITION},
      {"wrong currency", Call(&S::Deposit, wrong_currency),
       StatusCode::INVALID_ARGUMENT},
      {"missing request id", Call(&S::Deposit, Dep("", "ana", 100)),
       StatusCode::INVALID_ARGUMENT},
      {"oversized request id",
       Call(&S::Deposit, Dep(std::string(200, 'r'), "ana", 100)),
       StatusCode::INVALID_ARGUMENT},
      {"malformed player id", Call(&S::Deposit, Dep("m", "a/b", 100)),
       StatusCode::INVALID_ARGUMENT},
      {"oversized player id",
       Call(&S::Deposit, Dep("big", std::string(100, 'p'), 100)),
       StatusCode::INVALID_ARGUMENT},
      {"missing payment reference", Call(&S::Deposit, no_ref),
       StatusCode::INVALID_ARGUMENT},
      {"withdraw above balance", Call(&S::Withdraw, too_much),
       StatusCode::FAILED_PRECONDITION},
      {"reused request id, other body",
       Call(&S::Deposit, Dep("seed", "ana", 1)), StatusCode::ALREADY_EXISTS},
      {"capture above the hold",
       Call(&S::CaptureHold, Cap("ana:1", 301, "table/t1/seat/ana")),
       StatusCode::FAILED_PRECONDITION},
      {"capture of an unknown hold",
       Call(&S::CaptureHold, Cap("ana:99", 1, "table/t1/seat/ana")),
       StatusCode::NOT_FOUND},
      {"malformed hold id",
       Call(&S::CaptureHold, Cap("no-colon", 1, "table/t1/seat/ana")),
       StatusCode::INVALID_ARGUMENT},
      {"capture to a malformed account",
       Call(&S::CaptureHold, Cap("ana:1", 1, "casino/x")),
       StatusCode::INVALID_ARGUMENT},
      {"capture into a held account",
       Call(&S::CaptureHold, Cap("ana:1", 1, "player/ana/held")),
       StatusCode::INVALID_ARGUMENT},
      {"capture of a closed hold",
       Call(&S::CaptureHold, Cap("ana:2", 1, "table/t1/seat/ana")),
       StatusCode::FAILED_PRECONDITION},
      {"release of a closed hold", Call(&S::ReleaseHold, release_closed),
       StatusCode::FAILED_PRECONDITION},
      {"hold above the balance", Call(&S::PlaceHold, Hold(100'000)),
       StatusCode::FAILED_PRECONDITION},
      {"hold ttl too long", Call(&S::PlaceHold, Hold(10, 8 * 24 * 3600)),
       StatusCode::INVALID_ARGUMENT},
      {"hold without a reason", Call(&S::PlaceHold, no_reason),
       StatusCode::INVALID_ARGUMENT},
      {"hold without a reference", Call(&S::PlaceHold, no_reference),
       StatusCode::INVALID_ARGUMENT},
      {"transfer to the same account",
       Call(&S::Transfer, Move("house/bank", "house/bank", 10)),
       StatusCode::INVALID_ARGUMENT},
      {"transfer from an unknown account class",
       Call(&S::Transfer, Move("casino/x", "house/bank", 10)),
       StatusCode::INVALID_ARGUMENT},
      {"transfer from an empty table seat", Call(&S::Transfer, empty_seat),
       StatusCode::FAILED_PRECONDITION},
      {"transfer with an oversized memo", Call(&S::Transfer, long_memo),
       StatusCode::INVALID_ARGUMENT},
      {"transfer with a ledger-only reason", Call(&S::Transfer, hold_reason),
       StatusCode::INVALID_ARGUMENT},
      {"transfer to a closed account",
       Call(&S::Transfer, Move("house/bank", "player/bob/cash", 10)),
       StatusCode::FAILED_PRECONDITION},
      {"open an existing account", Call(&S::OpenAccount, reopen),
       StatusCode::ALREADY_EXISTS},
      {"close an account holding money", Call(&S::CloseAccount, close_funded),
       StatusCode::FAILED_PRECONDITION},
      {"page size too large", Call(&S::ListTransactions, big_page),
       StatusCode::INVALID_ARGUMENT},
      {"forged page token", Call(&S::ListTransactions, bad_token),
       StatusCode::INVALID_ARGUMENT},
      {"balance of an unknown player", Call(&S::GetBalance, ghost_balance),
       StatusCode::NOT_FOUND},
  };
  ASSERT_GE(cases.size(), 20u);
  for (const Case& c : cases) {
    const int64_t before = Events();
    const grpc::Status status = c.call(*stub_);
    EXPECT_EQ(status.error_code(), c.expected)
        << c.name << ": " << status.error_message();
    EXPECT_FALSE(status.error_message().empty()) << c.name;
    EXPECT_EQ(Events(), before) << c.name << " appended an event";
  }
  // The money is where it was.
  v1::GetBalanceRequest b;
  b.set_player_id("ana");
  v1::BalanceResponse br;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->GetBalance(&ctx, b, &br).ok());
  EXPECT_EQ(br.available_minor(), 100'000 - 300);
  EXPECT_EQ(br.held_minor(), 300);
}

}  // namespace
}  // namespace banca::testing
