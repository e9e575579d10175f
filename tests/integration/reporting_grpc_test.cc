// The reporting service (services/reporting) beside the real wallet on an
// embedded log, over gRPC on loopback: statements by range and page, who
// may read what, bad input, a restart, and the projections equal to a
// rebuild from offset 0 (docs/reporting.md).
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "banca/v1/reporting.grpc.pb.h"
#include "libs/projection/reporting_rebuild.h"
#include "services/audit/audit.h"
#include "services/reporting/reporting_service.h"
#include "tests/harness/service_harness.h"

namespace banca::testing {
namespace {

using auth::Role;

enum class Backend { kEmbedded, kKafka };

class ReportingTest : public ServiceHarness,
                      public ::testing::WithParamInterface<Backend> {
 protected:
  ReportingTest() : ServiceHarness(wire::kTournamentTopics, "reporting-") {}

  void SetUp() override {
    if (GetParam() == Backend::kKafka) {
      const std::string bootstrap = KafkaBootstrap();
      if (bootstrap.empty()) GTEST_SKIP() << kNoKafka;
      UseKafka(bootstrap);
    }
    ServiceHarness::SetUp();
  }

  absl::StatusOr<grpc::Service*> StartTables() override {
    reporting::ReportingServiceOptions o;
    o.projection_dir = dir_ + "/projections/reporting";
    o.verifier = TestVerifier();
    ASSIGN_OR_RETURN(service_,
                     reporting::ReportingService::Start(*log_, clock_, o));
    return service_.get();
  }
  void ConnectTables(std::shared_ptr<grpc::Channel> channel) override {
    stub_ = v1::ReportingService::NewStub(channel);
  }
  void StopTables() override {
    if (service_) {
      absl::Status stopped = service_->Stop();
      EXPECT_TRUE(stopped.ok()) << stopped;
    }
  }
  void ReleaseTables() override { service_.reset(); }

  // ana: an account, then five deposits of 100, 200, ... one minute apart.
  void FiveDeposits() {
    Fund("ana", 0);
    Fund("bia", 50);
    for (int i = 1; i <= 5; ++i) {
      clock_.Advance(absl::Minutes(1));
      times_.push_back(clock_.NowMicros());
      v1::DepositRequest d;
      d.set_request_id(absl::StrCat("dep-ana-", i));
      d.set_player_id("ana");
      d.set_amount_minor(100 * i);
      d.set_payment_ref(absl::StrCat("psp-", i));
      v1::TransactionResponse tx;
      grpc::ClientContext c;
      ASSERT_TRUE(wallet_stub_->Deposit(&c, d, &tx).ok());
    }
  }

  grpc::Status Statement(const std::string& caller, Role role,
                         const v1::StatementRequest& r, v1::StatementPage* p) {
    return stub_->GetStatement(As(caller, role).get(), r, p);
  }
  static v1::StatementRequest Of(const std::string& player, int32_t size = 0) {
    v1::StatementRequest r;
    r.set_player_id(player);
    r.set_page_size(size);
    return r;
  }

  std::unique_ptr<reporting::ReportingService> service_;
  std::unique_ptr<v1::ReportingService::Stub> stub_;
  std::vector<int64_t> times_;
};

TEST_P(ReportingTest, AStatementHasEveryMovementWithItsRunningBalance) {
  FiveDeposits();
  v1::StatementPage page;
  ASSERT_TRUE(Statement("ana", Role::kPlayer, Of("ana"), &page).ok());
  ASSERT_EQ(page.entries_size(), 5);
  EXPECT_EQ(page.currency(), "EUR");
  int64_t balance = 0;
  for (int i = 0; i < 5; ++i) {
    const v1::StatementEntry& e = page.entries(i);
    balance += 100 * (i + 1);
    EXPECT_EQ(e.amount_minor(), 100 * (i + 1));
    EXPECT_EQ(e.balance_after_minor(), balance);
    EXPECT_EQ(e.reason(), v1::POSTING_REASON_DEPOSIT);
    EXPECT_EQ(e.occurred_at_micros(), times_[i]);
  }
  EXPECT_TRUE(page.next_page_token().empty());
}

TEST_P(ReportingTest, PagesAndRangesFollowTheirQuery) {
  FiveDeposits();
  std::vector<int64_t> amounts;
  v1::StatementRequest r = Of("ana", 2);
  for (int pages = 0;; ++pages) {
    ASSERT_LT(pages, 3);
    v1::StatementPage page;
    ASSERT_TRUE(Statement("ana", Role::kPlayer, r, &page).ok());
    for (const auto& e : page.entries()) amounts.push_back(e.amount_minor());
    if (page.next_page_token().empty()) break;
    r.set_page_token(page.next_page_token());
  }
  EXPECT_EQ(amounts, (std::vector<int64_t>{100, 200, 300, 400, 500}));
  // [second deposit, fourth): the second and the third.
  v1::StatementRequest ranged = Of("ana");
  ranged.set_from_micros(times_[1]);
  ranged.set_to_micros(times_[3]);
  v1::StatementPage page;
  ASSERT_TRUE(Statement("ana", Role::kFinance, ranged, &page).ok());
  ASSERT_EQ(page.entries_size(), 2);
  EXPECT_EQ(page.entries(0).amount_minor(), 200);
  EXPECT_EQ(page.entries(1).amount_minor(), 300);
  // A token of ana's listing does not open bia's, nor another range.
  v1::StatementPage first;
  ASSERT_TRUE(Statement("ana", Role::kFinance, Of("ana", 1), &first).ok());
  v1::StatementRequest other = Of("bia", 1);
  other.set_page_token(first.next_page_token());
  v1::StatementPage p;
  EXPECT_EQ(Statement("x", Role::kFinance, other, &p).error_code(),
            grpc::INVALID_ARGUMENT);
  v1::StatementRequest moved = Of("ana", 1);
  moved.set_from_micros(1);
  moved.set_page_token(first.next_page_token());
  EXPECT_EQ(Statement("x", Role::kFinance, moved, &p).error_code(),
            grpc::INVALID_ARGUMENT);
}

TEST_P(ReportingTest, WhoMayReadWhat) {
  FiveDeposits();
  v1::StatementPage p;
  EXPECT_TRUE(Statement("ana", Role::kPlayer, Of("ana"), &p).ok());
  EXPECT_EQ(Statement("bia", Role::kPlayer, Of("ana"), &p).error_code(),
            grpc::PERMISSION_DENIED);
  for (Role role : {Role::kFinance, Role::kAuditor, Role::kOperator}) {
    EXPECT_TRUE(Statement("staff", role, Of("ana"), &p).ok());
  }
  for (Role role : {Role::kService, Role::kGateway}) {
    EXPECT_EQ(Statement("svc", role, Of("ana"), &p).error_code(),
              grpc::PERMISSION_DENIED);
  }
  grpc::ClientContext none;
  EXPECT_EQ(stub_->GetStatement(&none, Of("ana"), &p).error_code(),
            grpc::UNAUTHENTICATED);
  v1::ProjectionStatus status;
  for (Role role : {Role::kAuditor, Role::kOperator}) {
    EXPECT_TRUE(stub_
                    ->GetProjectionStatus(As("staff", role).get(),
                                          v1::ProjectionStatusRequest(),
                                          &status)
                    .ok());
  }
  for (Role role : {Role::kPlayer, Role::kFinance, Role::kService}) {
    EXPECT_EQ(stub_
                  ->GetProjectionStatus(As("x", role).get(),
                                        v1::ProjectionStatusRequest(), &status)
                  .error_code(),
              grpc::PERMISSION_DENIED);
  }
}

TEST_P(ReportingTest, BadInputGetsAPreciseError) {
  FiveDeposits();
  v1::StatementPage p;
  auto code = [&](v1::StatementRequest r) {
    return Statement("fin", Role::kFinance, r, &p).error_code();
  };
  v1::StatementRequest reversed = Of("ana");
  reversed.set_from_micros(times_[3]);
  reversed.set_to_micros(times_[1]);
  EXPECT_EQ(code(reversed), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(code(Of("ana", 1'001)), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(code(Of("ana", -1)), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(code(Of("Ana/../bia")), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(code(Of(std::string(65, 'a'))), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(code(Of("nobody")), grpc::NOT_FOUND);
  v1::StatementRequest negative = Of("ana");
  negative.set_from_micros(-1);
  EXPECT_EQ(code(negative), grpc::INVALID_ARGUMENT);
  v1::StatementRequest forged = Of("ana");
  forged.set_page_token("c3RtdC9hbmEvMDA");  // an unsigned key
  EXPECT_EQ(code(forged), grpc::INVALID_ARGUMENT);
  forged.set_page_token(std::string(5'000, 'A'));
  EXPECT_EQ(code(forged), grpc::INVALID_ARGUMENT);
}

TEST_P(ReportingTest, TheProjectionsRebuildToTheSameHashAndSurviveARestart) {
  FiveDeposits();
  const bool offline = GetParam() == Backend::kEmbedded;
  v1::ProjectionStatus before;
  ASSERT_TRUE(stub_
                  ->GetProjectionStatus(As("aud", Role::kAuditor).get(),
                                        v1::ProjectionStatusRequest(), &before)
                  .ok());
  EXPECT_EQ(before.state_hash().size(), 64u);
  EXPECT_GT(before.keys(), 0);
  EXPECT_FALSE(before.offsets().empty());
  Restart();
  v1::StatementPage page;
  ASSERT_TRUE(Statement("ana", Role::kPlayer, Of("ana"), &page).ok());
  EXPECT_EQ(page.entries_size(), 5);
  v1::ProjectionStatus after;
  ASSERT_TRUE(stub_
                  ->GetProjectionStatus(As("aud", Role::kAuditor).get(),
                                        v1::ProjectionStatusRequest(), &after)
                  .ok());
  EXPECT_EQ(after.state_hash(), before.state_hash());
  // banca reporting rebuild, with the service stopped (on the embedded
  // data directory: on Kafka this run's topics have names of its own).
  if (!offline) return;
  Shutdown();
  auto log = eventlog::OpenLogBackend("embedded", dir_);
  ASSERT_TRUE(log.ok()) << log.status();
  absl::StatusOr<projection::RebuildResult> rebuilt =
      projection::RebuildReporting(**log, dir_ + "/projections/reporting",
                                   dir_ + "/rebuild");
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
  EXPECT_TRUE(rebuilt->live);
  EXPECT_TRUE(rebuilt->equal());
  EXPECT_EQ(rebuilt->rebuilt_hash, before.state_hash());
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/rebuild"));
  log->reset();
  // banca audit verify checks the reporting projections too.
  absl::StatusOr<audit::AuditReport> audited =
      audit::VerifyDataDir(dir_, "embedded", "");
  ASSERT_TRUE(audited.ok()) << audited.status();
  EXPECT_TRUE(audited->ok()) << audit::ProblemLines(audited->problems);
  EXPECT_EQ(audited->reporting_live_hash, before.state_hash());
  EXPECT_EQ(audited->reporting_rebuilt_hash, before.state_hash());
  Start();  // for TearDown
}

INSTANTIATE_TEST_SUITE_P(Backends, ReportingTest,
                         ::testing::Values(Backend::kEmbedded, Backend::kKafka),
                         [](const ::testing::TestParamInfo<Backend>& info) {
                           return info.param == Backend::kKafka ? "Kafka"
                                                                : "Embedded";
                         });

}  // namespace
}  // namespace banca::testing
