// The reporting service beside the real wallet, over gRPC on loopback, on
// both logs (BackendHarness): the fixture of the reporting RPCs' tests.
// Money moves as the table services ask the wallet for them (Move).
#ifndef BANCA_TESTS_HARNESS_REPORTING_HARNESS_H_
#define BANCA_TESTS_HARNESS_REPORTING_HARNESS_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "banca/v1/reporting.grpc.pb.h"
#include "services/reporting/reporting_service.h"
#include "tests/harness/service_harness.h"

namespace banca::testing {

class ReportingHarness : public BackendHarness {
 protected:
  explicit ReportingHarness(std::string_view dir_prefix)
      : BackendHarness(wire::kTournamentTopics, dir_prefix) {}

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
    tables_wallet_ = v1::WalletService::NewStub(channel);
  }
  void StopTables() override {
    if (service_) {
      absl::Status stopped = service_->Stop();
      EXPECT_EQ(stopped.ok(), !refused_a_record_) << stopped;
    }
  }
  void ReleaseTables() override { service_.reset(); }

  // A movement as the table service asks the wallet for it.
  void Move(const std::string& from, const std::string& to, int64_t amount,
            v1::PostingReason reason, v1::ReferenceKind kind,
            const std::string& ref) {
    v1::TransferRequest t;
    t.set_request_id(absl::StrCat("move-", ++moves_));
    t.set_from_account(from);
    t.set_to_account(to);
    t.set_amount_minor(amount);
    t.set_reason(reason);
    t.mutable_reference()->set_kind(kind);
    t.mutable_reference()->set_id(ref);
    v1::TransactionResponse tx;
    grpc::Status s = tables_wallet_->Transfer(
        As("table", auth::Role::kService).get(), t, &tx);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }

  std::unique_ptr<reporting::ReportingService> service_;
  std::unique_ptr<v1::ReportingService::Stub> stub_;
  std::unique_ptr<v1::WalletService::Stub> tables_wallet_;
  int moves_ = 0;
  // A test that logs a record the projections refuse: Stop reports it.
  bool refused_a_record_ = false;
};

}  // namespace banca::testing

#endif  // BANCA_TESTS_HARNESS_REPORTING_HARNESS_H_
