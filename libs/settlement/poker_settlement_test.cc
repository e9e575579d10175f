#include "libs/settlement/poker_settlement.h"

#include <cstdint>
#include <random>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/games/poker/random_play.h"
#include "libs/games/poker/test_util.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"

namespace banca::settlement {
namespace {

namespace poker = games::poker;
using poker::testing::MakeSetup;

int64_t Sum(const v1::LedgerTransaction& tx) {
  int64_t sum = 0;
  for (const v1::Posting& p : tx.postings()) sum += p.amount_minor();
  return sum;
}

TEST(PokerSettlementAccounts, NamesParseInTheLedgerGrammar) {
  for (const std::string& name : {SeatAccount("t1", "ana"), PotAccount("t1"),
                                  std::string(kRakeAccount)}) {
    EXPECT_TRUE(ledger::ParseAccount(name).ok()) << name;
  }
  EXPECT_EQ(ledger::ParseAccount(SeatAccount("t1", "ana"))->account_class,
            ledger::AccountClass::kTable);
  EXPECT_EQ(HandReference("t1", 7).id(), "t1.h7");
}

TEST(PokerSettlementBuyIn, RakePartGoesToTheHouse_HE17b) {
  absl::StatusOr<v1::LedgerTransaction> tx =
      BuyInTransaction("t1", "ana", 10000, 1000, false);
  ASSERT_TRUE(tx.ok()) << tx.status();
  EXPECT_EQ(Sum(*tx), 0);
  ASSERT_EQ(tx->postings_size(), 3);
  EXPECT_EQ(tx->postings(0).account(), "player/ana/cash");
  EXPECT_EQ(tx->postings(0).amount_minor(), -10000);
  EXPECT_EQ(tx->postings(1).account(), "table/t1/seat/ana");
  EXPECT_EQ(tx->postings(1).amount_minor(), 9000);
  EXPECT_EQ(tx->postings(2).account(), "house/rake");
  EXPECT_EQ(tx->postings(2).amount_minor(), 1000);
  EXPECT_FALSE(BuyInTransaction("t1", "ana", 0, 0, false).ok());
  EXPECT_FALSE(BuyInTransaction("t1", "ana", 100, 101, false).ok());
  EXPECT_FALSE(CashOutTransaction("t1", "ana", 0).ok());
}

// A compensated buy-in (a late capture, or an HE-12 rebuy that no longer
// fits) gives the HE-17b rake back with the seat's part.
TEST(PokerSettlement, CompensationGivesTheBuyInRakeBack_HE17b) {
  absl::StatusOr<v1::LedgerTransaction> tx =
      CashOutTransaction("t1", "ana", 9000, 1000);
  ASSERT_TRUE(tx.ok()) << tx.status();
  EXPECT_EQ(Sum(*tx), 0);
  ASSERT_EQ(tx->postings_size(), 3);
  EXPECT_EQ(tx->postings(0).account(), "table/t1/seat/ana");
  EXPECT_EQ(tx->postings(0).amount_minor(), -9000);
  EXPECT_EQ(tx->postings(1).account(), "house/rake");
  EXPECT_EQ(tx->postings(1).amount_minor(), -1000);
  EXPECT_EQ(tx->postings(2).account(), "player/ana/cash");
  EXPECT_EQ(tx->postings(2).amount_minor(), 10000);
  EXPECT_EQ(CashOutTransaction("t1", "ana", 9000, -1).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Random hands of every variant posted to a real ledger: every transaction
// sums to 0, the pot is 0 after each hand, each seat holds its end stack.
TEST(PokerSettlementHands, BalancedAndPotEmptyAfterEveryHand) {
  std::mt19937_64 rng(20261122);
  auto bits = [&rng]() -> uint64_t { return rng(); };
  int64_t request = 0;
  for (int round = 0; round < 300; ++round) {
    ledger::Ledger ledger({.currency = "EUR", .hot_stripes = 1, .shards = 1});
    auto meta = [&] {
      return ledger::CommandMeta{"r" + std::to_string(++request), "f"};
    };
    auto ignore = [](const ledger::Committed&) {};
    poker::TableConfig config;
    config.variant = static_cast<poker::Variant>(round % 3);
    config.limit = static_cast<poker::Limit>((round / 3) % 3);
    config.rake = {poker::RakeMode::kPot, 500, round % 2 ? 300 : 0};
    const int players = 2 + round % 5;
    std::vector<int64_t> stacks;
    for (int i = 0; i < players; ++i) stacks.push_back(200 + 700 * (i % 4));
    poker::HandSetup setup = MakeSetup(config, stacks, 1);
    for (const poker::SeatedPlayer& p : setup.players) {
      ASSERT_TRUE(ledger.OpenAccount(meta(), p.player, "EUR", ignore).ok());
      v1::LedgerTransaction dep;
      dep.set_reason(v1::POSTING_REASON_DEPOSIT);
      dep.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
      dep.mutable_reference()->set_id("p1");
      auto* a = dep.add_postings();
      a->set_account("external/payments");
      a->set_amount_minor(-p.stack);
      auto* b = dep.add_postings();
      b->set_account(ledger::PlayerCashAccount(p.player));
      b->set_amount_minor(p.stack);
      ASSERT_TRUE(
          ledger.Post(meta(), ledger::PlayerOwner(p.player), dep, ignore).ok());
      absl::StatusOr<v1::LedgerTransaction> buy =
          BuyInTransaction("t1", p.player, p.stack, 0, false);
      ASSERT_TRUE(buy.ok());
      ASSERT_TRUE(
          ledger.Post(meta(), ledger::PlayerOwner(p.player), *buy, ignore)
              .ok());
    }
    absl::StatusOr<poker::Hand> hand = poker::Hand::Start(setup);
    ASSERT_TRUE(hand.ok()) << hand.status();
    if (round % 7 == 3 && hand->to_act()) {
      ASSERT_TRUE(hand->Void().ok());
    } else {
      ASSERT_TRUE(poker::PlayRandomly(*hand, bits).ok());
    }
    absl::StatusOr<std::vector<v1::LedgerTransaction>> txs =
        HandTransactions(hand->record(), hand->result(), hand->events());
    ASSERT_TRUE(txs.ok()) << txs.status();
    for (const v1::LedgerTransaction& tx : *txs) {
      EXPECT_EQ(Sum(tx), 0);
      EXPECT_EQ(tx.reference().kind(), v1::REFERENCE_KIND_HAND);
      ASSERT_TRUE(ledger.Post(meta(), PotAccount("t1"), tx, ignore).ok())
          << tx.DebugString();
    }
    EXPECT_EQ(ledger.AccountBalance(PotAccount("t1")), 0);
    EXPECT_EQ(ledger.AccountBalance(kRakeAccount), hand->result().rake);
    for (const poker::PlayerResult& p : hand->result().players) {
      EXPECT_EQ(ledger.AccountBalance(
                    SeatAccount("t1", setup.players[p.seat - 1].player)),
                p.end_stack);
    }
    if (hand->result().voided) {
      ASSERT_FALSE(txs->empty());
      EXPECT_EQ(txs->back().reason(), v1::POSTING_REASON_VOID_REFUND);
    }
    EXPECT_EQ(ledger.Summarize().sum, 0);
  }
}

}  // namespace
}  // namespace banca::settlement
