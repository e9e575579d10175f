#include "libs/settlement/banked_settlement.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"

namespace banca::settlement {
namespace {

BankedBet Bet(int64_t stake) {
  return {.game = "roulette_french",
          .table_id = "r1",
          .round = 7,
          .player = "ana",
          .bet_id = "ana.straight.17",
          .stake = stake};
}

int64_t Sum(const v1::LedgerTransaction& tx) {
  int64_t sum = 0;
  for (const v1::Posting& p : tx.postings()) sum += p.amount_minor();
  return sum;
}

int64_t PostingTo(const v1::LedgerTransaction& tx, const std::string& acct) {
  int64_t sum = 0;
  for (const v1::Posting& p : tx.postings()) {
    if (p.account() == acct) sum += p.amount_minor();
  }
  return sum;
}

void IgnoreCommit(const ledger::Committed&) {}

// A ledger where ana has 10,000 cents of cash.
class BankedLedger : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ledger_.OpenAccount(Meta(), "ana", "EUR", IgnoreCommit).ok());
    v1::LedgerTransaction dep;
    dep.set_reason(v1::POSTING_REASON_DEPOSIT);
    dep.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
    dep.mutable_reference()->set_id("p1");
    v1::Posting* a = dep.add_postings();
    a->set_account("external/payments");
    a->set_amount_minor(-10000);
    v1::Posting* b = dep.add_postings();
    b->set_account(ledger::PlayerCashAccount("ana"));
    b->set_amount_minor(10000);
    ASSERT_TRUE(Post(dep).ok());
  }
  ledger::CommandMeta Meta() {
    return {"r" + std::to_string(++requests_), "f"};
  }
  absl::Status Post(const v1::LedgerTransaction& tx) {
    return ledger_.Post(Meta(), ledger::PlayerOwner("ana"), tx, IgnoreCommit);
  }
  int64_t Cash() { return ledger_.AccountBalance("player/ana/cash"); }
  int64_t Bank() { return ledger_.AccountBalance(kBankAccount); }
  int64_t Wagers() { return ledger_.AccountBalance("game/r1/wagers"); }

  ledger::Ledger ledger_{{.currency = "EUR", .hot_stripes = 1, .shards = 1}};
  int64_t requests_ = 0;
};

TEST(BankedSettlementNames, AccountsAndReferencesParse) {
  EXPECT_EQ(WagersAccount("r1"), "game/r1/wagers");
  EXPECT_EQ(ledger::ParseAccount(WagersAccount("r1"))->account_class,
            ledger::AccountClass::kGame);
  EXPECT_EQ(ledger::ParseAccount(std::string(kBankAccount))->account_class,
            ledger::AccountClass::kHouse);
  EXPECT_EQ(RoundReference("r1", 7).id(), "r1.r7");
  EXPECT_EQ(RoundReference("r1", 7).kind(), v1::REFERENCE_KIND_ROUND);
}

TEST(BankedSettlementNames, EveryTransactionNamesRoundBetAndGame) {
  for (const absl::StatusOr<v1::LedgerTransaction>& tx :
       {StakeTransaction(Bet(100)), SettleTransaction(Bet(100), 0),
        SettleTransaction(Bet(100), 100), SettleTransaction(Bet(100), 3600),
        VoidRefundTransaction(Bet(100))}) {
    ASSERT_TRUE(tx.ok()) << tx.status();
    EXPECT_EQ(Sum(*tx), 0);
    EXPECT_EQ(tx->reference().id(), "r1.r7");
    EXPECT_EQ(tx->bet_id(), "ana.straight.17");
    EXPECT_EQ(tx->game(), "roulette_french");
  }
}

TEST_F(BankedLedger, LostStakeGoesToTheBank) {
  ASSERT_TRUE(Post(*StakeTransaction(Bet(100))).ok());
  EXPECT_EQ(Cash(), 9900);
  EXPECT_EQ(Wagers(), 100);
  absl::StatusOr<v1::LedgerTransaction> tx = SettleTransaction(Bet(100), 0);
  EXPECT_EQ(tx->reason(), v1::POSTING_REASON_BET_LOST);
  ASSERT_TRUE(Post(*tx).ok());
  EXPECT_EQ(Cash(), 9900);
  EXPECT_EQ(Wagers(), 0);
  EXPECT_EQ(Bank(), 100);
  EXPECT_EQ(ledger_.Summarize().sum, 0);
}

TEST_F(BankedLedger, WinningBetIsPaidStakeFromWagersWinningsFromBank) {
  ASSERT_TRUE(Post(*StakeTransaction(Bet(100))).ok());
  absl::StatusOr<v1::LedgerTransaction> tx = SettleTransaction(Bet(100), 3600);
  EXPECT_EQ(tx->reason(), v1::POSTING_REASON_PAYOUT);
  EXPECT_EQ(PostingTo(*tx, "house/bank"), -3500);
  ASSERT_TRUE(Post(*tx).ok());
  EXPECT_EQ(Cash(), 13500);
  EXPECT_EQ(Wagers(), 0);
  EXPECT_EQ(Bank(), -3500);  // the house may go negative
  EXPECT_EQ(ledger_.Summarize().sum, 0);
}

TEST_F(BankedLedger, PushReturnsTheStakeAndTouchesNoBank) {
  ASSERT_TRUE(Post(*StakeTransaction(Bet(100))).ok());
  absl::StatusOr<v1::LedgerTransaction> tx = SettleTransaction(Bet(100), 100);
  EXPECT_EQ(tx->reason(), v1::POSTING_REASON_BET_RETURNED);
  EXPECT_EQ(PostingTo(*tx, "house/bank"), 0);
  ASSERT_TRUE(Post(*tx).ok());
  EXPECT_EQ(Cash(), 10000);
  EXPECT_EQ(Bank(), 0);
}

TEST_F(BankedLedger, PartLossSplitsTheStake) {
  ASSERT_TRUE(Post(*StakeTransaction(Bet(101))).ok());
  absl::StatusOr<v1::LedgerTransaction> tx = SettleTransaction(Bet(101), 50);
  EXPECT_EQ(tx->reason(), v1::POSTING_REASON_BET_LOST);
  ASSERT_TRUE(Post(*tx).ok());
  EXPECT_EQ(Cash(), 9949);
  EXPECT_EQ(Bank(), 51);
  EXPECT_EQ(Wagers(), 0);
}

TEST_F(BankedLedger, VoidAndWithdrawnRefundTheStakeWhole) {
  ASSERT_TRUE(Post(*StakeTransaction(Bet(100))).ok());
  absl::StatusOr<v1::LedgerTransaction> tx = VoidRefundTransaction(Bet(100));
  EXPECT_EQ(tx->reason(), v1::POSTING_REASON_VOID_REFUND);
  ASSERT_TRUE(Post(*tx).ok());
  ASSERT_TRUE(Post(*StakeTransaction(Bet(100))).ok());
  tx = VoidRefundTransaction(Bet(100), /*withdrawn=*/true);
  EXPECT_EQ(tx->reason(), v1::POSTING_REASON_BET_RETURNED);
  ASSERT_TRUE(Post(*tx).ok());
  EXPECT_EQ(Cash(), 10000);
  EXPECT_EQ(Wagers(), 0);
  EXPECT_EQ(Bank(), 0);
}

TEST_F(BankedLedger, StakeAboveTheCashIsRefusedWhole) {
  EXPECT_FALSE(Post(*StakeTransaction(Bet(10001))).ok());
  EXPECT_EQ(Cash(), 10000);
  EXPECT_EQ(Wagers(), 0);
}

TEST(BankedSettlementBadInput, EachFieldIsChecked) {
  struct Case {
    BankedBet bet;
    const char* message;
  };
  BankedBet no_game = Bet(100);
  no_game.game = "";
  BankedBet bad_table = Bet(100);
  bad_table.table_id = "a/b";
  BankedBet round0 = Bet(100);
  round0.round = 0;
  BankedBet bad_player = Bet(100);
  bad_player.player = "";
  BankedBet no_bet = Bet(100);
  no_bet.bet_id = "";
  for (const Case& c : {Case{no_game, "game"}, Case{bad_table, "table id"},
                        Case{round0, "round 0"}, Case{bad_player, "player"},
                        Case{no_bet, "bet id"}, Case{Bet(0), "stake 0"},
                        Case{Bet(-5), "stake -5"}}) {
    absl::StatusOr<v1::LedgerTransaction> tx = StakeTransaction(c.bet);
    ASSERT_FALSE(tx.ok());
    EXPECT_EQ(tx.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(tx.status().message().find(c.message), std::string::npos)
        << tx.status();
  }
  absl::StatusOr<v1::LedgerTransaction> neg = SettleTransaction(Bet(100), -1);
  EXPECT_EQ(neg.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace banca::settlement
