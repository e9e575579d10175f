// TransferBatch (docs/architecture.md, "Transfer batches"): many transfers
// in one call, each item a Transfer checked, decided and answered on its
// own, after its event is durable. The good paths beside the attacker's:
// no token, a player's token, the wrong role or service, an empty or
// oversize batch, unknown fields, ids that name internal steps, replays,
// repeated ids within a batch, an item that would overdraw; and the audit
// after a batch workload.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "services/audit/audit.h"
#include "services/common/request_limits.h"
#include "services/wallet/transfer_batch.h"
#include "tests/integration/unknown_fields.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

using auth::Role;
using grpc::StatusCode;

constexpr int kOk = 0;
constexpr int kInvalid = static_cast<int>(StatusCode::INVALID_ARGUMENT);
constexpr int kDenied = static_cast<int>(StatusCode::PERMISSION_DENIED);
constexpr int kPrecondition = static_cast<int>(StatusCode::FAILED_PRECONDITION);

// A transfer as a table settles it (the fixture's TransferBatch calls act
// as service:table).
v1::TransferRequest Move(const std::string& rid, const std::string& from,
                         const std::string& to, int64_t amount,
                         v1::PostingReason reason) {
  v1::TransferRequest t;
  t.set_request_id(rid);
  t.set_from_account(from);
  t.set_to_account(to);
  t.set_amount_minor(amount);
  t.set_reason(reason);
  t.mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
  t.mutable_reference()->set_id("t1");
  return t;
}

v1::TransferRequest BuyIn(const std::string& rid, const std::string& player,
                          int64_t amount) {
  return Move(rid, absl::StrCat("player/", player, "/cash"),
              absl::StrCat("table/t1/seat/", player), amount,
              v1::POSTING_REASON_BUY_IN);
}

v1::TransferRequest Payout(const std::string& rid, const std::string& player,
                           int64_t amount) {
  return Move(rid, absl::StrCat("table/t1/seat/", player),
              absl::StrCat("player/", player, "/cash"), amount,
              v1::POSTING_REASON_PAYOUT);
}

std::vector<int> Codes(const v1::TransferBatchResponse& r) {
  std::vector<int> codes;
  for (const auto& item : r.results()) codes.push_back(item.code());
  return codes;
}

class WalletBatchTest : public WalletFixture {
 protected:
  void SetUp() override {
    WalletFixture::SetUp();
    FundPlayer(*stub_, "ana", 1'000);
    FundPlayer(*stub_, "bob", 1'000);
  }

  // `token` empty: the fixture's back-office token (service:table).
  grpc::Status Batch(const std::vector<v1::TransferRequest>& items,
                     v1::TransferBatchResponse* out,
                     const std::string& token = "") {
    v1::TransferBatchRequest r;
    for (const auto& t : items) *r.add_items() = t;
    return Send(r, out, token);
  }
  grpc::Status Send(const v1::TransferBatchRequest& r,
                    v1::TransferBatchResponse* out,
                    const std::string& token = "") {
    grpc::ClientContext ctx;
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
    return stub_->TransferBatch(&ctx, r, out);
  }
  int64_t Available(const std::string& player) {
    return server_->wallet().ledger().Balance(player)->available;
  }
};

TEST_F(WalletBatchTest, EachItemIsDecidedAndAnsweredOnItsOwn) {
  const int64_t events = Events();
  v1::TransferBatchResponse out;
  const grpc::Status s = Batch(
      {
          BuyIn("b1", "ana", 300),
          BuyIn("b2", "ana", 5'000),  // would overdraw: refused alone
          BuyIn("b3", "bob", 0),      // no amount
          Payout("b4", "ana", 100),   // sees item 0's buy-in
          BuyIn("b1", "bob", 1),      // repeats item 0's id
          Move("b5", "player/ana/held", "table/t1/seat/ana", 1,
               v1::POSTING_REASON_BUY_IN),  // held money moves by holds only
          BuyIn("b6", "bob", 400),
      },
      &out);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(Codes(out), (std::vector<int>{kOk, kPrecondition, kInvalid, kOk,
                                          kInvalid, kInvalid, kOk}));
  EXPECT_NE(out.results(4).message().find("repeats item 0"), std::string::npos)
      << out.results(4).message();
  // Three events, one per item decided; the answers carry their
  // transactions and, as Transfer's, the paying player's balance after.
  EXPECT_EQ(Events(), events + 3);
  EXPECT_EQ(out.results(0).transaction().balance_minor(), 700);
  EXPECT_FALSE(out.results(0).transaction().tx().tx_id().empty());
  EXPECT_FALSE(out.results(1).has_transaction());
  EXPECT_EQ(Available("ana"), 800);
  EXPECT_EQ(Available("bob"), 600);
}

TEST_F(WalletBatchTest, AReplayedBatchAnswersEveryItemAsBefore) {
  const std::vector<v1::TransferRequest> items = {
      BuyIn("r1", "ana", 300), BuyIn("r2", "ana", 5'000),
      Payout("r3", "ana", 300), BuyIn("r1", "ana", 7)};
  v1::TransferBatchResponse first;
  ASSERT_TRUE(Batch(items, &first).ok());
  const int64_t events = Events();
  for (bool restart : {false, true}) {
    SCOPED_TRACE(restart ? "after a restart" : "live");
    if (restart) RestartServer();
    v1::TransferBatchResponse again;
    ASSERT_TRUE(Batch(items, &again).ok());
    EXPECT_EQ(Codes(again), Codes(first));
    for (int i = 0; i < again.results_size(); ++i) {
      EXPECT_EQ(again.results(i).transaction().tx().tx_id(),
                first.results(i).transaction().tx().tx_id());
    }
    EXPECT_EQ(Events(), events);
    EXPECT_EQ(Available("ana"), 1'000);
  }
}

TEST_F(WalletBatchTest, AnItemIsATransferUnderTheSameRequestId) {
  v1::TransferBatchResponse out;
  ASSERT_TRUE(Batch({BuyIn("same", "ana", 300)}, &out).ok());
  ASSERT_EQ(out.results(0).code(), kOk);
  const int64_t events = Events();
  // The single call with the same id and body is a retry of the item.
  v1::TransactionResponse single;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->Transfer(&ctx, BuyIn("same", "ana", 300), &single).ok());
  EXPECT_EQ(single.tx().tx_id(), out.results(0).transaction().tx().tx_id());
  // The same id for another body is refused, in a batch as alone.
  v1::TransferBatchResponse other;
  ASSERT_TRUE(Batch({BuyIn("same", "ana", 301)}, &other).ok());
  EXPECT_EQ(other.results(0).code(),
            static_cast<int>(StatusCode::ALREADY_EXISTS));
  EXPECT_EQ(Events(), events);
}

TEST_F(WalletBatchTest, CallersWithoutTheRightAreRefusedWhole) {
  const int64_t events = Events();
  const std::vector<v1::TransferRequest> items = {BuyIn("x1", "ana", 1)};
  v1::TransferBatchResponse out;
  // No token at all (a plain channel).
  auto raw = v1::WalletService::NewStub(grpc::CreateChannel(
      server_->target(), grpc::InsecureChannelCredentials()));
  v1::TransferBatchRequest r;
  *r.add_items() = items[0];
  grpc::ClientContext ctx;
  EXPECT_EQ(raw->TransferBatch(&ctx, r, &out).error_code(),
            StatusCode::UNAUTHENTICATED);
  // A player, for itself or for another player, and the roles that never
  // transfer.
  for (const std::string& token :
       {TestToken(Role::kPlayer, "ana"), TestToken(Role::kPlayer, "bob"),
        TestToken(Role::kFinance, "fin"), TestToken(Role::kAuditor, "aud"),
        TestToken(Role::kGateway, "gw")}) {
    out.Clear();
    const grpc::Status s = Batch(items, &out, token);
    EXPECT_EQ(s.error_code(), StatusCode::PERMISSION_DENIED)
        << s.error_message();
    EXPECT_EQ(out.results_size(), 0);
  }
  EXPECT_EQ(Events(), events);
}

TEST_F(WalletBatchTest, EachItemIsCheckedForItsRuleAndAsker) {
  const int64_t events = Events();
  v1::TransferRequest adjustment = Move("a1", "house/bank", "player/ana/cash",
                                        50, v1::POSTING_REASON_ADJUSTMENT);
  adjustment.mutable_reference()->set_kind(v1::REFERENCE_KIND_OPERATOR);
  const std::vector<v1::TransferRequest> items = {BuyIn("a0", "ana", 10),
                                                  adjustment};
  // The table service settles, but makes no operator's adjustment.
  v1::TransferBatchResponse out;
  ASSERT_TRUE(Batch(items, &out).ok());
  EXPECT_EQ(Codes(out), (std::vector<int>{kOk, kDenied}));
  // The payment service passes the gate (a service) and moves nothing.
  out.Clear();
  ASSERT_TRUE(Batch(items, &out, TestToken(Role::kService, "payments")).ok());
  EXPECT_EQ(Codes(out), (std::vector<int>{kDenied, kDenied}));
  // An operator makes the adjustment but no table's buy-in.
  out.Clear();
  ASSERT_TRUE(Batch(items, &out, TestToken(Role::kOperator, "op")).ok());
  EXPECT_EQ(Codes(out), (std::vector<int>{kDenied, kOk}));
  EXPECT_EQ(Events(), events + 2);
  EXPECT_EQ(Available("ana"), 1'040);
}

TEST_F(WalletBatchTest, EmptyAndOversizeBatchesAreRefusedWhole) {
  const int64_t events = Events();
  v1::TransferBatchResponse out;
  EXPECT_EQ(Batch({}, &out).error_code(), StatusCode::INVALID_ARGUMENT);
  v1::TransferBatchRequest over;
  for (int i = 0; i <= wallet::kMaxTransferBatchItems; ++i) {
    *over.add_items() = BuyIn(absl::StrCat("o", i), "ana", 1);
  }
  grpc::Status s = Send(over, &out);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << s.error_message();
  // Over the server's receive limit: refused before it is parsed.
  v1::TransferBatchRequest huge;
  *huge.add_items() = BuyIn("h1", "ana", 1);
  AddUnknownField(*huge.mutable_items(0), edge::kMaxReceiveMessageBytes);
  s = Send(huge, &out);
  EXPECT_EQ(s.error_code(), StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(Events(), events);
  // A full batch is taken: buy-ins and payouts in pairs.
  v1::TransferBatchRequest full;
  for (int i = 0; i < wallet::kMaxTransferBatchItems; ++i) {
    *full.add_items() = i % 2 == 0 ? BuyIn(absl::StrCat("f", i), "ana", 1)
                                   : Payout(absl::StrCat("f", i), "ana", 1);
  }
  s = Send(full, &out);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(out.results_size(), wallet::kMaxTransferBatchItems);
  for (const auto& r : out.results()) ASSERT_EQ(r.code(), kOk) << r.message();
  EXPECT_EQ(Events(), events + wallet::kMaxTransferBatchItems);
  EXPECT_EQ(Available("ana"), 1'000);
}

TEST_F(WalletBatchTest, UnknownFieldsAndInternalIdsReachNoEvent) {
  const int64_t events = Events();
  v1::TransferRequest padded = BuyIn("u1", "ana", 5);
  AddUnknownField(*padded.mutable_reference(), 200'000);
  AddUnknownField(padded, 20'000, kUnknownField + 1);
  // A saga step's id is the client's own id under its namespace; an id
  // with a space is no id.
  const std::vector<v1::TransferRequest> items = {
      padded, BuyIn("table/t1/buyin/1/hold", "ana", 5),
      BuyIn("bad id", "ana", 5), BuyIn(std::string(129, 'x'), "ana", 5)};
  v1::TransferBatchResponse out;
  ASSERT_TRUE(Batch(items, &out).ok());
  EXPECT_EQ(Codes(out), (std::vector<int>{kOk, kOk, kInvalid, kInvalid}));
  EXPECT_EQ(Events(), events + 2);
  EXPECT_LT(LargestRecord(server_->log(), wire::kWalletTopic),
            kSmallRecordBytes);
  // The saga-like id was recorded under the caller's namespace.
  bool namespaced = false;
  auto& log = server_->log();
  const std::string topic(wire::kWalletTopic);
  for (int p = 0; p < log.PartitionCount(topic).value_or(0); ++p) {
    absl::StatusOr<std::vector<eventlog::StoredRecord>> records =
        log.Read(topic, p, 0, 10'000);
    ASSERT_TRUE(records.ok()) << records.status();
    for (const auto& rec : *records) {
      auto decoded = wire::DecodeWalletRecord(rec);
      ASSERT_TRUE(decoded.ok());
      EXPECT_NE(decoded->event.request_id(), "table/t1/buyin/1/hold");
      namespaced |= decoded->event.request_id() ==
                    "client/service:table/table/t1/buyin/1/hold";
    }
  }
  EXPECT_TRUE(namespaced);
}

TEST_F(WalletBatchTest, TheAuditIsCleanAfterABatchWorkload) {
  // Settlements of 4 players over a few batches, with refusals between.
  for (const char* p : {"p0", "p1", "p2", "p3"}) FundPlayer(*stub_, p, 10'000);
  int n = 0;
  for (int batch = 0; batch < 5; ++batch) {
    std::vector<v1::TransferRequest> items;
    for (int i = 0; i < 400; ++i) {
      const std::string p = absl::StrCat("p", i % 4);
      const int64_t amount = 1 + (i * 37) % 500;
      items.push_back(BuyIn(absl::StrCat("w", n++), p, amount));
      items.push_back(Payout(absl::StrCat("w", n++), p, amount - i % 2));
      if (i % 50 == 0)
        items.push_back(BuyIn(absl::StrCat("w", n++), p, 1'000'000));
    }
    v1::TransferBatchResponse out;
    ASSERT_TRUE(Batch(items, &out).ok());
  }
  const int64_t events = Events();
  stub_.reset();
  ASSERT_TRUE(server_->Stop().ok());
  server_.reset();
  auto audit = audit::VerifyDataDir(dir_);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_TRUE(audit->ok()) << audit::FormatAuditReport(*audit);
  EXPECT_EQ(audit->live_hash, audit->rebuilt_hash);
  // The log replays into the same ledger.
  StartServer();
  EXPECT_EQ(Events(), events);
  EXPECT_EQ(
      Available("p0") + Available("p1") + Available("p2") + Available("p3"),
      40'000 - 5 * 200);
}

}  // namespace
}  // namespace banca::testing
