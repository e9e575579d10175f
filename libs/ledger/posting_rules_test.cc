#include "libs/ledger/posting_rules.h"

#include "gtest/gtest.h"

namespace banca::ledger {
namespace {

using C = AccountClass;

v1::LedgerTransaction Tx(v1::PostingReason reason,
                         std::vector<std::pair<std::string, int64_t>> legs) {
  v1::LedgerTransaction tx;
  tx.set_tx_id("t#1");
  tx.set_reason(reason);
  for (auto& [account, amount] : legs) {
    v1::Posting* p = tx.add_postings();
    p->set_account(account);
    p->set_amount_minor(amount);
  }
  return tx;
}

TEST(PostingRules, OnlyAnOperatorAdjustsAndOnlyBetweenHouseAndPlayers) {
  const Asker op{true, ""};
  const Asker table{false, "table"};
  EXPECT_TRUE(CheckTransferRule(v1::POSTING_REASON_ADJUSTMENT, C::kHouse,
                                C::kPlayer, op)
                  .ok());
  EXPECT_EQ(CheckTransferRule(v1::POSTING_REASON_ADJUSTMENT, C::kHouse,
                              C::kPlayer, table)
                .code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_FALSE(CheckTransferRule(v1::POSTING_REASON_ADJUSTMENT, C::kPlayer,
                                 C::kPlayer, op)
                   .ok());
  EXPECT_FALSE(CheckTransferRule(v1::POSTING_REASON_ADJUSTMENT, C::kExternal,
                                 C::kPlayer, op)
                   .ok());
}

TEST(PostingRules, DepositsAndHoldsNeverMoveThroughTransfer) {
  for (const Asker& a :
       {Asker{true, ""}, Asker{false, "payments"}, Asker{false, "table"}}) {
    EXPECT_FALSE(CheckTransferRule(v1::POSTING_REASON_DEPOSIT, C::kExternal,
                                   C::kPlayer, a)
                     .ok());
    EXPECT_FALSE(
        CheckTransferRule(v1::POSTING_REASON_DEPOSIT, C::kPlayer, C::kPlayer, a)
            .ok());
    EXPECT_FALSE(
        CheckTransferRule(v1::POSTING_REASON_HOLD, C::kPlayer, C::kPlayer, a)
            .ok());
  }
}

TEST(PostingRules, EachServiceMovesOnlyItsOwnKindOfMoney) {
  const Asker table{false, "table"};
  const Asker tournament{false, "tournament"};
  EXPECT_TRUE(
      CheckTransferRule(v1::POSTING_REASON_RAKE, C::kTable, C::kHouse, table)
          .ok());
  EXPECT_FALSE(CheckTransferRule(v1::POSTING_REASON_RAKE, C::kTable, C::kHouse,
                                 tournament)
                   .ok());
  EXPECT_TRUE(CheckTransferRule(v1::POSTING_REASON_PRIZE, C::kTournament,
                                C::kPlayer, tournament)
                  .ok());
  EXPECT_FALSE(CheckTransferRule(v1::POSTING_REASON_PRIZE, C::kTournament,
                                 C::kPlayer, table)
                   .ok());
  // Nobody pays out of the outside world.
  EXPECT_FALSE(CheckTransferRule(v1::POSTING_REASON_PAYOUT, C::kExternal,
                                 C::kPlayer, table)
                   .ok());
}

TEST(PostingRules, TheAuditChecksEveryDebitCreditPairOfALoggedTransaction) {
  // A hand's bets, several seats into one pot; a banked payout from the
  // wagers and the bank to one player.
  EXPECT_TRUE(CheckLoggedTransaction(Tx(v1::POSTING_REASON_POT_CONTRIBUTION,
                                        {{"table/t1/seat/ana", -100},
                                         {"table/t1/seat/bob", -100},
                                         {"table/t1/pot", 200}}))
                  .ok());
  EXPECT_TRUE(CheckLoggedTransaction(
                  Tx(v1::POSTING_REASON_PAYOUT, {{"game/r1/wagers", -10},
                                                 {"house/bank", -350},
                                                 {"player/ana/cash", 360}}))
                  .ok());
  EXPECT_TRUE(CheckLoggedTransaction(
                  Tx(v1::POSTING_REASON_DEPOSIT,
                     {{"external/payments", -5}, {"player/ana/cash", 5}}))
                  .ok());
  // The audit poisoning of issue 17: player to player, labelled DEPOSIT.
  absl::Status poisoned = CheckLoggedTransaction(
      Tx(v1::POSTING_REASON_DEPOSIT,
         {{"player/ana/cash", -5}, {"player/bob/cash", 5}}));
  EXPECT_EQ(poisoned.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(poisoned.message().find("player/ana/cash -> player/bob/cash"),
            std::string::npos)
      << poisoned;
}

}  // namespace
}  // namespace banca::ledger
