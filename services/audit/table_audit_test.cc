#include "services/audit/table_audit.h"

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "libs/ledger/account.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/wire/ownership.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "services/audit/audit_test_log.h"

namespace banca::audit {
namespace {

constexpr char kSaga[] = "table/t1/buyin/1";

// One poker table's requests on banca.table.events and what the wallet did
// about them (audit_test_log.h).
class TableAuditTest : public AuditLogTest {
 protected:
  TableAuditTest() : AuditLogTest(wire::kPokerTableTopics) {}

  std::string Table(v1::TableEvent e) {
    return AuditLogTest::Table(std::move(e), &wire::AppendTableRecords);
  }
  // Ana buys in for 10,000 with `rake` of it to house/rake.
  void BuyIn(int64_t rake = 0) {
    v1::TableEvent e;
    v1::BuyInRequested* r = e.mutable_buy_in_requested();
    r->set_saga_id(kSaga);
    r->set_player_id("ana");
    r->set_seat(1);
    r->set_paid_minor(10'000);
    r->set_rake_minor(rake);
    Table(std::move(e));
  }
  // Hand 1: ana loses 500 to bob, `rake` of the pot to house/rake (the
  // logged rake is `logged_rake`).
  std::vector<v1::LedgerTransaction> Hand(int64_t rake, int64_t logged_rake) {
    v1::TableEvent e;
    v1::HandSettled* h = e.mutable_hand_settled();
    h->set_hand_number(1);
    h->set_hand_id("t1.h1");
    h->set_rake_minor(logged_rake);
    const std::string pot = settlement::PotAccount("t1");
    *h->add_transactions() =
        Tx(v1::POSTING_REASON_POT_CONTRIBUTION,
           {{settlement::SeatAccount("t1", "ana"), -500}, {pot, 500}});
    *h->add_transactions() =
        Tx(v1::POSTING_REASON_POT_AWARD,
           {{pot, -(500 - rake)},
            {settlement::SeatAccount("t1", "bob"), 500 - rake}});
    if (rake > 0) {
      *h->add_transactions() =
          Tx(v1::POSTING_REASON_RAKE,
             {{pot, -rake}, {std::string(settlement::kRakeAccount), rake}});
    }
    std::vector<v1::LedgerTransaction> txs(h->transactions().begin(),
                                           h->transactions().end());
    Table(std::move(e));
    return txs;
  }
  // Bob leaves with 500; returns the cash-out's transaction and request id.
  std::pair<v1::LedgerTransaction, std::string> Leave() {
    v1::TableEvent e;
    e.mutable_player_left()->set_player_id("bob");
    e.mutable_player_left()->set_stack_minor(500);
    const std::string event_id = Table(std::move(e));
    return {*settlement::CashOutTransaction("t1", "bob", 500),
            absl::StrCat(event_id, "/cash-out")};
  }
  static v1::LedgerTransaction Tx(
      v1::PostingReason reason,
      std::vector<std::pair<std::string, int64_t>> postings) {
    v1::LedgerTransaction tx;
    tx.set_reason(reason);
    *tx.mutable_reference() = settlement::HandReference("t1", 1);
    for (auto& [account, amount] : postings) {
      v1::Posting* p = tx.add_postings();
      p->set_account(account);
      p->set_amount_minor(amount);
    }
    return tx;
  }

  void Held(int64_t amount) {
    v1::WalletEvent e;
    e.set_request_id(absl::StrCat(kSaga, "/hold"));
    e.mutable_hold_placed()->set_hold_id("ana:1");
    e.mutable_hold_placed()->set_player_id("ana");
    e.mutable_hold_placed()->set_amount_minor(amount);
    Wallet(e);
  }
  void Captured(const std::string& step, int64_t amount,
                const std::string& to) {
    v1::WalletEvent e;
    e.set_request_id(absl::StrCat(kSaga, "/", step));
    v1::HoldCaptured* c = e.mutable_hold_captured();
    c->set_hold_id("ana:1");
    c->set_amount_minor(amount);
    v1::Posting* debit = c->mutable_tx()->add_postings();
    debit->set_account(ledger::PlayerHeldAccount("ana"));
    debit->set_amount_minor(-amount);
    v1::Posting* credit = c->mutable_tx()->add_postings();
    credit->set_account(to);
    credit->set_amount_minor(amount);
    Wallet(e);
  }
  absl::StatusOr<TableAuditReport> Audit() { return AuditTableTopic(*log_); }
};

TEST_F(TableAuditTest, EveryRequestCarriedOutOnceIsClean) {
  BuyIn(/*rake=*/1'000);
  const std::vector<v1::LedgerTransaction> hand = Hand(25, 25);
  const auto [cash_out, cash_out_id] = Leave();
  Held(10'000);
  Captured("seat", 9'000, settlement::SeatAccount("t1", "ana"));
  Captured("rake", 1'000, std::string(settlement::kRakeAccount));
  for (size_t i = 0; i < hand.size(); ++i) {
    Posted(absl::StrCat("hand/t1.h1/", i), hand[i]);
  }
  Posted(cash_out_id, cash_out);
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << ProblemLines(report->problems);
  EXPECT_EQ(report->events, 3);
  EXPECT_EQ(report->buy_ins, 1);
  EXPECT_EQ(report->settlements, 1);
  EXPECT_EQ(report->settlement_transactions, 3);
  EXPECT_EQ(report->cash_outs, 1);
  EXPECT_EQ(report->carried_out, 3);
  EXPECT_EQ(report->pending, 0);
  EXPECT_EQ(report->hand_rake_minor, 25);
  EXPECT_EQ(report->buy_in_rake_minor, 1'000);
}

TEST_F(TableAuditTest, NotYetReadIsPendingAndARefusedBuyInIsCarriedOut) {
  BuyIn();
  Hand(0, 0);
  v1::WalletEvent refused;
  refused.set_request_id(absl::StrCat(kSaga, "/hold"));
  refused.mutable_request_rejected()->set_player_id("ana");
  refused.mutable_request_rejected()->set_code("FAILED_PRECONDITION");
  Wallet(refused);
  auto report = Audit();  // the wallet has read nothing
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << ProblemLines(report->problems);
  EXPECT_EQ(report->carried_out, 1);
  EXPECT_EQ(report->buy_ins_refused, 1);
  EXPECT_EQ(report->pending, 1);
}

// The attack: a client's Deposit under the id of a buy-in's hold. The
// wallet's reader stopped at that buy-in for good, and the audit said OK;
// now it is a problem, whether the wallet has read the buy-in or not.
TEST_F(TableAuditTest, AStepWhoseIdIsTakenIsAJamEvenBeforeItIsRead) {
  Posted(absl::StrCat(kSaga, "/hold"),
         Tx(v1::POSTING_REASON_DEPOSIT,
            {{"external/payments", -100},
             {ledger::PlayerCashAccount("ana"), 100}}));
  BuyIn();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_FALSE(report->ok());
  EXPECT_TRUE(Mentions(*report, "can never be carried out"));
  EXPECT_TRUE(Mentions(*report, "table/t1/buyin/1/hold is taken"));
  EXPECT_EQ(report->carried_out, 0);
}

TEST_F(TableAuditTest, ReadButNeitherCarriedOutNorQuarantinedIsAProblem) {
  BuyIn();
  const eventlog::Position copy = last_;  // where the wallet reads it
  Held(10'000);                           // the hold, but never the seat
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->problems.size(), 1u);
  EXPECT_TRUE(Mentions(*report, "neither carried out nor quarantined"));
  EXPECT_TRUE(Mentions(*report, "table/t1/buyin/1/seat"));
  // The problem names the request's copy, where the wallet reads it.
  const AuditProblem& p = report->problems[0];
  EXPECT_EQ(p.topic, copy.topic);
  EXPECT_EQ(p.topic, wire::kPokerTableTopics.requests_topic);
  EXPECT_EQ(p.partition, copy.partition);
  EXPECT_EQ(p.offset, copy.offset);
}

// Issue 18's check of the poker topic: a cash-out the wallet read and
// never paid, and a hand settlement posted twice, are both caught.
TEST_F(TableAuditTest, AMissingCashOutAndADoubledSettlementAreCaught) {
  const std::vector<v1::LedgerTransaction> hand = Hand(0, 0);
  const auto [cash_out, cash_out_id] = Leave();
  for (size_t i = 0; i < hand.size(); ++i) {
    Posted(absl::StrCat("hand/t1.h1/", i), hand[i]);
  }
  Posted("hand/t1.h1/1", hand[1]);  // the pot paid twice
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, "neither carried out nor quarantined"));
  EXPECT_TRUE(Mentions(*report, cash_out_id));
  EXPECT_TRUE(Mentions(*report, "carried out 2 times (request hand/t1.h1/1)"));
}

// Issue 20 (the poker topic against the wallet, as for banked tables): a
// settlement the wallet read and never posted, and a cash-out paid twice.
TEST_F(TableAuditTest, AMissingSettlementAndADuplicatedCashOutAreCaught) {
  Hand(0, 0);
  const auto [cash_out, cash_out_id] = Leave();
  Posted(cash_out_id, cash_out);
  Posted(cash_out_id, cash_out);
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, "the settlement of hand t1.h1"));
  EXPECT_TRUE(Mentions(*report, "(request hand/t1.h1/0 is missing)"));
  EXPECT_TRUE(Mentions(
      *report, absl::StrCat("carried out 2 times (request ", cash_out_id)));
  EXPECT_EQ(report->carried_out, 0);
  EXPECT_EQ(report->problems.size(), 2u) << ProblemLines(report->problems);
}

// A settlement posted under its own id but paying someone else (the pot
// to cyd instead of bob), and a cash-out of another amount: carried out
// otherwise than asked.
TEST_F(TableAuditTest, ASettlementOrCashOutMovingOtherMoneyIsCaught) {
  const std::vector<v1::LedgerTransaction> hand = Hand(0, 0);
  const auto [cash_out, cash_out_id] = Leave();
  Posted("hand/t1.h1/0", hand[0]);
  v1::LedgerTransaction diverted = hand[1];
  diverted.mutable_postings(1)->set_account(
      settlement::SeatAccount("t1", "cyd"));
  Posted("hand/t1.h1/1", diverted);
  Posted(cash_out_id, *settlement::CashOutTransaction("t1", "bob", 5'000));
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report,
                       "was carried out otherwise than asked (request "
                       "hand/t1.h1/1"));
  EXPECT_TRUE(Mentions(
      *report, absl::StrCat("otherwise than asked (request ", cash_out_id)));
  EXPECT_FALSE(Mentions(*report, "is taken by another request"));
}

// Money of a poker table the topic created moves only for its events:
// a posting between its seats under any other request id (an operator's
// or a forged one) is a problem; a table the topic never created is not
// this check's.
TEST_F(TableAuditTest, MoneyOfAPokerTableWithoutItsTableEventIsCaught) {
  Table([] {
    v1::TableEvent e;
    e.mutable_table_created()->set_name("t1");
    return e;
  }());
  Posted("ops/move-1", Tx(v1::POSTING_REASON_POT_AWARD,
                          {{settlement::SeatAccount("t1", "ana"), -300},
                           {settlement::SeatAccount("t1", "bob"), 300}}));
  Posted("ops/move-2", Tx(v1::POSTING_REASON_POT_AWARD,
                          {{settlement::SeatAccount("t2", "ana"), -300},
                           {settlement::SeatAccount("t2", "bob"), 300}}));
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->tables, 1);
  ASSERT_EQ(report->problems.size(), 1u) << ProblemLines(report->problems);
  EXPECT_TRUE(Mentions(*report,
                       "moved money of table/t1/seat/ana under request "
                       "ops/move-1, which no table event asks for"));
  EXPECT_EQ(report->problems[0].topic, wire::kWalletTopic);
}

// In group mode the position that counts is that of the wallet partition
// deciding the request (the player's for a buy-in).
TEST_F(TableAuditTest, GroupModeUsesTheDecidingReadersPosition) {
  BuyIn();
  const int ana = wire::OwnershipPartition(ledger::PlayerOwner("ana"), 2);
  WalletReadAll(1 - ana);  // the other reader: not ana's buy-in
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << ProblemLines(report->problems);
  EXPECT_EQ(report->pending, 1);
  WalletReadAll(ana);
  report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, "neither carried out nor quarantined"));
}

TEST_F(TableAuditTest, AQuarantinedRequestIsCountedNotReportedHere) {
  Hand(0, 0);
  v1::WalletEvent q;
  q.set_request_id(wire::QuarantineRequestId(wire::kTableRequestsTopic,
                                             last_.partition, last_.offset));
  q.mutable_request_quarantined()->set_topic(
      std::string(wire::kTableRequestsTopic));
  q.mutable_request_quarantined()->set_partition(last_.partition);
  q.mutable_request_quarantined()->set_offset(last_.offset);
  q.mutable_request_quarantined()->set_step("hand/t1.h1/0");
  q.mutable_request_quarantined()->set_code("FAILED_PRECONDITION");
  Wallet(q);
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << ProblemLines(report->problems);
  EXPECT_EQ(report->quarantined, 1);
  EXPECT_EQ(report->carried_out, 0);
}

TEST_F(TableAuditTest, DoubledUnrequestedAndWrongSettlementsAreProblems) {
  const std::vector<v1::LedgerTransaction> hand = Hand(25, 30);
  for (size_t i = 0; i < hand.size(); ++i) {
    Posted(absl::StrCat("hand/t1.h1/", i), hand[i]);
  }
  Posted("hand/t1.h1/0", hand[0]);
  Posted("hand/t1.h9/0", hand[0]);
  Posted("hand/t1.h1/1", hand[1]);
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, "logs rake 30 but posts 25"));
  EXPECT_TRUE(Mentions(*report, "carried out 2 times (request hand/t1.h1/0)"));
  EXPECT_TRUE(Mentions(*report, "hand/t1.h9/0, which no table event asks"));
  EXPECT_TRUE(Mentions(*report, "carried out 2 times (request hand/t1.h1/1)"));
}

// The wallet reads the copies on banca.table.requests: a money request
// without one is never carried out, a copy that asks for something else
// would be, and a copy of nothing is money no table asked for.
TEST_F(TableAuditTest, EveryMoneyRequestHasOneFaithfulCopy) {
  const std::string clean = Table([] {
    v1::TableEvent e;
    e.mutable_player_left()->set_player_id("bob");
    return e;
  }());
  // A buy-in logged without its copy.
  v1::TableEvent buy_in;
  buy_in.set_table_id("t1");
  buy_in.mutable_buy_in_requested()->set_saga_id(kSaga);
  buy_in.mutable_buy_in_requested()->set_player_id("ana");
  buy_in.mutable_buy_in_requested()->set_paid_minor(10'000);
  const uint64_t uncopied = ++table_sequence_;
  ASSERT_TRUE(log_->Append({wire::EncodeTableRecord(buy_in, uncopied,
                                                    {"table", "", 0})})
                  .ok());
  // A cash-out whose copy pays another amount.
  v1::TableEvent left;
  left.set_table_id("t1");
  left.mutable_player_left()->set_player_id("ana");
  left.mutable_player_left()->set_stack_minor(100);
  std::vector<eventlog::Record> records;
  const uint64_t altered = ++table_sequence_;
  wire::AppendTableRecords(left, altered, {"table", "", 0}, &records);
  left.mutable_player_left()->set_stack_minor(100'000);
  std::vector<eventlog::Record> forged;
  wire::AppendTableRecords(left, altered, {"table", "", 0}, &forged);
  records.back() = forged.back();
  // And a copy of an event no table logged.
  wire::AppendTableRecords(left, 99, {"table", "", 0}, &forged);
  records.push_back(forged.back());
  ASSERT_TRUE(log_->Append(std::move(records)).ok());
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, absl::StrCat("table/t1#", uncopied,
                                             " has no copy on "
                                             "banca.table.requests")));
  EXPECT_TRUE(Mentions(*report, absl::StrCat("the copy of table/t1#", altered,
                                             " on banca.table.requests asks "
                                             "for another thing")));
  EXPECT_TRUE(Mentions(*report, "copies event table/t1#99, which no table"));
  EXPECT_FALSE(Mentions(*report, clean));
}

}  // namespace
}  // namespace banca::audit
