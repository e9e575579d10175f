// No input reaches the log unchecked (issue 17): unknown fields a client
// sends are dropped before the wallet sees the request, and a request over
// the server's receive limit is refused before it is parsed. Before, a
// Transfer carrying 1.5 MB under an unknown field of its reference was
// logged with it, past the log's record limit: the append failed and the
// process stopped (fail-stop).
#include <string>

#include "libs/wire/topics.h"
#include "services/common/request_limits.h"
#include "tests/integration/unknown_fields.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

class WalletInputLimitsTest : public WalletFixture {
 protected:
  // Every call of these tests goes out with this context (the place for
  // the caller's credentials).
  // As an operator: the adjustments below are an operator's to make.
  static std::unique_ptr<grpc::ClientContext> Context() {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->AddMetadata("authorization",
                     "Bearer " + TestToken(auth::Role::kOperator, "test"));
    return ctx;
  }
  // An operator's adjustment of `amount` from the house's bank to Ana.
  static v1::TransferRequest Adjustment(const std::string& rid,
                                        int64_t amount) {
    v1::TransferRequest t;
    t.set_request_id(rid);
    t.set_from_account("house/bank");
    t.set_to_account("player/ana/cash");
    t.set_amount_minor(amount);
    t.set_reason(v1::POSTING_REASON_ADJUSTMENT);
    t.mutable_reference()->set_kind(v1::REFERENCE_KIND_OPERATOR);
    t.mutable_reference()->set_id("op-1");
    return t;
  }
  grpc::Status Transfer(const v1::TransferRequest& t) {
    v1::TransactionResponse response;
    return stub_->Transfer(Context().get(), t, &response);
  }
  int64_t Available(const std::string& player) {
    v1::GetBalanceRequest req;
    req.set_player_id(player);
    v1::BalanceResponse balance;
    grpc::Status s = stub_->GetBalance(Context().get(), req, &balance);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return balance.available_minor();
  }
  size_t LargestWalletRecord() {
    return LargestRecord(server_->log(), wire::kWalletTopic);
  }
};

TEST_F(WalletInputLimitsTest, UnknownFieldsOfATransferAreDroppedBeforeTheLog) {
  ASSERT_TRUE(Open("ana").ok());
  // 200 KB, and the 1.5 MB of the attack (within the receive limit: a
  // Relay batch may be larger, see request_limits.h).
  int n = 0;
  for (const size_t bytes : {size_t{200'000}, size_t{1'500'000}}) {
    SCOPED_TRACE(bytes);
    v1::TransferRequest t = Adjustment(absl::StrCat("adj-", ++n), 100);
    AddUnknownField(*t.mutable_reference(), bytes);
    AddUnknownField(t, bytes / 10, kUnknownField + 1);
    const int64_t events = Events();
    const grpc::Status s = Transfer(t);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(Events(), events + 1);
    EXPECT_LT(LargestWalletRecord(), kSmallRecordBytes);
  }
  // The server is alive, and its log replays.
  EXPECT_EQ(Available("ana"), 200);
  RestartServer();
  EXPECT_EQ(Available("ana"), 200);
  EXPECT_TRUE(Transfer(Adjustment("adj-after", 100)).ok());
  EXPECT_EQ(Available("ana"), 300);
}

TEST_F(WalletInputLimitsTest, ARequestOverTheReceiveLimitIsRefusedUnparsed) {
  ASSERT_TRUE(Open("ana").ok());
  v1::TransferRequest t = Adjustment("adj-huge", 100);
  AddUnknownField(*t.mutable_reference(), edge::kMaxReceiveMessageBytes);
  const int64_t events = Events();
  const grpc::Status s = Transfer(t);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
      << s.error_message();
  EXPECT_EQ(Events(), events);
  // Refused, not taken: the same request id is free, and the server alive.
  EXPECT_TRUE(Transfer(Adjustment("adj-huge", 100)).ok());
  EXPECT_EQ(Available("ana"), 100);
}

}  // namespace
}  // namespace banca::testing
