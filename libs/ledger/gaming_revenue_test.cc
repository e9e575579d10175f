#include "libs/ledger/gaming_revenue.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace banca::ledger {
namespace {

v1::LedgerTransaction Tx(v1::PostingReason reason, std::string game,
                         std::vector<std::pair<std::string, int64_t>> moves) {
  v1::LedgerTransaction tx;
  tx.set_reason(reason);
  tx.set_game(std::move(game));
  tx.set_currency("EUR");
  for (auto& [account, amount] : moves) {
    v1::Posting* p = tx.add_postings();
    p->set_account(account);
    p->set_amount_minor(amount);
  }
  return tx;
}

absl::Time At(int day, int hour, int minute) {
  return absl::FromCivil(absl::CivilMinute(2026, 7, day, hour, minute),
                         absl::UTCTimeZone());
}

// A roulette round: ana loses 20.00, rui's 5.00 wins 10.00 more.
void PlayRound(GamingRevenueTally& tally, absl::Time when) {
  const std::string w = "game/t1/wagers";
  for (const auto& tx :
       {Tx(v1::POSTING_REASON_BET, "roulette_french",
           {{"player/ana/cash", -2000}, {w, 2000}}),
        Tx(v1::POSTING_REASON_BET, "roulette_french",
           {{"player/rui/cash", -500}, {w, 500}}),
        Tx(v1::POSTING_REASON_BET_LOST, "roulette_french",
           {{w, -2000}, {"house/bank", 2000}}),
        Tx(v1::POSTING_REASON_PAYOUT, "roulette_french",
           {{w, -500}, {"house/bank", -1000}, {"player/rui/cash", 1500}})}) {
    ASSERT_TRUE(tally.Add(tx, when).ok());
  }
}

TEST(GamingRevenue, StakesMinusReturnsIsTheBanksNet) {
  GamingRevenueTally tally;
  PlayRound(tally, At(1, 12, 0));
  const std::vector<GamingRevenueRow> rows = tally.Rows();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].day, "2026-07-01");
  EXPECT_EQ(rows[0].game, "roulette_french");
  EXPECT_EQ(rows[0].stakes, 2500);
  EXPECT_EQ(rows[0].returned, 1500);
  EXPECT_EQ(rows[0].ggr, 1000);
  EXPECT_EQ(rows[0].rake, 0);
  EXPECT_EQ(rows[0].open, 0);
  EXPECT_EQ(rows[0].bets, 2);
  EXPECT_EQ(rows[0].transactions, 4);
}

TEST(GamingRevenue, VoidRefundsAreReturnedNotRevenue) {
  GamingRevenueTally tally;
  const absl::Time t = At(1, 12, 0);
  ASSERT_TRUE(
      tally
          .Add(Tx(v1::POSTING_REASON_BET, "blackjack",
                  {{"player/ana/cash", -1000}, {"game/b1/wagers", 1000}}),
               t)
          .ok());
  ASSERT_TRUE(
      tally
          .Add(Tx(v1::POSTING_REASON_VOID_REFUND, "blackjack",
                  {{"game/b1/wagers", -1000}, {"player/ana/cash", 1000}}),
               t)
          .ok());
  const GamingRevenueRow row = tally.Rows().at(0);
  EXPECT_EQ(row.stakes, 1000);
  EXPECT_EQ(row.returned, 1000);
  EXPECT_EQ(row.void_refunds, 1000);
  EXPECT_EQ(row.ggr, 0);
  EXPECT_EQ(row.open, 0);
}

TEST(GamingRevenue, ARoundAcrossMidnightIsOpenOnTheFirstDay) {
  GamingRevenueTally tally;
  ASSERT_TRUE(tally
                  .Add(Tx(v1::POSTING_REASON_BET, "stud_no_draw",
                          {{"player/ana/cash", -300}, {"game/s1/wagers", 300}}),
                       At(1, 23, 59))
                  .ok());
  ASSERT_TRUE(tally
                  .Add(Tx(v1::POSTING_REASON_BET_LOST, "stud_no_draw",
                          {{"game/s1/wagers", -300}, {"house/bank", 300}}),
                       At(2, 0, 1))
                  .ok());
  const std::vector<GamingRevenueRow> rows = tally.Rows();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].day, "2026-07-01");
  EXPECT_EQ(rows[0].open, 300);
  EXPECT_EQ(rows[0].ggr, 0);
  EXPECT_EQ(rows[1].day, "2026-07-02");
  EXPECT_EQ(rows[1].open, -300);
  EXPECT_EQ(rows[1].ggr, 300);
  const absl::StatusOr<GamingRevenueRow> total = tally.Total();
  ASSERT_TRUE(total.ok());
  EXPECT_EQ(total->open, 0);
  EXPECT_EQ(total->ggr, 300);
}

TEST(GamingRevenue, DaysFollowTheChosenTimeZone) {
  // 23:30 UTC is 00:30 the next day one hour east (Lisbon in summer).
  GamingRevenueTally utc;
  GamingRevenueTally east(absl::FixedTimeZone(3600));
  PlayRound(utc, At(1, 23, 30));
  PlayRound(east, At(1, 23, 30));
  EXPECT_EQ(utc.Rows().at(0).day, "2026-07-01");
  EXPECT_EQ(east.Rows().at(0).day, "2026-07-02");
}

TEST(GamingRevenue, CashTableRakeIsPokerRevenue) {
  GamingRevenueTally tally;
  const absl::Time t = At(3, 9, 0);
  ASSERT_TRUE(tally
                  .Add(Tx(v1::POSTING_REASON_RAKE, "",
                          {{"table/h1/pot", -150}, {"house/rake", 150}}),
                       t)
                  .ok());
  // Pot movements between seats and deposits are not revenue.
  ASSERT_TRUE(
      tally
          .Add(Tx(v1::POSTING_REASON_POT_AWARD, "",
                  {{"table/h1/pot", -2850}, {"table/h1/seat/ana", 2850}}),
               t)
          .ok());
  ASSERT_TRUE(
      tally
          .Add(Tx(v1::POSTING_REASON_DEPOSIT, "",
                  {{"external/payments", -5000}, {"player/ana/cash", 5000}}),
               t)
          .ok());
  const std::vector<GamingRevenueRow> rows = tally.Rows();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].game, kCashTablesGame);
  EXPECT_EQ(rows[0].rake, 150);
  EXPECT_EQ(rows[0].ggr, 150);
  EXPECT_EQ(rows[0].open, 0);
  EXPECT_EQ(rows[0].transactions, 1);
}

TEST(GamingRevenue, TotalsByGameSumTheDays) {
  GamingRevenueTally tally;
  PlayRound(tally, At(1, 12, 0));
  PlayRound(tally, At(2, 12, 0));
  ASSERT_TRUE(tally
                  .Add(Tx(v1::POSTING_REASON_RAKE, "",
                          {{"table/h1/pot", -150}, {"house/rake", 150}}),
                       At(2, 12, 0))
                  .ok());
  const auto totals = tally.TotalsByGame();
  ASSERT_TRUE(totals.ok());
  ASSERT_EQ(totals->size(), 2u);
  EXPECT_EQ((*totals)[0].game, "poker");
  EXPECT_EQ((*totals)[1].game, "roulette_french");
  EXPECT_EQ((*totals)[1].stakes, 5000);
  EXPECT_EQ((*totals)[1].ggr, 2000);
  EXPECT_EQ(tally.Total()->ggr, 2150);
}

TEST(GamingRevenue, OverflowIsAnErrorAndChangesNothing) {
  GamingRevenueTally tally;
  const int64_t big = std::numeric_limits<int64_t>::max();
  const absl::Time t = At(1, 12, 0);
  ASSERT_TRUE(tally
                  .Add(Tx(v1::POSTING_REASON_BET, "blackjack",
                          {{"player/ana/cash", -big}, {"game/b1/wagers", big}}),
                       t)
                  .ok());
  const absl::Status s =
      tally.Add(Tx(v1::POSTING_REASON_BET, "blackjack",
                   {{"player/rui/cash", -1}, {"game/b1/wagers", 1}}),
                t);
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << s;
  EXPECT_EQ(tally.Rows().at(0).stakes, big);
  EXPECT_EQ(tally.Rows().at(0).bets, 1);
}

TEST(GamingRevenue, BadAccountNameIsRejected) {
  GamingRevenueTally tally;
  const absl::Status s = tally.Add(
      Tx(v1::POSTING_REASON_BET, "blackjack", {{"casino/x", 1}}), At(1, 1, 1));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_TRUE(tally.Rows().empty());
}

}  // namespace
}  // namespace banca::ledger
