// The buy-in saga's compensation end to end: the wallet's capture arrives
// after the table gave up on the saga (its timeout), so the table appends a
// compensating PlayerLeft and the wallet pays the money back. The real
// wallet runs in process; the test drives both saga readers and the clock,
// and checks the balances to the cent, then that a restart in which both
// readers read everything again doubles nothing.
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "tests/integration/table_test_fixture.h"

namespace banca::testing {
namespace {

class TableSagaTest : public TableServiceTest {
 protected:
  void SetUp() override {
    wallet_requests_interval_ = absl::ZeroDuration();  // the test polls
    outcome_poll_interval_ = absl::ZeroDuration();
    sit_wait_ = absl::Milliseconds(100);
    TableServiceTest::SetUp();
  }
  // The wallet carries out what the table asked; the table reads what the
  // wallet did.
  void WalletReads() {
    absl::StatusOr<int> n = wallet_->PollTableRequests();
    ASSERT_TRUE(n.ok()) << n.status();
  }
  void TableReads() {
    absl::StatusOr<int> n = table_->PollWalletOutcomes();
    ASSERT_TRUE(n.ok()) << n.status();
  }
  int CountTableEvents(v1::TableEvent::KindCase kind) {
    int n = 0;
    for (const v1::TableEvent& e : LoggedTableEvents()) {
      n += e.kind_case() == kind;
    }
    return n;
  }
  // The timeout's BuyInFailed is queued on the log by Tick, durable a
  // moment later.
  bool SagaFailedOnTheLog() {
    const absl::Time give_up = absl::Now() + absl::Seconds(10);
    while (CountTableEvents(v1::TableEvent::kBuyInFailed) == 0 &&
           absl::Now() < give_up) {
      absl::SleepFor(absl::Milliseconds(2));
    }
    return CountTableEvents(v1::TableEvent::kBuyInFailed) == 1;
  }
  // Both readers forget their positions, as after a crash between acting
  // and committing: on restart each reads its whole input again.
  void RewindReaders() {
    std::vector<eventlog::OffsetCommit> rewind;
    for (int p = 0;
         p < log_->PartitionCount(wire::kTableRequestsTopic).value_or(0); ++p) {
      rewind.push_back({"wallet.table-requests",
                        std::string(wire::kTableRequestsTopic), p, 0});
    }
    for (int p = 0; p < log_->PartitionCount(wire::kWalletTopic).value_or(0);
         ++p) {
      rewind.push_back(
          {"table.buy-in-outcomes", std::string(wire::kWalletTopic), p, 0});
    }
    ASSERT_TRUE(log_->CommitOffsets(std::move(rewind)).ok());
  }
  void ExpectPaidBack() {
    EXPECT_EQ(Cash("ana"), 50'000);
    EXPECT_EQ(Seat("t1", "ana"), 0);
    EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
    EXPECT_EQ(wallet_->ledger().Summarize().open_holds, 0);
    EXPECT_EQ(View("ana", "t1").my_seat(), 0);
  }
};

TEST_F(TableSagaTest, ASitRetriedAfterItsDeadlineStartsNoSecondBuyIn) {
  Fund("ana", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  // The wallet is not reading yet: the Sit's saga is logged and waits.
  EXPECT_EQ(Sit("ana", "t1", 1, 10'000).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
  // The client retries with the same request id: still waiting, and no
  // second buy-in is asked of the wallet.
  grpc::Status again = Sit("ana", "t1", 1, 10'000);
  EXPECT_EQ(again.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED)
      << again.error_message();
  EXPECT_EQ(CountTableEvents(v1::TableEvent::kBuyInRequested), 1);
  // The wallet holds and captures once; the table seats her; the retry
  // now answers the seat.
  WalletReads();
  TableReads();
  v1::SeatResponse seat;
  grpc::Status done = Sit("ana", "t1", 1, 10'000, &seat);
  ASSERT_TRUE(done.ok()) << done.error_message();
  EXPECT_EQ(seat.seat(), 1);
  EXPECT_EQ(seat.stack_minor(), 10'000);
  EXPECT_EQ(CountTableEvents(v1::TableEvent::kBuyInRequested), 1);
  EXPECT_EQ(Cash("ana"), 40'000);
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
}

// What the operator watches (banca_wallet_request_lag_records): the table
// records the wallet has yet to carry out.
TEST_F(TableSagaTest, TheWalletsLagCountsTheRequestsItHasNotCarriedOut) {
  Fund("ana", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  WalletReads();  // the table's creation: nothing to do, nothing behind
  ASSERT_EQ(*wallet_->TableRequestLag(), 0);
  EXPECT_EQ(Sit("ana", "t1", 1, 10'000).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_EQ(*wallet_->TableRequestLag(), 1);  // the BuyInRequested
  EXPECT_EQ(*wallet_->BankedRequestLag(), 0);
  WalletReads();
  EXPECT_EQ(*wallet_->TableRequestLag(), 0);
}

TEST_F(TableSagaTest, ALateCaptureIsPaidBackOnceEvenAfterARestart) {
  Fund("ana", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  // The wallet is not reading: Sit answers DEADLINE_EXCEEDED, the saga
  // goes on.
  grpc::Status s = Sit("ana", "t1", 1, 10'000);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED)
      << s.error_message();
  EXPECT_EQ(Cash("ana"), 50'000);
  // The table gives up after its saga timeout (10 s on its clock).
  table_->Tick();
  clock_.Advance(absl::Seconds(9));
  table_->Tick();
  EXPECT_EQ(CountTableEvents(v1::TableEvent::kBuyInFailed), 0);
  clock_.Advance(absl::Seconds(2));
  table_->Tick();
  ASSERT_TRUE(SagaFailedOnTheLog());
  // Then the wallet holds and captures: the money is in the seat account
  // of a player the table never seated.
  WalletReads();
  EXPECT_EQ(Cash("ana"), 40'000);
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
  EXPECT_EQ(View("ana", "t1").my_seat(), 0);
  // The table sees the late capture and compensates; the wallet pays back.
  TableReads();
  ASSERT_EQ(CountTableEvents(v1::TableEvent::kPlayerLeft), 1);
  WalletReads();
  ExpectPaidBack();
  // Polling again changes nothing.
  TableReads();
  WalletReads();
  EXPECT_EQ(CountTableEvents(v1::TableEvent::kPlayerLeft), 1);
  ExpectPaidBack();

  // A restart in which both readers read everything again: the wallet's
  // idempotency index and the table's replayed saga ends make every step
  // a repeat.
  const int64_t events = TableEvents();
  Shutdown();
  {
    auto log = eventlog::OpenLogBackend("embedded", dir_);
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = std::move(*log);
    RewindReaders();
    log_.reset();
  }
  Start();
  WalletReads();
  TableReads();
  WalletReads();
  EXPECT_EQ(TableEvents(), events);
  EXPECT_EQ(CountTableEvents(v1::TableEvent::kPlayerLeft), 1);
  ExpectPaidBack();
  // The player can still sit with a new request.
  wallet_requests_interval_ = absl::Milliseconds(1);
  outcome_poll_interval_ = absl::Milliseconds(1);
  sit_wait_ = absl::Seconds(10);
  Shutdown();
  Start();
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000, nullptr, "sit-ana-2").ok());
  Settle();
  EXPECT_EQ(Cash("ana"), 40'000);
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
}

// With HE-17b buy-in rake the late capture also moved the rake into
// house/rake: the pay-back returns it too, so the player is whole to the
// cent and the house keeps nothing for a seat it never gave.
TEST_F(TableSagaTest, ALateCaptureGivesTheBuyInRakeBackToo_HE17b) {
  Fund("ana", 50'000);
  v1::PokerTableConfig c = Holdem();
  c.set_rake_mode(v1::RAKE_MODE_SETTING_BUY_IN);
  c.set_rake_bps(1000);  // 10 %
  ASSERT_TRUE(Create("t1", c).ok());
  EXPECT_EQ(Sit("ana", "t1", 1, 10'000).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
  table_->Tick();
  clock_.Advance(absl::Seconds(11));
  table_->Tick();
  ASSERT_TRUE(SagaFailedOnTheLog());
  const std::string rake(settlement::kRakeAccount);
  WalletReads();
  EXPECT_EQ(Cash("ana"), 40'000);
  EXPECT_EQ(Seat("t1", "ana"), 9'000);
  EXPECT_EQ(wallet_->ledger().AccountBalance(rake), 1'000);
  TableReads();
  WalletReads();
  ExpectPaidBack();
  EXPECT_EQ(wallet_->ledger().AccountBalance(rake), 0);
}

}  // namespace
}  // namespace banca::testing

namespace banca::testing {
namespace {

// A wallet event is taken as a saga's outcome only by provenance: the
// wallet's own step (its actor), for the saga's player, moving the saga's
// amount to the seat. Neither a client's event carrying a saga's step id
// nor a capture of another amount completes the buy-in.
TEST_F(TableSagaTest, AnOutcomeCountsByProvenanceNotByItsRequestId) {
  Fund("ana", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  EXPECT_EQ(Sit("ana", "t1", 1, 10'000).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
  std::string saga;
  for (const v1::TableEvent& e : LoggedTableEvents()) {
    if (e.has_buy_in_requested()) saga = e.buy_in_requested().saga_id();
  }
  ASSERT_FALSE(saga.empty());
  auto forge = [&](const std::string& actor, int64_t amount, uint64_t seq) {
    v1::WalletEvent event;
    event.set_request_id(saga + "/seat");
    event.set_actor(actor);
    v1::HoldCaptured* c = event.mutable_hold_captured();
    c->set_hold_id("ana:1");
    c->set_player_id("ana");
    c->set_amount_minor(amount);
    const std::string stream = "wallet/forged";
    std::vector<eventlog::Record> records;
    records.push_back(wire::EncodeWalletRecord(
        ledger::Committed{stream, seq, event}, wire::WalletEventContext{}));
    ASSERT_TRUE(log_->Append(std::move(records)).ok());
  };
  forge("player:mallory", 10'000, 1);  // a client's event
  forge("wallet", 1, 2);               // the wallet's, another amount
  TableReads();
  EXPECT_EQ(CountTableEvents(v1::TableEvent::kBuyInCompleted), 0);
  EXPECT_EQ(View("ana", "t1").my_seat(), 0);
  // The real outcome completes it.
  WalletReads();
  TableReads();
  EXPECT_EQ(CountTableEvents(v1::TableEvent::kBuyInCompleted), 1);
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
}

}  // namespace
}  // namespace banca::testing
