// The finance part of the reporting projections (finance_projection.h) and
// the daily close computed from it (daily_close.h), over a wallet log
// written the way the wallet writes it.
#include "libs/projection/finance_projection.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "gtest/gtest.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"
#include "libs/projection/daily_close.h"
#include "libs/projection/finance_format.h"
#include "libs/projection/games_projection.h"
#include "libs/projection/projector.h"
#include "libs/projection/reporting_projection.h"
#include "libs/projection/wallet_projection.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"

namespace banca::projection {
namespace {

class FinanceProjectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(
        ::testing::TempDir(), "/finance_projection_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto log = eventlog::OpenEmbeddedLog(dir_ + "/log");
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
    ASSERT_TRUE(log_->EnsureTopic({std::string(wire::kWalletTopic),
                                   wire::kDefaultWalletPartitions})
                    .ok());
  }

  void TearDown() override {
    log_.reset();
    std::filesystem::remove_all(dir_);
  }

  auto Commit() {
    return [this](const ledger::Committed& c) {
      wire::WalletEventContext ctx;
      ctx.occurred_at_micros = absl::ToUnixMicros(now_);
      pending_.push_back(wire::EncodeWalletRecord(c, ctx));
      if (!batching_) Flush();
    };
  }
  // Appends what Commit gathered (one append each unless batching_).
  void Flush() {
    if (pending_.empty()) return;
    ASSERT_TRUE(log_->Append(pending_).ok());
    pending_.clear();
  }
  ledger::CommandMeta Meta() { return {absl::StrCat("req-", ++requests_), ""}; }

  static void Move(v1::LedgerTransaction& tx, std::string account,
                   int64_t amount) {
    v1::Posting* p = tx.add_postings();
    p->set_account(std::move(account));
    p->set_amount_minor(amount);
  }
  static v1::LedgerTransaction Tx(v1::PostingReason reason,
                                  v1::ReferenceKind kind, std::string id) {
    v1::LedgerTransaction tx;
    tx.set_reason(reason);
    tx.mutable_reference()->set_kind(kind);
    tx.mutable_reference()->set_id(std::move(id));
    return tx;
  }
  void Post(absl::Time at, const std::string& player,
            v1::LedgerTransaction tx) {
    now_ = at;
    ASSERT_TRUE(
        ledger_
            .Post(Meta(), ledger::PlayerOwner(player), std::move(tx), Commit())
            .ok());
  }
  void Open(const std::string& player) {
    ASSERT_TRUE(ledger_.OpenAccount(Meta(), player, "EUR", Commit()).ok());
  }
  void Deposit(absl::Time at, const std::string& player, int64_t amount) {
    auto tx = Tx(v1::POSTING_REASON_DEPOSIT, v1::REFERENCE_KIND_PAYMENT,
                 absl::StrCat("dep-", ++payments_));
    Move(tx, "external/payments", -amount);
    Move(tx, ledger::PlayerCashAccount(player), amount);
    Post(at, player, std::move(tx));
  }
  void Withdraw(absl::Time at, const std::string& player, int64_t amount) {
    auto tx = Tx(v1::POSTING_REASON_WITHDRAWAL, v1::REFERENCE_KIND_PAYMENT,
                 absl::StrCat("wd-", ++payments_));
    Move(tx, ledger::PlayerCashAccount(player), -amount);
    Move(tx, "external/payments", amount);
    Post(at, player, std::move(tx));
  }
  void Bet(absl::Time at, const std::string& game, const std::string& player,
           int64_t round, int64_t stake, int64_t returned) {
    const settlement::BankedBet bet{
        game, "rt1", round, player, absl::StrCat(player, ".main"), stake};
    auto stake_tx = settlement::StakeTransaction(bet);
    ASSERT_TRUE(stake_tx.ok());
    Post(at, player, *stake_tx);
    auto settle_tx = settlement::SettleTransaction(bet, returned);
    ASSERT_TRUE(settle_tx.ok());
    Post(at, player, *settle_tx);
  }
  // ana and rui sit at p1 with 1000 each; a hand: 200 each in, 10 rake,
  // ana wins 390; both leave.
  void PokerHand(absl::Time at) {
    for (const char* p : {"ana", "rui"}) {
      auto buy = Tx(v1::POSTING_REASON_BUY_IN, v1::REFERENCE_KIND_TABLE, "p1");
      Move(buy, ledger::PlayerCashAccount(p), -1000);
      Move(buy, absl::StrCat("table/p1/seat/", p), 1000);
      Post(at, p, std::move(buy));
    }
    auto in = Tx(v1::POSTING_REASON_POT_CONTRIBUTION, v1::REFERENCE_KIND_HAND,
                 "p1.h1");
    Move(in, "table/p1/seat/ana", -200);
    Move(in, "table/p1/seat/rui", -200);
    Move(in, "table/p1/pot", 400);
    Post(at, "ana", std::move(in));
    auto award =
        Tx(v1::POSTING_REASON_POT_AWARD, v1::REFERENCE_KIND_HAND, "p1.h1");
    Move(award, "table/p1/pot", -390);
    Move(award, "table/p1/seat/ana", 390);
    Post(at, "ana", std::move(award));
    auto rake = Tx(v1::POSTING_REASON_RAKE, v1::REFERENCE_KIND_HAND, "p1.h1");
    Move(rake, "table/p1/pot", -10);
    Move(rake, "house/rake", 10);
    Post(at, "ana", std::move(rake));
    for (auto [p, stack] : {std::pair{"ana", 1190}, std::pair{"rui", 800}}) {
      auto out =
          Tx(v1::POSTING_REASON_TABLE_CASH_OUT, v1::REFERENCE_KIND_TABLE, "p1");
      Move(out, absl::StrCat("table/p1/seat/", p), -stack);
      Move(out, ledger::PlayerCashAccount(p), stack);
      Post(at, p, std::move(out));
    }
  }

  std::unique_ptr<ProjectionStore> Project(const std::string& name) {
    auto store = ProjectionStore::Open(absl::StrCat(dir_, "/", name));
    EXPECT_TRUE(store.ok()) << store.status();
    ReportingProjector projector;
    EXPECT_TRUE(CatchUp(*log_, **store, projector).ok());
    return *std::move(store);
  }

  v1::DailyClose Close(const ProjectionStore& store, std::string date,
                       std::string zone) {
    auto close = ComputeDailyClose(store, date, zone, "EUR");
    EXPECT_TRUE(close.ok()) << close.status();
    return close.ok() ? *close : v1::DailyClose();
  }

  static absl::Time Utc(int month, int day, int hour, int minute = 0) {
    return absl::FromCivil(absl::CivilMinute(2026, month, day, hour, minute),
                           absl::UTCTimeZone());
  }

  int64_t Liabilities() {
    int64_t sum = 0;
    for (const char* p : {"ana", "bia", "rui"}) {
      auto b = ledger_.Balance(p);
      if (b.ok()) sum += b->available + b->held;  // those with accounts
    }
    return sum;
  }

  std::string dir_;
  std::unique_ptr<eventlog::EventLog> log_;
  ledger::Ledger ledger_;
  int requests_ = 0;
  int payments_ = 0;
  bool batching_ = false;
  std::vector<eventlog::Record> pending_;
  absl::Time now_ = Utc(7, 1, 12);
};

const v1::FinanceFigures* Find(
    const google::protobuf::RepeatedPtrField<v1::FinanceFigures>& rows,
    const std::string& id) {
  for (const v1::FinanceFigures& f : rows) {
    if (f.id() == id) return &f;
  }
  return nullptr;
}

TEST_F(FinanceProjectionTest, CloseToTheCentAgainstTheLedger) {
  Open("ana");
  Open("rui");
  Deposit(Utc(7, 10, 9), "ana", 50000);
  Deposit(Utc(7, 10, 9, 5), "rui", 20000);
  Bet(Utc(7, 10, 10), "roulette_french", "ana", 1, 1000, 0);
  Bet(Utc(7, 10, 11), "blackjack", "rui", 2, 500, 1250);
  PokerHand(Utc(7, 10, 12));
  Withdraw(Utc(7, 10, 13), "rui", 3000);
  auto store = Project("live");
  const v1::DailyClose close = Close(*store, "2026-07-10", "UTC");
  EXPECT_TRUE(close.reconciled()) << close.DebugString();
  EXPECT_EQ(close.payments().deposits_minor(), 70000);
  EXPECT_EQ(close.payments().deposits(), 2);
  EXPECT_EQ(close.payments().withdrawals_minor(), 3000);
  EXPECT_EQ(close.payments().external_withdrawals_minor(), 3000);
  const v1::FinanceFigures* roulette = Find(close.by_game(), "roulette_french");
  ASSERT_NE(roulette, nullptr);
  EXPECT_EQ(roulette->stakes_minor(), 1000);
  EXPECT_EQ(roulette->ggr_minor(), 1000);
  const v1::FinanceFigures* blackjack = Find(close.by_game(), "blackjack");
  ASSERT_NE(blackjack, nullptr);
  EXPECT_EQ(blackjack->wins_minor(), 1250);
  EXPECT_EQ(blackjack->ggr_minor(), -750);
  const v1::FinanceFigures* poker = Find(close.by_game(), "poker");
  ASSERT_NE(poker, nullptr);
  EXPECT_EQ(poker->rake_minor(), 10);
  ASSERT_NE(Find(close.by_table(), "p1"), nullptr);
  EXPECT_EQ(Find(close.by_table(), "p1")->rake_minor(), 10);
  EXPECT_EQ(close.total().ggr_minor(), 1000 - 750 + 10);
  EXPECT_EQ(close.total().ggr_minor(),
            ledger_.AccountBalance("house/bank") +
                ledger_.AccountBalance("house/rake"));
  EXPECT_EQ(close.player_liabilities_minor(), Liabilities());
  EXPECT_EQ(close.at_close().external_minor(),
            ledger_.AccountBalance("external/payments"));
  EXPECT_EQ(close.at_close().player_cash_minor() +
                close.at_close().house_minor() +
                close.at_close().external_minor(),
            0);
  // Every wallet event of the day (2 accounts opened on July 1 excluded).
  EXPECT_EQ(close.events(), 2 + 4 + 7 + 1);
  EXPECT_EQ(close.events_sha256().size(), 64u);
  // The day before: nothing, and the hash of nothing.
  const v1::DailyClose before = Close(*store, "2026-07-09", "UTC");
  EXPECT_EQ(before.events(), 0);
  EXPECT_EQ(before.player_liabilities_minor(), 0);
  EXPECT_EQ(before.events_sha256(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

// A sit and go: two entries of 11 (8 to the pool, 2 to bounties, 1 fee),
// the house's overlay of 5 to meet a guarantee, a prize, a bounty and a
// ticket paid; a bounty and the rest of the pool still outstanding.
TEST_F(FinanceProjectionTest, TournamentFeesOverlayPoolsBountiesAndTickets) {
  Open("ana");
  Open("bia");
  Deposit(Utc(7, 10, 9), "ana", 5000);
  Deposit(Utc(7, 10, 9), "bia", 5000);
  auto tournament_tx = [](v1::PostingReason reason) {
    return Tx(reason, v1::REFERENCE_KIND_TOURNAMENT, "sng1");
  };
  for (const char* p : {"ana", "bia"}) {
    auto entry = tournament_tx(v1::POSTING_REASON_BUY_IN);
    Move(entry, ledger::PlayerCashAccount(p), -1100);
    Move(entry, "tournament/sng1/prize_pool", 800);
    Move(entry, "tournament/sng1/bounties", 200);
    Move(entry, "house/tournament_fees", 100);
    Post(Utc(7, 10, 10), p, std::move(entry));
  }
  now_ = Utc(7, 10, 11);
  auto post = [&](v1::LedgerTransaction tx) {
    ASSERT_TRUE(
        ledger_.Post(Meta(), "tournament/sng1", std::move(tx), Commit()).ok());
  };
  auto overlay = tournament_tx(v1::POSTING_REASON_PRIZE);
  Move(overlay, "house/overlay", -500);
  Move(overlay, "tournament/sng1/prize_pool", 500);
  post(std::move(overlay));
  auto prize = tournament_tx(v1::POSTING_REASON_PRIZE);
  Move(prize, "tournament/sng1/prize_pool", -1300);
  Move(prize, ledger::PlayerCashAccount("ana"), 1300);
  post(std::move(prize));
  auto bounty = tournament_tx(v1::POSTING_REASON_PRIZE);
  Move(bounty, "tournament/sng1/bounties", -200);
  Move(bounty, ledger::PlayerCashAccount("ana"), 200);
  post(std::move(bounty));
  auto ticket = tournament_tx(v1::POSTING_REASON_PRIZE);
  Move(ticket, "tournament/sng1/prize_pool", -300);
  Move(ticket, "tournament/sng2/tickets/bia", 300);
  post(std::move(ticket));
  auto store = Project("live");
  const v1::DailyClose close = Close(*store, "2026-07-10", "Europe/Lisbon");
  EXPECT_TRUE(close.reconciled()) << close.DebugString();
  const v1::FinanceFigures* sng = Find(close.by_tournament(), "sng1");
  ASSERT_NE(sng, nullptr);
  EXPECT_EQ(sng->tournament_fees_minor(), 200);
  EXPECT_EQ(sng->overlay_minor(), 500);
  EXPECT_EQ(sng->prizes_minor(), 1500);
  EXPECT_EQ(sng->ggr_minor(), 200 - 500);
  EXPECT_EQ(sng->transactions(), 6);
  ASSERT_NE(Find(close.by_game(), "tournament"), nullptr);
  EXPECT_EQ(close.at_close().prize_pools_minor(),
            ledger_.AccountBalance("tournament/sng1/prize_pool"));
  EXPECT_EQ(close.at_close().prize_pools_minor(), 500);
  EXPECT_EQ(close.at_close().bounties_minor(), 200);
  EXPECT_EQ(close.at_close().tickets_minor(), 300);
  EXPECT_EQ(close.at_close().house_minor(),
            ledger_.AccountBalance("house/tournament_fees") +
                ledger_.AccountBalance("house/overlay"));
  EXPECT_EQ(close.player_liabilities_minor(), Liabilities());
}

TEST_F(FinanceProjectionTest, RebuildGivesTheSameBytesAndTheSameDayHash) {
  Open("ana");
  Deposit(Utc(7, 10, 9), "ana", 50000);
  Bet(Utc(7, 10, 10), "roulette_french", "ana", 1, 1000, 36000);
  auto live = Project("live");
  auto again = Project("again");
  auto live_hash = live->StateHash();
  auto again_hash = again->StateHash();
  ASSERT_TRUE(live_hash.ok() && again_hash.ok());
  EXPECT_EQ(*live_hash, *again_hash);
  const std::string sha = Close(*live, "2026-07-10", "UTC").events_sha256();
  EXPECT_EQ(Close(*again, "2026-07-10", "UTC").events_sha256(), sha);
  EXPECT_EQ(Close(*live, "2026-07-10", "UTC").events_sha256(), sha);
  // One more event that day changes the day's hash.
  Withdraw(Utc(7, 10, 20), "ana", 100);
  ReportingProjector projector;
  ASSERT_TRUE(CatchUp(*log_, *live, projector).ok());
  EXPECT_NE(Close(*live, "2026-07-10", "UTC").events_sha256(), sha);
}

TEST_F(FinanceProjectionTest, DaysSplitByTheZoneAcrossMidnightAndDst) {
  Open("ana");
  // 23:30 UTC on July 10 is 00:30 on July 11 in Lisbon (WEST, +01:00).
  Deposit(Utc(7, 10, 23, 30), "ana", 700);
  // Lisbon leaves summer time on 2026-10-25 at 01:00 UTC: that day lasts
  // 25 hours there, from 2026-10-24T23:00Z to 2026-10-26T00:00Z.
  Deposit(Utc(10, 24, 23, 15), "ana", 11);
  Deposit(Utc(10, 25, 23, 45), "ana", 13);
  auto store = Project("live");
  EXPECT_EQ(Close(*store, "2026-07-10", "UTC").payments().deposits_minor(),
            700);
  EXPECT_EQ(
      Close(*store, "2026-07-10", "Europe/Lisbon").payments().deposits_minor(),
      0);
  EXPECT_EQ(
      Close(*store, "2026-07-11", "Europe/Lisbon").payments().deposits_minor(),
      700);
  const v1::DailyClose dst = Close(*store, "2026-10-25", "Europe/Lisbon");
  EXPECT_EQ(dst.to_micros() - dst.from_micros(), int64_t{25} * 3600'000'000);
  EXPECT_EQ(dst.payments().deposits_minor(), 24);
  EXPECT_EQ(Close(*store, "2026-10-25", "UTC").payments().deposits_minor(),
            0 + 0 + 13);
  EXPECT_EQ(Close(*store, "2026-10-24", "UTC").payments().deposits_minor(), 11);
  EXPECT_EQ(
      Close(*store, "2026-10-25", "Europe/Lisbon").player_liabilities_minor(),
      724);
  // +05:30 and +05:45: 23:45 UTC on Oct 25 is Oct 26 in both.
  EXPECT_EQ(
      Close(*store, "2026-10-26", "Asia/Kolkata").payments().deposits_minor(),
      13);
  EXPECT_EQ(
      Close(*store, "2026-10-26", "Asia/Kathmandu").payments().deposits_minor(),
      13);
  // A day's events hash is the same whichever report asks for it.
  EXPECT_EQ(Close(*store, "2026-07-11", "Europe/Lisbon").events(), 1);
}

TEST_F(FinanceProjectionTest, BadZonesDatesAndRangesAreInvalidArguments) {
  auto store = Project("live");
  for (const char* zone : {"Nowhere/Zone", "../../etc/passwd", "/etc/localtime",
                           "Europe/Lisbon\n", "Europe/../Europe/Lisbon"}) {
    EXPECT_EQ(
        ComputeDailyClose(*store, "2026-07-10", zone, "EUR").status().code(),
        absl::StatusCode::kInvalidArgument)
        << zone;
  }
  for (const char* date :
       {"2026-7-10", "2026-02-30", "yesterday", "", "1969-12-31"}) {
    EXPECT_EQ(ComputeDailyClose(*store, date, "UTC", "EUR").status().code(),
              absl::StatusCode::kInvalidArgument)
        << date;
  }
  FinanceQuery reversed{"2026-07-10", "2026-07-09", "UTC", "", "EUR"};
  EXPECT_EQ(ComputeFinanceReport(*store, reversed).status().code(),
            absl::StatusCode::kInvalidArgument);
  FinanceQuery year{"2026-01-01", "2027-01-02", "UTC", "", "EUR"};  // 367 days
  EXPECT_EQ(ComputeFinanceReport(*store, year).status().code(),
            absl::StatusCode::kInvalidArgument);
  year.to_date = "2026-12-31";
  auto report = ComputeFinanceReport(*store, year);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->days_size(), 365);
  FinanceQuery group{"2026-07-10", "2026-07-10", "UTC", "players", "EUR"};
  EXPECT_EQ(ComputeFinanceReport(*store, group).status().code(),
            absl::StatusCode::kInvalidArgument);
  FinanceQuery open_ended{"2026-07-10", "", "UTC", "", "EUR"};
  EXPECT_EQ(ComputeFinanceReport(*store, open_ended).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Not a check: how fast the reporting projections (every part) ingest a
// wallet log of deposits, and how long a close takes. Run by hand with
// --gtest_also_run_disabled_tests.
TEST_F(FinanceProjectionTest, DISABLED_IngestAndCloseTiming) {
  constexpr int kPlayers = 100;
  constexpr int kDeposits = 200'000;
  for (int p = 0; p < kPlayers; ++p) Open(absl::StrCat("p", p));
  batching_ = true;
  for (int i = 0; i < kDeposits; ++i) {
    if (i % 1000 == 0) Flush();
    Deposit(Utc(7, 10, 0) + absl::Seconds(i / 3),
            absl::StrCat("p", i % kPlayers), 100);
  }
  ReportingProjector all;
  WalletProjector wallet;
  GamesProjector games;
  FinanceProjector finance({std::string(wire::kWalletTopic)});
  for (auto [name, projector] :
       {std::pair<const char*, Projector*>{"reporting projector", &all},
        {"wallet part", &wallet},
        {"games part", &games},
        {"finance part", &finance}}) {
    auto store = ProjectionStore::Open(absl::StrCat(dir_, "/", name));
    ASSERT_TRUE(store.ok());
    const absl::Time start = absl::Now();
    auto applied = CatchUp(*log_, **store, *projector);
    ASSERT_TRUE(applied.ok());
    const absl::Duration took = absl::Now() - start;
    std::printf("%s: %lld events in %s (%.0f/s)\n", name,
                static_cast<long long>(*applied),
                absl::FormatDuration(took).c_str(),
                *applied / absl::ToDoubleSeconds(took));
    if (projector != &all) continue;
    const absl::Time close_start = absl::Now();
    const v1::DailyClose close = Close(**store, "2026-07-10", "Europe/Lisbon");
    std::printf("  close: %s, %lld events\n",
                absl::FormatDuration(absl::Now() - close_start).c_str(),
                static_cast<long long>(close.events()));
  }
}

TEST(StatementCsv, AMemoIsQuotedAsRfc4180Says) {
  v1::StatementEntry e;
  e.set_tx_id("tx-1");
  e.set_reason(v1::POSTING_REASON_ADJUSTMENT);
  e.mutable_reference()->set_kind(v1::REFERENCE_KIND_OPERATOR);
  e.mutable_reference()->set_id("fix-1");
  e.set_account("player/ana/cash");
  e.set_amount_minor(-5);
  e.set_balance_after_minor(123456);
  e.set_occurred_at_micros(1'783'728'000'000'000);  // 2026-07-11
  e.set_memo("goodwill, \"late\"\nrefund");
  std::string out;
  AppendStatementCsv("ana", "EUR", e, &out);
  EXPECT_EQ(out,
            "2026-07-11T00:00:00.000000Z,ana,player/ana/cash,tx-1,ADJUSTMENT,"
            "OPERATOR,fix-1,-0.05,1234.56,EUR,"
            "\"goodwill, \"\"late\"\"\nrefund\"\r\n");
  std::string json;
  AppendStatementJson("ana", "EUR", e, &json);
  EXPECT_NE(json.find("\"memo\":\"goodwill, \\\"late\\\"\\nrefund\""),
            std::string::npos)
      << json;
}

TEST_F(FinanceProjectionTest, ScanConsistentReadsRangesOfOneMomentWithALimit) {
  auto store = ProjectionStore::Open(dir_ + "/scan");
  ASSERT_TRUE(store.ok());
  Txn txn(**store);
  for (const char* key : {"a/1", "a/2", "a/3", "b/1", "b/2"}) {
    txn.Put(key, key);
  }
  ASSERT_TRUE((*store)->Commit(txn).ok());
  auto rows =
      (*store)->ScanConsistent({{"a/", "a/2", ""}, {"b/", "", "b/2"}}, 10);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  ASSERT_EQ((*rows)[0].size(), 2u);  // a/2, a/3
  EXPECT_EQ((*rows)[0][0].first, "a/2");
  ASSERT_EQ((*rows)[1].size(), 1u);  // b/1: the end is exclusive
  EXPECT_EQ((*rows)[1][0].first, "b/1");
  EXPECT_EQ((*store)
                ->ScanConsistent({{"a/", "", ""}, {"b/", "", ""}}, 4)
                .status()
                .code(),
            absl::StatusCode::kResourceExhausted);
}

TEST(FinanceBucket, FloorsAndSortsNegativeTimes) {
  EXPECT_EQ(FinanceBucketOf(0), 0);
  EXPECT_EQ(FinanceBucketOf(kFinanceBucketMicros - 1), 0);
  EXPECT_EQ(FinanceBucketOf(kFinanceBucketMicros), 1);
  EXPECT_EQ(FinanceBucketOf(-1), -1);
  EXPECT_LT(FinanceBucketKey(-1), FinanceBucketKey(0));
  EXPECT_LT(FinanceBucketKey(0), FinanceBucketKey(1));
}

}  // namespace
}  // namespace banca::projection
