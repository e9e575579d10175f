#include "services/audit/banked_audit.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/ownership.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "services/audit/audit_test_log.h"

namespace banca::audit {
namespace {

// One table's events on banca.banked.events and what the wallet did about
// them (audit_test_log.h).
class BankedAuditTest : public AuditLogTest {
 protected:
  BankedAuditTest() : AuditLogTest(wire::kBankedTableTopics) {}

  std::string Table(v1::BankedTableEvent e) {
    return AuditLogTest::Table(std::move(e), &wire::AppendBankedRecords);
  }

  // The table's events, as the service writes them (the audit replays them
  // through the roulette table, so they must make sense to it).
  void Created() {
    v1::BankedTableEvent created;
    created.set_at_micros(At(0));
    created.mutable_created()->set_table_id("t1");
    created.mutable_created()->set_game(v1::BANKED_GAME_ROULETTE_FRENCH);
    Table(created);
    v1::BankedTableEvent joined;
    joined.set_at_micros(At(0));
    joined.mutable_joined()->set_player_id("ana");
    Table(joined);
  }
  // Ana's next stake, 1,000 on red in `round` (bet b<n>, saga <n>);
  // returns the saga's wallet request id.
  std::string StakeOn(int64_t round, bool captured = true) {
    ++stakes_;
    const settlement::BankedBet bet = BetOf(round);
    v1::BankedTableEvent stake;
    stake.set_at_micros(Later(1));
    v1::StakeRequested* r = stake.mutable_stake_requested();
    r->set_saga_id(absl::StrCat("banked/t1/stake/", stakes_));
    r->set_player_id("ana");
    r->set_bet_id(bet.bet_id);
    r->set_round(round);
    r->set_stake_minor(bet.stake);
    r->mutable_roulette()->set_kind("red");
    *r->mutable_tx() = *settlement::StakeTransaction(bet);
    Table(stake);
    v1::BankedTableEvent answer;
    answer.set_at_micros(Later(0));
    if (captured) {
      answer.mutable_stake_captured()->set_saga_id(r->saga_id());
    } else {
      answer.mutable_stake_refused()->set_saga_id(r->saga_id());
      answer.mutable_stake_refused()->set_reason("no funds");
    }
    Table(answer);
    return wire::StakeRequestId(r->saga_id());
  }
  // The ball of `round` (3, red), after its window.
  void Spin(int64_t round) {
    v1::BankedTableEvent spin;
    spin.set_at_micros(Later(40));  // the 30 s window is over
    spin.mutable_spin()->set_round(round);
    spin.mutable_spin()->set_number("3");
    spin.mutable_spin()->set_revolutions(10);
    Table(spin);
  }
  // The operator voids `round` while it takes bets.
  void Void(int64_t round) {
    v1::BankedTableEvent v;
    v.set_at_micros(Later(1));
    v.mutable_void_requested()->set_round(round);
    Table(v);
  }
  // A BankedMoney event of `cause` with `txs`; returns its event id.
  std::string Money(int64_t round, const std::string& cause,
                    std::vector<v1::LedgerTransaction> txs) {
    v1::BankedTableEvent money;
    money.set_at_micros(Later(0));
    money.mutable_money()->set_round(round);
    money.mutable_money()->set_cause(cause);
    for (v1::LedgerTransaction& tx : txs) {
      *money.mutable_money()->add_transactions() = std::move(tx);
    }
    return Table(money);
  }
  // The table's clock, `seconds` after its previous event.
  int64_t Later(int64_t seconds) {
    seconds_ += seconds;
    return At(seconds_);
  }
  static int64_t At(int64_t seconds) {
    return 1'767'225'600'000'000 + seconds * 1'000'000;
  }
  // Ana's bet b<n> (the n-th stake) in `round`.
  settlement::BankedBet BetOf(int64_t round) const {
    return {"roulette_french",          "t1", round, "ana",
            absl::StrCat("b", stakes_), 1'000};
  }

  // A round of one bet: created, the stake requested (and captured), the
  // ball, the round settled. Returns the settlement's event id.
  std::string Round() {
    Created();
    StakeOn(1);
    Spin(1);
    return Money(1, "settled", {Settle()});
  }
  // The tables have read every answer the wallet gave so far.
  void TablesReadAll() {
    ReadToEnd(std::string(wire::kBankedStakeOutcomesGroup), wire::kWalletTopic);
  }
  v1::LedgerTransaction Stake() const {
    return *settlement::StakeTransaction(bet_);
  }
  v1::LedgerTransaction Settle() const {
    return *settlement::SettleTransaction(bet_, 3'600);
  }
  static std::string StakeId() {
    return wire::StakeRequestId("banked/t1/stake/1");
  }

  absl::StatusOr<BankedAuditReport> Audit() { return AuditBankedTopic(*log_); }

  const settlement::BankedBet bet_{
      "roulette_french", "t1", 1, "ana", "b1", 1'000};
  int stakes_ = 0;
  int64_t seconds_ = 0;
};

TEST_F(BankedAuditTest, EveryRequestCarriedOutOnceIsClean) {
  const std::string settled = Round();
  Posted(StakeId(), Stake());
  Posted(wire::BankedMoneyRequestId(settled, 0), Settle());
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << ProblemLines(report->problems);
  EXPECT_EQ(report->events, 6);
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
  EXPECT_TRUE(Mentions(*report, wire::BankedMoneyRequestId(settled, 0)));
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
  Posted(wire::BankedMoneyRequestId(settled, 0), Settle());
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
  rejected.set_request_id(wire::BankedMoneyRequestId(settled, 0));
  Wallet(rejected);
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->carried_out, 1);
  // And the table settled a stake the wallet refused.
  ASSERT_EQ(report->problems.size(), 2u);
  EXPECT_TRUE(Mentions(*report, "the wallet refused transaction 0"));
  EXPECT_TRUE(Mentions(*report, "whose stake the wallet never captured"));
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
  Posted(wire::BankedMoneyRequestId(id, 0), Settle());  // not what was asked
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, "does not balance (sum 1)"));
  EXPECT_TRUE(Mentions(*report, "with other postings"));
}

TEST_F(BankedAuditTest, UndecodableRecordAndUnrequestedPostingAreReported) {
  Round();
  eventlog::Record junk;
  junk.topic = std::string(wire::kBankedTopic);
  junk.key = "banked/t1";
  junk.value = "not an envelope";
  ASSERT_TRUE(log_->Append({junk}).ok());
  Posted("banked/t9/stake/7/stake", Stake());
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->events, 7);
  EXPECT_TRUE(Mentions(*report, "banca.banked.events/"));
  EXPECT_TRUE(Mentions(*report, "which no banked event asks for"));
}

// Stakes against their endings --------------------------------------

// Round 1 settled, round 2 void, round 3 still taking bets when the log
// ends: every captured stake of a finished round ended once; round 3's is
// open, not a problem.
TEST_F(BankedAuditTest, SettledVoidAndOpenRoundsAreCleanAndTheOpenOneIsOpen) {
  Created();
  const std::string s1 = StakeOn(1);
  const settlement::BankedBet b1 = BetOf(1);
  Spin(1);
  const v1::LedgerTransaction won = *settlement::SettleTransaction(b1, 2'000);
  const std::string settled = Money(1, "settled", {won});
  const std::string s2 = StakeOn(2);
  const settlement::BankedBet b2 = BetOf(2);
  Void(2);
  const v1::LedgerTransaction refund = *settlement::VoidRefundTransaction(b2);
  const std::string voided = Money(2, "void", {refund});
  const std::string s3 = StakeOn(3);
  Posted(s1, *settlement::StakeTransaction(b1));
  Posted(wire::BankedMoneyRequestId(settled, 0), won);
  Posted(s2, *settlement::StakeTransaction(b2));
  Posted(wire::BankedMoneyRequestId(voided, 0), refund);
  Posted(s3, *settlement::StakeTransaction(BetOf(3)));
  WalletReadAll();
  TablesReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << ProblemLines(report->problems);
  EXPECT_EQ(report->stakes, 3);
  EXPECT_EQ(report->stakes_ended, 2);
  EXPECT_EQ(report->stakes_open, 1);
  EXPECT_EQ(report->open_rounds, std::vector<std::string>{"t1.r3"});
}

// The settlement of a finished round taken out of the log: the wallet's
// books agree with what is left (nothing asked, nothing posted), but the
// stake it captured never came back out of the wagers.
TEST_F(BankedAuditTest, CapturedStakeWhoseSettlementIsMissingIsReported) {
  Created();
  const std::string s1 = StakeOn(1);
  Posted(s1, *settlement::StakeTransaction(BetOf(1)));
  Spin(1);  // round 1 is over: the table takes round 2's bets
  WalletReadAll();
  TablesReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->problems.size(), 1u) << report->problems.front();
  EXPECT_TRUE(Mentions(*report, "never settled or refunded"));
  EXPECT_TRUE(Mentions(*report, "round t1.r1 is over"));
  EXPECT_EQ(report->stakes_open, 0);
  EXPECT_TRUE(report->open_rounds.empty());
}

TEST_F(BankedAuditTest, SecondSettlementOfOneStakeIsReported) {
  Created();
  const std::string s1 = StakeOn(1);
  const settlement::BankedBet b1 = BetOf(1);
  Spin(1);
  const v1::LedgerTransaction won = *settlement::SettleTransaction(b1, 2'000);
  const std::string first = Money(1, "settled", {won});
  const std::string second = Money(1, "settled", {won});  // tampered in
  Posted(s1, *settlement::StakeTransaction(b1));
  Posted(wire::BankedMoneyRequestId(first, 0), won);
  Posted(wire::BankedMoneyRequestId(second, 0), won);
  WalletReadAll();
  TablesReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->problems.size(), 1u) << report->problems.front();
  EXPECT_TRUE(Mentions(*report, "ends bet b1 of round t1.r1 a second time"));
  EXPECT_TRUE(Mentions(*report, second));
  EXPECT_EQ(report->stakes_ended, 1);
}

TEST_F(BankedAuditTest, SettlementOfAStakeTheWalletRefusedIsReported) {
  Created();
  const std::string s1 = StakeOn(1, /*captured=*/false);
  v1::WalletEvent rejected;
  rejected.set_request_id(s1);
  rejected.mutable_request_rejected()->set_code("FAILED_PRECONDITION");
  Wallet(rejected);
  const v1::LedgerTransaction won =
      *settlement::SettleTransaction(BetOf(1), 2'000);
  const std::string settled = Money(1, "settled", {won});
  Posted(wire::BankedMoneyRequestId(settled, 0), won);
  WalletReadAll();
  TablesReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, "whose stake the wallet never captured"));
  EXPECT_EQ(report->stakes_ended, 0);
}

// The wallet captured a stake after the table gave up on it; the table has
// not read that answer yet, so the pay-back is still to come: open.
TEST_F(BankedAuditTest, CaptureTheTableHasNotReadYetIsOpen) {
  Created();
  const std::string s1 = StakeOn(1);
  Spin(1);
  WalletReadAll();
  TablesReadAll();
  Posted(s1, *settlement::StakeTransaction(BetOf(1)));  // after the tables read
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << ProblemLines(report->problems);
  EXPECT_EQ(report->stakes_open, 1);
  EXPECT_EQ(report->open_rounds, std::vector<std::string>{"t1.r1"});
}

// A stake whose request id holds something else (here a hold placed
// under it) can never be carried out: the wallet's reader would stop at it
// or quarantine it. A problem even before the wallet reads it.
TEST_F(BankedAuditTest, AStakeWhoseIdIsTakenIsAProblemBeforeItIsRead) {
  Round();
  v1::WalletEvent hold;
  hold.set_request_id(StakeId());
  hold.mutable_hold_placed()->set_hold_id("ana:1");
  hold.mutable_hold_placed()->set_player_id("ana");
  hold.mutable_hold_placed()->set_amount_minor(1);
  Wallet(hold);
  auto report = Audit();  // the wallet has read nothing
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, "can never be carried out"));
  EXPECT_TRUE(Mentions(*report, StakeId()));
}

// A request the wallet quarantined is not also missing: the wallet topic's
// check reports the quarantine (audit.cc).
TEST_F(BankedAuditTest, AQuarantinedRequestIsNotMissingToo) {
  const std::string settled = Round();
  Posted(StakeId(), Stake());
  // The settlement's copy is the last record the wallet reads.
  const std::string topic(wire::kBankedRequestsTopic);
  int partition = 0;
  int64_t offset = -1;
  for (int p = 0; p < 2; ++p) {
    const int64_t end = *log_->EndOffset(topic, p);
    if (end > 0) {
      partition = p;
      offset = end - 1;
    }
  }
  v1::WalletEvent q;
  q.set_request_id(wire::QuarantineRequestId(topic, partition, offset));
  q.mutable_request_quarantined()->set_topic(topic);
  q.mutable_request_quarantined()->set_partition(partition);
  q.mutable_request_quarantined()->set_offset(offset);
  q.mutable_request_quarantined()->set_code("FAILED_PRECONDITION");
  Wallet(q);
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << ProblemLines(report->problems);
  EXPECT_EQ(report->quarantined, 1);
  EXPECT_EQ(report->carried_out, 1);
  EXPECT_FALSE(Mentions(*report, wire::BankedMoneyRequestId(settled, 0)));
}

// Wallets in a consumer group read with one position per wallet
// partition ("wallet.banked-requests.<p>"): a request before the position
// of the reader that decides it was read, and is missing if not carried
// out.
TEST_F(BankedAuditTest, GroupModeReadersPositionsCount) {
  const std::string settled = Round();
  Posted(StakeId(), Stake());
  const int wagers_partition =
      wire::OwnershipPartition(settlement::WagersAccount("t1"), 2);
  const int ana_partition =
      wire::OwnershipPartition(ledger::PlayerOwner("ana"), 2);
  std::vector<eventlog::OffsetCommit> commits;
  for (int w : {wagers_partition, ana_partition}) {
    for (int p = 0; p < 2; ++p) {
      commits.push_back(
          {absl::StrCat(ToAbsl(wire::kBankedRequestsGroup), ".", w),
           std::string(wire::kBankedRequestsTopic), p,
           *log_->EndOffset(wire::kBankedRequestsTopic, p)});
    }
  }
  ASSERT_TRUE(log_->CommitOffsets(std::move(commits)).ok());
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, "missing in the wallet"));
  EXPECT_TRUE(Mentions(*report, wire::BankedMoneyRequestId(settled, 0)));
  EXPECT_EQ(report->pending, 0);
}

}  // namespace
}  // namespace banca::audit
