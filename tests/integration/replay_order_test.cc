// Replay accepts every history the live system accepted (issue 17, item 3).
//
// The wallet replays its topic partition by partition, not in the order the
// ledger decided the events. A hot-account stripe or a player's cash that
// money flows through in both directions stays small live, but read one
// partition at a time it can pass int64 on the way: the old replay refused
// that ("balance overflows") and the data directory no longer started. Here
// the data directory is built with the wallet's own encoder, as a live
// wallet would have written it, and the wallet is started over it.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "banca/v1/ledger.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/eventlog/log_backend.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"
#include "libs/wire/topics.h"
#include "services/audit/audit.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

constexpr int64_t kBig = 1'000'000'000'000'000;  // 10^15: the largest posting

// Writes wallet events to the wallet topic of an embedded log, as the
// wallet appends them: one stream per owner, sequences 1, 2, 3 ...
class HistoryWriter {
 public:
  explicit HistoryWriter(const std::string& dir) {
    auto log = eventlog::OpenLogBackend("embedded", dir);
    EXPECT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
    EXPECT_TRUE(log_->EnsureTopic({std::string(wire::kWalletTopic),
                                   wire::kDefaultWalletPartitions})
                    .ok());
  }
  ~HistoryWriter() { Flush(); }

  void Open(const std::string& player) {
    v1::WalletEvent event;
    event.mutable_account_opened()->set_player_id(player);
    event.mutable_account_opened()->set_currency("EUR");
    Add(ledger::PlayerOwner(player), std::move(event));
  }
  // One transaction on `owner`'s stream, moving `amount` from one account
  // to another.
  void Move(const std::string& owner, v1::PostingReason reason,
            const std::string& from, const std::string& to, int64_t amount) {
    v1::WalletEvent event;
    v1::LedgerTransaction& tx =
        *event.mutable_transaction_posted()->mutable_tx();
    tx.set_reason(reason);
    tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_OPERATOR);
    tx.mutable_reference()->set_id("replay-order");
    tx.set_currency("EUR");
    auto* debit = tx.add_postings();
    debit->set_account(from);
    debit->set_amount_minor(-amount);
    auto* credit = tx.add_postings();
    credit->set_account(to);
    credit->set_amount_minor(amount);
    Add(owner, std::move(event));
  }
  void Flush() {
    if (pending_.empty()) return;
    auto appended = log_->Append(std::move(pending_));
    EXPECT_TRUE(appended.ok()) << appended.status();
    pending_.clear();
  }
  // Closes the log so a wallet can open the directory.
  void Close() {
    Flush();
    log_.reset();
  }

 private:
  void Add(const std::string& owner, v1::WalletEvent event) {
    const std::string stream = ledger::Ledger::StreamFor(owner);
    const uint64_t sequence = ++sequences_[stream];
    if (event.has_transaction_posted()) {
      event.mutable_transaction_posted()->mutable_tx()->set_tx_id(
          absl::StrCat(stream, "#", sequence));
    }
    event.set_request_id(absl::StrCat("history-", ++requests_));
    event.set_request_fingerprint("fp");
    wire::WalletEventContext context;
    context.occurred_at_micros = 1'700'000'000'000'000 + requests_;
    pending_.push_back(wire::EncodeWalletRecord(
        ledger::Committed{stream, sequence, event}, context));
    if (pending_.size() == eventlog::kMaxBatchRecords) Flush();
  }

  std::unique_ptr<eventlog::EventLog> log_;
  std::vector<eventlog::Record> pending_;
  absl::flat_hash_map<std::string, uint64_t> sequences_;
  int64_t requests_ = 0;
};

int PartitionOf(const std::string& owner) {
  return eventlog::PartitionForKey(ledger::Ledger::StreamFor(owner),
                                   wire::kDefaultWalletPartitions);
}

int StripeOf(const std::string& owner) {
  return ledger::Ledger::HotStripeFor(owner,
                                      ledger::LedgerOptions{}.hot_stripes);
}

// Two players whose streams are in different partitions of the wallet topic
// but whose postings on a hot account land in the same stripe of it.
std::pair<std::string, std::string> PlayersOnOneStripeTwoPartitions() {
  for (int a = 0; a < 1000; ++a) {
    for (int b = a + 1; b < 1000; ++b) {
      const std::string pa = absl::StrCat("p", a), pb = absl::StrCat("p", b);
      const std::string oa = ledger::PlayerOwner(pa);
      const std::string ob = ledger::PlayerOwner(pb);
      if (PartitionOf(oa) != PartitionOf(ob) && StripeOf(oa) == StripeOf(ob)) {
        return {pa, pb};
      }
    }
  }
  ADD_FAILURE() << "no two players on one stripe and two partitions";
  return {};
}

int64_t Available(v1::WalletService::Stub& stub, const std::string& player) {
  v1::GetBalanceRequest req;
  req.set_player_id(player);
  v1::BalanceResponse resp;
  grpc::ClientContext ctx;
  const grpc::Status s = stub.GetBalance(&ctx, req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp.available_minor();
}

constexpr char kRingSeat[] = "table/ring/seat/bob";

// `rounds` times: ana pays the house 10^15 (on ana's stream), the house
// pays bob 10^15 (on bob's stream) and bob pays ana 10^15 through a table
// seat (on bob's stream, then the seat's). Live, every
// balance stays within [-10^15, 10^15]; replayed one partition after the
// other, ana's cash and the house's stripe each pass int64 on the way
// (rounds × 10^15 > 9.2 × 10^18).
void WriteRoundTrips(HistoryWriter& history, const std::string& ana,
                     const std::string& bob, int rounds) {
  const std::string ana_owner = ledger::PlayerOwner(ana);
  const std::string bob_owner = ledger::PlayerOwner(bob);
  const std::string ana_cash = ledger::PlayerCashAccount(ana);
  const std::string bob_cash = ledger::PlayerCashAccount(bob);
  history.Open(ana);
  history.Open(bob);
  history.Move(ana_owner, v1::POSTING_REASON_DEPOSIT, "external/payments",
               ana_cash, kBig);
  for (int i = 0; i < rounds; ++i) {
    history.Move(ana_owner, v1::POSTING_REASON_ADJUSTMENT, ana_cash,
                 "house/bank", kBig);
    history.Move(bob_owner, v1::POSTING_REASON_PAYOUT, "house/bank", bob_cash,
                 kBig);
    // Player to player only through a table (libs/ledger/posting_rules.h).
    history.Move(bob_owner, v1::POSTING_REASON_BUY_IN, bob_cash, kRingSeat,
                 kBig);
    history.Move(kRingSeat, v1::POSTING_REASON_TABLE_CASH_OUT, kRingSeat,
                 ana_cash, kBig);
  }
}

wallet::WalletOptions KeyedOptions() {
  wallet::WalletOptions options;
  options.verifier = TestVerifier();
  return options;
}

TEST(ReplayOrder, HistoryThatPassesInt64PartitionByPartitionStartsExactly) {
  const std::string dir = FreshDir("replay_order_exact");
  const auto [ana, bob] = PlayersOnOneStripeTwoPartitions();
  ASSERT_FALSE(ana.empty());
  constexpr int kRounds = 9'300;  // 9,300 × 10^15 > INT64_MAX ≈ 9.22 × 10^18
  {
    HistoryWriter history(dir);
    WriteRoundTrips(history, ana, bob, kRounds);
    history.Close();
  }

  auto server = wallet::LocalWalletServer::Start(dir, KeyedOptions());
  ASSERT_TRUE(server.ok()) << server.status();
  const ledger::Ledger& ledger = (*server)->wallet().ledger();
  EXPECT_EQ(ledger.AccountBalance(ledger::PlayerCashAccount(ana)), kBig);
  EXPECT_EQ(ledger.AccountBalance(ledger::PlayerCashAccount(bob)), 0);
  EXPECT_EQ(ledger.AccountBalance("house/bank"), 0);
  EXPECT_EQ(ledger.AccountBalance("external/payments"), -kBig);
  EXPECT_EQ(ledger.Summarize().sum, 0);
  auto stub = v1::WalletService::NewStub(edge::AuthorizedChannel(
      (*server)->target(), *edge::BackOfficeTokens(TestSigningKey(), "test")));
  EXPECT_EQ(Available(*stub, ana), kBig);
  EXPECT_EQ(Available(*stub, bob), 0);
  stub.reset();
  ASSERT_TRUE((*server)->Stop().ok());
  server->reset();

  // It restarts (its projection now caught up), and the auditor's replay
  // agrees, and so does the projection.
  auto again = wallet::LocalWalletServer::Start(dir, KeyedOptions());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->wallet().ledger().AccountBalance(
                ledger::PlayerCashAccount(ana)),
            kBig);
  ASSERT_TRUE((*again)->Stop().ok());
  again->reset();
  auto audit = audit::VerifyDataDir(dir);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_TRUE(audit->ok()) << audit::FormatAuditReport(*audit);
  EXPECT_EQ(audit->ledger.sum, 0);
}

TEST(ReplayOrder, FinalStatePastTheBalanceCapRefusesToStart) {
  const std::string dir = FreshDir("replay_order_past_cap");
  const auto [ana, bob] = PlayersOnOneStripeTwoPartitions();
  ASSERT_FALSE(ana.empty());
  {
    HistoryWriter history(dir);
    history.Open(ana);
    // 101 deposits of 10^15: ana ends at 1.01 × 10^17, past the cap of
    // 10^17 that every decision keeps (a history no live wallet accepts).
    for (int i = 0; i < 101; ++i) {
      history.Move(ledger::PlayerOwner(ana), v1::POSTING_REASON_DEPOSIT,
                   "external/payments", ledger::PlayerCashAccount(ana), kBig);
    }
    history.Close();
  }
  auto server = wallet::LocalWalletServer::Start(dir, KeyedOptions());
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().code(), absl::StatusCode::kDataLoss)
      << server.status();
  EXPECT_TRUE(absl::StrContains(server.status().message(),
                                ledger::PlayerCashAccount(ana)))
      << server.status();
  // The auditor's replay refuses it the same way.
  auto audit = audit::VerifyDataDir(dir);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_FALSE(audit->ok());
  EXPECT_TRUE(absl::StrContains(audit::FormatAuditReport(*audit),
                                "past the balance limit"))
      << audit::FormatAuditReport(*audit);
}

}  // namespace
}  // namespace banca::testing
