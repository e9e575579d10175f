#include "tools/banca/banked_audit.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/eventlog/embedded_log.h"
#include "services/table/banked_codec.h"
#include "services/table/banked_settlement.h"
#include "services/wallet/banked_requests.h"
#include "services/wallet/wallet_events.h"

namespace banca::cli {
namespace {

// A log written by hand on the embedded backend: one table's events on
// banca.banked.events and what the wallet did about them on
// banca.wallet.events, so each test can leave out, repeat or spoil one
// step.
class BankedAuditTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(
        ::testing::TempDir(), "/banked_audit_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    auto log = eventlog::OpenEmbeddedLog(dir_);
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
    ASSERT_TRUE(log_->EnsureTopic({std::string(table::kBankedTopic), 2}).ok());
    ASSERT_TRUE(log_->EnsureTopic({std::string(wallet::kWalletTopic), 2}).ok());
  }

  // Appends a table event; returns its event id.
  std::string Table(v1::BankedTableEvent e) {
    e.set_table_id("t1");
    table::BankedEventContext ctx;
    ctx.producer = "table";
    auto appended =
        log_->Append({table::EncodeBankedRecord(e, ++table_sequence_, ctx)});
    EXPECT_TRUE(appended.ok()) << appended.status();
    return absl::StrCat("banked/t1#", table_sequence_);
  }
  // The wallet posts `tx` under `request_id`.
  void Posted(const std::string& request_id, const v1::LedgerTransaction& tx) {
    v1::WalletEvent e;
    e.set_request_id(request_id);
    *e.mutable_transaction_posted()->mutable_tx() = tx;
    Wallet(e);
  }
  void Wallet(const v1::WalletEvent& e) {
    const std::string stream = "wallet/player/ana";
    auto appended = log_->Append({wallet::EncodeWalletRecord(
        ledger::Committed{stream, ++wallet_sequence_, e}, {})});
    EXPECT_TRUE(appended.ok()) << appended.status();
  }
  // The wallet has read the banked topic up to its end.
  void WalletReadAll() {
    std::vector<eventlog::OffsetCommit> commits;
    for (int p = 0; p < 2; ++p) {
      commits.push_back({std::string(wallet::kBankedRequestsGroup),
                         std::string(table::kBankedTopic), p,
                         *log_->EndOffset(table::kBankedTopic, p)});
    }
    ASSERT_TRUE(log_->CommitOffsets(std::move(commits)).ok());
  }

  // A round of one bet: created, the stake requested (and captured), the
  // round settled. Returns the settlement's event id.
  std::string Round() {
    v1::BankedTableEvent created;
    created.mutable_created()->set_table_id("t1");
    created.mutable_created()->set_game(v1::BANKED_GAME_ROULETTE_FRENCH);
    Table(created);
    v1::BankedTableEvent stake;
    v1::StakeRequested* r = stake.mutable_stake_requested();
    r->set_saga_id("banked/t1/stake/1");
    r->set_player_id("ana");
    r->set_bet_id("b1");
    r->set_round(1);
    r->set_stake_minor(1'000);
    *r->mutable_tx() = *table::StakeTransaction(bet_);
    Table(stake);
    v1::BankedTableEvent captured;
    captured.mutable_stake_captured()->set_saga_id("banked/t1/stake/1");
    Table(captured);
    v1::BankedTableEvent money;
    money.mutable_money()->set_round(1);
    money.mutable_money()->set_cause("settled");
    *money.mutable_money()->add_transactions() = Settle();
    return Table(money);
  }
  v1::LedgerTransaction Stake() const { return *table::StakeTransaction(bet_); }
  v1::LedgerTransaction Settle() const {
    return *table::SettleTransaction(bet_, 3'600);
  }
  static std::string StakeId() {
    return wallet::BankedStakeRequestId("banked/t1/stake/1");
  }

  absl::StatusOr<BankedAuditReport> Audit() { return AuditBankedTopic(*log_); }
  static bool Mentions(const BankedAuditReport& r, const std::string& what) {
    for (const std::string& p : r.problems) {
      if (p.find(what) != std::string::npos) return true;
    }
    return false;
  }

  const table::BankedBet bet_{"roulette_french", "t1", 1, "ana", "b1", 1'000};
  std::string dir_;
  std::unique_ptr<eventlog::EventLog> log_;
  uint64_t table_sequence_ = 0;
  uint64_t wallet_sequence_ = 0;
};

TEST_F(BankedAuditTest, EveryRequestCarriedOutOnceIsClean) {
  const std::string settled = Round();
  Posted(StakeId(), Stake());
  Posted(wallet::BankedMoneyRequestId(settled, 0), Settle());
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << report->problems.front();
  EXPECT_EQ(report->events, 4);
  EXPECT_EQ(report->tables, 1);
  EXPECT_EQ(report->stakes, 1);
  EXPECT_EQ(report->transactions, 1);
  EXPECT_EQ(report->carried_out, 2);
  EXPECT_EQ(report->pending, 0);
}

TEST_F(BankedAuditTest, MissingSettlementIsReported) {
  const std::string settled = Round();
  Posted(StakeId(), Stake());
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->problems.size(), 1u);
  EXPECT_TRUE(Mentions(*report, "missing in the wallet"));
  EXPECT_TRUE(Mentions(*report, wallet::BankedMoneyRequestId(settled, 0)));
}

TEST_F(BankedAuditTest, NotYetReadByTheWalletIsPendingNotMissing) {
  Round();
  auto report = Audit();  // the wallet has read nothing
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok());
  EXPECT_EQ(report->pending, 2);
  EXPECT_EQ(report->carried_out, 0);
}

TEST_F(BankedAuditTest, DoubledStakeIsReported) {
  const std::string settled = Round();
  Posted(StakeId(), Stake());
  Posted(StakeId(), Stake());
  Posted(wallet::BankedMoneyRequestId(settled, 0), Settle());
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->problems.size(), 1u);
  EXPECT_TRUE(Mentions(*report, "carried out 2 times"));
  EXPECT_TRUE(Mentions(*report, StakeId()));
}

TEST_F(BankedAuditTest, RefusedStakeCountsButRefusedSettlementDoesNot) {
  const std::string settled = Round();
  v1::WalletEvent rejected;
  rejected.set_request_id(StakeId());
  rejected.mutable_request_rejected()->set_code("FAILED_PRECONDITION");
  Wallet(rejected);
  rejected.set_request_id(wallet::BankedMoneyRequestId(settled, 0));
  Wallet(rejected);
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->carried_out, 1);
  ASSERT_EQ(report->problems.size(), 1u);
  EXPECT_TRUE(Mentions(*report, "the wallet refused transaction 0"));
}

TEST_F(BankedAuditTest, UnbalancedSettlementAndOtherPostingsAreReported) {
  Round();
  v1::BankedTableEvent money;
  money.mutable_money()->set_round(1);
  money.mutable_money()->set_cause("settled");
  v1::LedgerTransaction bad = Settle();
  bad.mutable_postings(0)->set_amount_minor(bad.postings(0).amount_minor() + 1);
  *money.mutable_money()->add_transactions() = bad;
  const std::string id = Table(money);
  Posted(wallet::BankedMoneyRequestId(id, 0), Settle());  // not what was asked
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, "does not balance (sum 1)"));
  EXPECT_TRUE(Mentions(*report, "with other postings"));
}

TEST_F(BankedAuditTest, UndecodableRecordAndUnrequestedPostingAreReported) {
  Round();
  eventlog::Record junk;
  junk.topic = std::string(table::kBankedTopic);
  junk.key = "banked/t1";
  junk.value = "not an envelope";
  ASSERT_TRUE(log_->Append({junk}).ok());
  Posted("banked/t9/stake/7/stake", Stake());
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->events, 5);
  EXPECT_TRUE(Mentions(*report, "banca.banked.events/"));
  EXPECT_TRUE(Mentions(*report, "which no banked event asks for"));
}

}  // namespace
}  // namespace banca::cli
