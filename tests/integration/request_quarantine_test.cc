// No request can jam the wallet's readers (docs/security.md, "Quarantine").
// A table request the wallet can never carry out used to stop its
// partition of the table requests for good (buy-ins, settlements and
// cash-outs of every table on it), across restarts, while `banca audit
// verify` said OK. Now it is quarantined once (one RequestQuarantined,
// counted, logged), the next request runs, a restart repeats nothing and
// the audit fails naming it; a transient failure is retried instead.
//
// The real wallet on an embedded log on disk, its table reader polled by
// the test; the table's requests are appended by hand, as a faulty or
// hostile table service would write them.
#include "services/wallet/request_quarantine.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "libs/common/clock.h"
#include "libs/eventlog/log_backend.h"
#include "libs/ledger/account.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "prometheus/registry.h"
#include "services/audit/audit.h"
#include "services/wallet/wallet_service.h"
#include "tests/integration/fault_log.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

constexpr int kTablePartitions = 8;
constexpr char kReaderGroup[] = "wallet.table-requests";

struct Logged {
  std::string stream;
  v1::WalletEvent event;
};

class RequestQuarantineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir(
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    auto log = eventlog::OpenLogBackend("embedded", dir_);
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
    faults_ = std::make_unique<FaultLog>(*log_);
    for (std::string_view topic :
         {wire::kTableTopic, wire::kTableRequestsTopic}) {
      ASSERT_TRUE(
          log_->EnsureTopic({std::string(topic), kTablePartitions}).ok());
    }
    StartWallet();
  }
  void TearDown() override { CloseAll(); }

  void StartWallet() {
    registry_ = std::make_unique<prometheus::Registry>();
    wallet::WalletOptions options;
    options.projection_dir = dir_ + "/projections/wallet";
    std::filesystem::create_directories(options.projection_dir);
    options.expiry_interval = absl::ZeroDuration();
    options.table_requests_interval = absl::ZeroDuration();  // the test polls
    options.metrics = registry_.get();
    options.verifier = TestVerifier();
    auto started = wallet::WalletService::Start(*faults_, clock_, options);
    ASSERT_TRUE(started.ok()) << started.status();
    wallet_ = *std::move(started);
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.RegisterService(wallet_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    stub_ = v1::WalletService::NewStub(edge::AuthorizedChannel(
        absl::StrCat("127.0.0.1:", port),
        *edge::BackOfficeTokens(TestSigningKey(), "test", [this] {
          return clock_.NowMicros() / 1'000'000;
        })));
  }
  void StopWallet() {
    if (server_) server_->Shutdown();
    if (wallet_) {
      EXPECT_TRUE(wallet_->Stop().ok());
    }
    stub_.reset();
    server_.reset();
    wallet_.reset();
  }
  void CloseAll() {
    StopWallet();
    faults_.reset();
    log_.reset();
  }
  // A crash between acting and committing: on restart the reader reads
  // every table request again.
  void RestartRewound() {
    StopWallet();
    std::vector<eventlog::OffsetCommit> rewind;
    for (int p = 0; p < kTablePartitions; ++p) {
      rewind.push_back(
          {kReaderGroup, std::string(wire::kTableRequestsTopic), p, 0});
    }
    ASSERT_TRUE(log_->CommitOffsets(std::move(rewind)).ok());
    StartWallet();
  }
  absl::StatusOr<audit::AuditReport> Audit() {
    CloseAll();
    return audit::VerifyDataDir(dir_);
  }

  void Fund(const std::string& player, int64_t cash) {
    FundPlayer(*stub_, player, cash);
  }

  // Appends a request of `table_id` as its table service would (the event
  // and the wallet's copy); returns where the copy is.
  eventlog::Position Table(const std::string& table_id, v1::TableEvent e) {
    e.set_table_id(table_id);
    wire::TableEventContext ctx;
    ctx.producer = "table";
    std::vector<eventlog::Record> records;
    wire::AppendTableRecords(e, ++table_sequence_[table_id], ctx, &records);
    auto appended = log_->Append(std::move(records));
    EXPECT_TRUE(appended.ok()) << appended.status();
    return appended.ok() ? appended->back() : eventlog::Position{};
  }
  eventlog::Position BuyIn(const std::string& table_id, const std::string& saga,
                           const std::string& player, int64_t paid,
                           int64_t rake = 0) {
    v1::TableEvent e;
    v1::BuyInRequested* r = e.mutable_buy_in_requested();
    r->set_saga_id(saga);
    r->set_player_id(player);
    r->set_seat(1);
    r->set_paid_minor(paid);
    r->set_rake_minor(rake);
    return Table(table_id, std::move(e));
  }
  // Hand 1 of `table_id`: `loser` puts `amount` in the pot, `winner` takes
  // it.
  eventlog::Position Hand(const std::string& table_id, const std::string& loser,
                          const std::string& winner, int64_t amount) {
    v1::TableEvent e;
    v1::HandSettled* h = e.mutable_hand_settled();
    h->set_hand_number(1);
    h->set_hand_id(settlement::HandId(table_id, 1));
    auto tx = [&](v1::PostingReason reason, const std::string& from,
                  const std::string& to) {
      v1::LedgerTransaction* t = h->add_transactions();
      t->set_reason(reason);
      *t->mutable_reference() = settlement::HandReference(table_id, 1);
      v1::Posting* debit = t->add_postings();
      debit->set_account(from);
      debit->set_amount_minor(-amount);
      v1::Posting* credit = t->add_postings();
      credit->set_account(to);
      credit->set_amount_minor(amount);
    };
    const std::string pot = settlement::PotAccount(table_id);
    tx(v1::POSTING_REASON_POT_CONTRIBUTION,
       settlement::SeatAccount(table_id, loser), pot);
    tx(v1::POSTING_REASON_POT_AWARD, pot,
       settlement::SeatAccount(table_id, winner));
    return Table(table_id, std::move(e));
  }

  void Poll() {
    absl::StatusOr<int> handled = wallet_->PollTableRequests();
    ASSERT_TRUE(handled.ok()) << handled.status();
  }
  int64_t Committed(int partition) {
    return log_
        ->CommittedOffset(kReaderGroup, std::string(wire::kTableRequestsTopic),
                          partition)
        .value_or(-1);
  }
  std::vector<Logged> WalletEvents() {
    std::vector<Logged> out;
    const std::string topic(wire::kWalletTopic);
    for (int p = 0; p < log_->PartitionCount(topic).value_or(0); ++p) {
      auto records = log_->Read(topic, p, 0, 100'000);
      EXPECT_TRUE(records.ok()) << records.status();
      if (!records.ok()) continue;
      for (const eventlog::StoredRecord& r : *records) {
        auto decoded = wire::DecodeWalletRecord(r);
        EXPECT_TRUE(decoded.ok()) << decoded.status();
        if (decoded.ok()) {
          out.push_back({decoded->envelope.stream_id(), decoded->event});
        }
      }
    }
    return out;
  }
  std::vector<Logged> Quarantines() {
    std::vector<Logged> out;
    for (Logged& l : WalletEvents()) {
      if (l.event.has_request_quarantined()) out.push_back(std::move(l));
    }
    return out;
  }
  double QuarantinedMetric() {
    for (const prometheus::MetricFamily& f : registry_->Collect()) {
      if (f.name != "banca_wallet_requests_quarantined_total") continue;
      for (const prometheus::ClientMetric& m : f.metric) {
        for (const prometheus::ClientMetric::Label& l : m.label) {
          if (l.name == "topic" && l.value == wire::kTableRequestsTopic) {
            return m.counter.value;
          }
        }
      }
    }
    return 0;
  }
  int64_t Cash(const std::string& player) {
    return wallet_->ledger().AccountBalance(ledger::PlayerCashAccount(player));
  }
  int64_t Held(const std::string& player) {
    return wallet_->ledger().AccountBalance(ledger::PlayerHeldAccount(player));
  }
  int64_t Seat(const std::string& table_id, const std::string& player) {
    return wallet_->ledger().AccountBalance(
        settlement::SeatAccount(table_id, player));
  }

  std::string dir_;
  ManualClock clock_{1'767'225'600'000'000};
  std::unique_ptr<eventlog::EventLog> log_;
  std::unique_ptr<FaultLog> faults_;
  std::unique_ptr<prometheus::Registry> registry_;
  std::unique_ptr<wallet::WalletService> wallet_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::WalletService::Stub> stub_;
  std::map<std::string, uint64_t> table_sequence_;
};

// A settlement that debits a seat holding nothing can never be posted.
// Before quarantine the reader stopped at it for good: the buy-in behind
// it never ran, and the audit said OK.
TEST_F(RequestQuarantineTest, AnUnpayableSettlementIsQuarantinedOnceNotAJam) {
  Fund("ana", 50'000);
  const eventlog::Position hand = Hand("t1", "ana", "bob", 500);
  const eventlog::Position buy_in =
      BuyIn("t1", "table/t1/buyin/1", "ana", 10'000);
  ASSERT_EQ(hand.partition, buy_in.partition);  // one table, one partition
  ASSERT_EQ(buy_in.offset, hand.offset + 1);

  ::testing::internal::CaptureStderr();
  Poll();
  const std::string logged = ::testing::internal::GetCapturedStderr();

  // The next request in the partition was carried out...
  EXPECT_EQ(Committed(hand.partition), buy_in.offset + 1);
  EXPECT_EQ(Cash("ana"), 40'000);
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
  EXPECT_EQ(Seat("t1", "bob"), 0);
  EXPECT_EQ(wallet_->ledger().AccountBalance(settlement::PotAccount("t1")), 0);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
  // ... and the settlement quarantined once, on the table's stream, named
  // by where it is, the step that failed and why.
  std::vector<Logged> quarantines = Quarantines();
  ASSERT_EQ(quarantines.size(), 1u);
  const v1::RequestQuarantined& q = quarantines[0].event.request_quarantined();
  EXPECT_EQ(quarantines[0].stream, "wallet/table/t1/pot");
  EXPECT_EQ(quarantines[0].event.request_id(),
            wire::QuarantineRequestId(wire::kTableRequestsTopic, hand.partition,
                                      hand.offset));
  EXPECT_EQ(q.topic(), wire::kTableRequestsTopic);
  EXPECT_EQ(q.partition(), hand.partition);
  EXPECT_EQ(q.offset(), hand.offset);
  EXPECT_EQ(q.step(), "hand/t1.h1/0");
  EXPECT_EQ(q.code(), "FAILED_PRECONDITION");
  EXPECT_TRUE(absl::StrContains(q.message(), "insufficient funds"))
      << q.message();
  EXPECT_EQ(QuarantinedMetric(), 1);
  EXPECT_TRUE(absl::StrContains(logged, "\"msg\":\"request quarantined\""))
      << logged;
  EXPECT_TRUE(absl::StrContains(logged, "\"step\":\"hand/t1.h1/0\"")) << logged;

  // Polling again, and a restart that reads every request again, repeat
  // nothing: the seat now holds enough for the settlement, which still
  // does not run a second life after its quarantine.
  Poll();
  const size_t events = WalletEvents().size();
  RestartRewound();
  Poll();
  EXPECT_EQ(WalletEvents().size(), events);
  EXPECT_EQ(Quarantines().size(), 1u);
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
  EXPECT_EQ(Seat("t1", "bob"), 0);
  EXPECT_EQ(Cash("ana"), 40'000);
  EXPECT_EQ(Committed(hand.partition), buy_in.offset + 1);
  EXPECT_EQ(QuarantinedMetric(), 0);  // this process quarantined nothing

  // The audit fails and names it.
  absl::StatusOr<audit::AuditReport> report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_FALSE(report->ok());
  const std::string where =
      absl::StrCat("banca.table.requests/", hand.partition, "@", hand.offset,
                   " step hand/t1.h1/0: FAILED_PRECONDITION");
  ASSERT_EQ(report->quarantined.size(), 1u);
  EXPECT_EQ(report->quarantined[0], where);
  EXPECT_TRUE(absl::StrContains(audit::ProblemLines(report->problems), where))
      << audit::ProblemLines(report->problems);
  EXPECT_TRUE(absl::StrContains(audit::FormatAuditReport(*report),
                                "RESULT: 1 PROBLEM(S)"))
      << audit::FormatAuditReport(*report);
  EXPECT_EQ(report->poker.buy_ins, 1);
  EXPECT_EQ(report->poker.settlements, 1);
  EXPECT_EQ(report->poker.carried_out, 1);
  EXPECT_EQ(report->poker.quarantined, 1);
  EXPECT_EQ(report->poker.pending, 0);
}

// A step whose request id is already taken (ALREADY_EXISTS) can never be
// carried out: the collision the attack made, here from a table that asks
// twice under one saga id with another amount. The first buy-in stands,
// the second is quarantined, the next player's runs.
TEST_F(RequestQuarantineTest, AStepWhoseIdIsTakenIsQuarantinedNotAJam) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  BuyIn("t1", "table/t1/buyin/1", "ana", 10'000);
  const eventlog::Position again =
      BuyIn("t1", "table/t1/buyin/1", "ana", 20'000);
  const eventlog::Position next = BuyIn("t1", "table/t1/buyin/2", "bob", 5'000);
  Poll();
  EXPECT_EQ(Committed(next.partition), next.offset + 1);
  EXPECT_EQ(Cash("ana"), 40'000);
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
  EXPECT_EQ(Cash("bob"), 45'000);
  EXPECT_EQ(Seat("t1", "bob"), 5'000);
  std::vector<Logged> quarantines = Quarantines();
  ASSERT_EQ(quarantines.size(), 1u);
  const v1::RequestQuarantined& q = quarantines[0].event.request_quarantined();
  EXPECT_EQ(quarantines[0].stream, "wallet/player/ana");
  EXPECT_EQ(q.offset(), again.offset);
  EXPECT_EQ(q.step(), "table/t1/buyin/1/hold");
  EXPECT_EQ(q.code(), "ALREADY_EXISTS");
  EXPECT_EQ(QuarantinedMetric(), 1);

  // The attack itself: a client's Deposit under the id of a buy-in's hold
  // before the table asks. While client ids share the wallet's namespace
  // the id is taken and the buy-in is quarantined; once they no longer
  // do, the buy-in runs. Either way the partition goes on.
  v1::DepositRequest deposit;
  deposit.set_request_id("table/t1/buyin/3/hold");
  deposit.set_player_id("bob");
  deposit.set_amount_minor(1);
  deposit.set_payment_ref("psp-attack");
  v1::TransactionResponse tx;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->Deposit(&ctx, deposit, &tx).ok());
  bool taken = false;
  for (const Logged& l : WalletEvents()) {
    taken |= l.event.request_id() == "table/t1/buyin/3/hold";
  }
  BuyIn("t1", "table/t1/buyin/3", "bob", 5'000);
  const eventlog::Position after =
      BuyIn("t1", "table/t1/buyin/4", "ana", 1'000);
  Poll();
  EXPECT_EQ(Committed(after.partition), after.offset + 1);
  EXPECT_EQ(Seat("t1", "ana"), 11'000);
  EXPECT_EQ(Quarantines().size(), taken ? 2u : 1u);
  EXPECT_EQ(Seat("t1", "bob"), taken ? 5'000 : 10'000);
  EXPECT_EQ(Held("bob"), 0);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
}

// A step refused after the hold was placed (here the seat's capture: a
// buy-in whose money is all rake leaves nothing to seat, and the ledger
// refuses a capture of 0) must not strand the player's money in the hold
// until it expires: the hold is released at once, then the request
// quarantined; a restart repeats neither.
TEST_F(RequestQuarantineTest, AStepRefusedAfterTheHoldReleasesTheHold) {
  Fund("ana", 50'000);
  const eventlog::Position buy_in =
      BuyIn("t1", "table/t1/buyin/1", "ana", 10'000, /*rake=*/10'000);
  Poll();
  EXPECT_EQ(Committed(buy_in.partition), buy_in.offset + 1);
  EXPECT_EQ(Cash("ana"), 50'000);
  EXPECT_EQ(Held("ana"), 0);
  EXPECT_EQ(wallet_->ledger().Summarize().open_holds, 0);
  std::vector<Logged> quarantines = Quarantines();
  ASSERT_EQ(quarantines.size(), 1u);
  EXPECT_EQ(quarantines[0].event.request_quarantined().step(),
            "table/t1/buyin/1/seat");
  EXPECT_EQ(quarantines[0].event.request_quarantined().code(),
            "INVALID_ARGUMENT");
  int released = 0;
  for (const Logged& l : WalletEvents()) {
    released += l.event.has_hold_released();
  }
  EXPECT_EQ(released, 1);
  const size_t events = WalletEvents().size();
  RestartRewound();
  Poll();
  EXPECT_EQ(WalletEvents().size(), events);
  EXPECT_EQ(Cash("ana"), 50'000);
  absl::StatusOr<audit::AuditReport> report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_FALSE(report->ok());
  EXPECT_EQ(report->poker.quarantined, 1);
  EXPECT_EQ(report->ledger.open_holds, 0);
}

// A transient failure (the log's partition unavailable) is retried, not
// quarantined, and holds back only its own partition.
TEST_F(RequestQuarantineTest, ATransientFailureIsRetriedNotQuarantined) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  const eventlog::Position stuck =
      BuyIn("t1", "table/t1/buyin/1", "ana", 10'000);
  // A table on another partition.
  std::string other = "t2";
  for (int i = 3;
       eventlog::PartitionForKey(wire::TableStream(other), kTablePartitions) ==
       stuck.partition;
       ++i) {
    other = absl::StrCat("t", i);
  }
  const eventlog::Position other_buy_in =
      BuyIn(other, absl::StrCat("table/", other, "/buyin/1"), "bob", 5'000);
  faults_->FailReads(wire::kTableRequestsTopic, stuck.partition);
  absl::StatusOr<int> handled = wallet_->PollTableRequests();
  EXPECT_EQ(handled.status().code(), absl::StatusCode::kUnavailable)
      << handled.status();
  EXPECT_EQ(Committed(stuck.partition), stuck.offset);
  EXPECT_EQ(Committed(other_buy_in.partition), other_buy_in.offset + 1);
  EXPECT_EQ(Seat(other, "bob"), 5'000);
  EXPECT_EQ(Seat("t1", "ana"), 0);
  EXPECT_TRUE(Quarantines().empty());
  EXPECT_EQ(QuarantinedMetric(), 0);
  faults_->ClearReadFault();
  Poll();
  EXPECT_EQ(Committed(stuck.partition), stuck.offset + 1);
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
  EXPECT_TRUE(Quarantines().empty());
  absl::StatusOr<audit::AuditReport> report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << audit::ProblemLines(report->problems);
  EXPECT_EQ(report->poker.carried_out, 2);
}

// A record on a requests topic that does not decode: whether it asked for
// money nobody can tell, so one reader (the unnamed requester's)
// quarantines it, once, at the "decode" step, and the request after it in
// its partition runs. The poker and the banked requests alike.
TEST_F(RequestQuarantineTest, ARecordThatDoesNotDecodeIsQuarantinedOnce) {
  ASSERT_TRUE(log_->EnsureTopic({std::string(wire::kBankedRequestsTopic),
                                 kTablePartitions})
                  .ok());
  Fund("ana", 50'000);
  std::vector<eventlog::Position> junk;
  for (std::string_view topic :
       {wire::kTableRequestsTopic, wire::kBankedRequestsTopic}) {
    eventlog::Record record;
    record.topic = std::string(topic);
    record.key = wire::TableStream("t1");  // the buy-in's partition
    record.value = "not an event envelope";
    auto appended = log_->Append({std::move(record)});
    ASSERT_TRUE(appended.ok()) << appended.status();
    junk.push_back(appended->front());
  }
  const eventlog::Position buy_in =
      BuyIn("t1", "table/t1/buyin/1", "ana", 10'000);
  ASSERT_EQ(buy_in.partition, junk[0].partition);
  for (int i = 0; i < 2; ++i) {  // again: nothing repeats
    Poll();
    ASSERT_TRUE(wallet_->PollBankedRequests().ok());
  }
  EXPECT_EQ(Committed(buy_in.partition), buy_in.offset + 1);
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
  std::vector<Logged> quarantines = Quarantines();
  ASSERT_EQ(quarantines.size(), 2u);
  for (size_t i = 0; i < quarantines.size(); ++i) {
    const v1::RequestQuarantined& q =
        quarantines[i].event.request_quarantined();
    EXPECT_EQ(quarantines[i].stream,
              "wallet/" + std::string(wire::kUnnamedRequester));
    EXPECT_EQ(q.step(), "decode");
    EXPECT_EQ(q.code(), "DATA_LOSS");
    const size_t which = q.topic() == wire::kTableRequestsTopic ? 0 : 1;
    EXPECT_EQ(q.partition(), junk[which].partition) << q.topic();
    EXPECT_EQ(q.offset(), junk[which].offset) << q.topic();
  }
  EXPECT_NE(quarantines[0].event.request_quarantined().topic(),
            quarantines[1].event.request_quarantined().topic());
}

TEST(RequestQuarantine, OnlyFailuresThatRepeatAreQuarantined) {
  for (const absl::Status& permanent :
       {absl::InvalidArgumentError(""), absl::AlreadyExistsError(""),
        absl::FailedPreconditionError(""), absl::OutOfRangeError(""),
        absl::NotFoundError(""), absl::DataLossError(""),
        absl::PermissionDeniedError("")}) {
    EXPECT_TRUE(wallet::IsPermanentRequestFailure(permanent)) << permanent;
  }
  for (const absl::Status& transient :
       {absl::UnavailableError(""), absl::DeadlineExceededError(""),
        absl::AbortedError(""), absl::ResourceExhaustedError(""),
        absl::InternalError(""), absl::CancelledError(""), absl::OkStatus()}) {
    EXPECT_FALSE(wallet::IsPermanentRequestFailure(transient)) << transient;
  }
}

}  // namespace
}  // namespace banca::testing
