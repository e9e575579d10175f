// What the table fixtures (tests/integration/table_test_fixture.h for the
// poker tables, banked_table_fixture.h for the banked ones) run on: a fresh
// directory, an embedded log on disk, the real wallet with RocksDB
// projections, one table service beside it over real gRPC on loopback, a
// manual clock for tokens and timers, and what every table test asks of the
// wallet and the log: funding a player, tokens, a player's cash, waiting
// until the wallet has carried out the tables' requests, restarts.
//
// A fixture says only how its table service starts and stops (the hooks
// below); the wallet, the server and the waits are the same for every game.
// A fixture may run on a real Kafka broker instead (UseKafka): the same
// services and waits, on topics and groups of the run's own.
#ifndef BANCA_TESTS_HARNESS_SERVICE_HARNESS_H_
#define BANCA_TESTS_HARNESS_SERVICE_HARNESS_H_

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "libs/auth/token.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "libs/eventlog/log_backend.h"
#include "libs/ledger/account.h"
#include "libs/wire/topics.h"
#include "services/common/server_options.h"
#include "services/wallet/wallet_service.h"
#include "tests/harness/access_matrix.h"
#include "tests/harness/namespaced_log.h"
#include "tests/integration/test_keys.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {

// The records on every partition of `topic` (0 when it does not exist).
inline int64_t TopicRecords(eventlog::EventLog& log, std::string_view topic) {
  int64_t n = 0;
  const int partitions = log.PartitionCount(topic).value_or(0);
  for (int p = 0; p < partitions; ++p) n += log.EndOffset(topic, p).value_or(0);
  return n;
}

// Whether `group` has carried out every record of `topic`: nothing left to
// read at its committed position. (Not "committed == end offset": on Kafka
// the end offset also counts the transaction markers after the last
// record, so a reader that is done commits the record's offset + 1 and
// never reaches it.)
inline bool GroupCaughtUp(eventlog::EventLog& log, std::string_view group,
                          std::string_view topic) {
  const int partitions = log.PartitionCount(topic).value_or(0);
  for (int p = 0; p < partitions; ++p) {
    const int64_t at = log.CommittedOffset(group, topic, p).value_or(0);
    if (at == log.EndOffset(topic, p).value_or(0)) continue;
    absl::StatusOr<std::vector<eventlog::StoredRecord>> left =
        log.Read(topic, p, at, 1);
    if (!left.ok() || !left->empty()) return false;
  }
  return true;
}

// The broker BANCA_KAFKA_BOOTSTRAP names ("host:port"), or "" when unset:
// a Kafka test then skips (tools/run-tests starts a broker).
inline std::string KafkaBootstrap() {
  const char* bootstrap = std::getenv("BANCA_KAFKA_BOOTSTRAP");
  return bootstrap == nullptr ? "" : bootstrap;
}
inline constexpr char kNoKafka[] =
    "BANCA_KAFKA_BOOTSTRAP is not set: start a broker with tools/kafka-local "
    "start (tools/run-tests does)";

class ServiceHarness : public ::testing::Test {
 protected:
  // The tables under test write to `topics` (the wallet carries their
  // requests out as topics.requests_group). `dir_prefix` starts the test's
  // directory name.
  ServiceHarness(const wire::TableTopics& topics, std::string_view dir_prefix)
      : topics_(topics), dir_prefix_(dir_prefix) {}

  void SetUp() override {
    dir_ = FreshDir(absl::StrCat(
        dir_prefix_,
        ::testing::UnitTest::GetInstance()->current_test_info()->name()));
    Start();
  }
  void TearDown() override { Shutdown(); }

  // The log in dir_, the wallet, the tables and the server; again after a
  // Shutdown, on what the last run logged.
  void Start() {
    auto log = eventlog::OpenLogBackend(log_spec_, dir_);
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = topic_prefix_.empty() ? std::move(*log)
                                 : std::make_unique<NamespacedLog>(
                                       std::move(*log), topic_prefix_);
    wallet::WalletOptions wo;
    wo.projection_dir = dir_ + "/projections/wallet";
    std::filesystem::create_directories(wo.projection_dir);
    wo.expiry_interval = absl::ZeroDuration();
    // Zero: the test carries out the requests itself.
    wo.table_requests_interval = wallet_requests_interval_;
    wo.verifier = TestVerifier();
    auto w = wallet::WalletService::Start(*log_, clock_, wo);
    ASSERT_TRUE(w.ok()) << w.status();
    wallet_ = std::move(*w);
    absl::StatusOr<grpc::Service*> tables = StartTables();
    ASSERT_TRUE(tables.ok()) << tables.status();
    grpc::ServerBuilder builder;
    edge::ApplyServerOptions(builder);  // as served: request limits too
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.RegisterService(wallet_.get());
    builder.RegisterService(*tables);
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    const std::string target = absl::StrCat("127.0.0.1:", port);
    ConnectTables(
        grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
    // The back office's roles for the wallet, at the test's clock.
    wallet_stub_ = v1::WalletService::NewStub(edge::AuthorizedChannel(
        target, *edge::BackOfficeTokens(TestSigningKey(), "test", [this] {
          return clock_.NowMicros() / 1'000'000;
        })));
  }
  void Shutdown() {
    BeginTablesShutdown();
    if (server_) server_->Shutdown();
    StopTables();
    if (wallet_) (void)wallet_->Stop();
    server_.reset();
    ReleaseTables();
    wallet_.reset();
    log_.reset();
  }
  // Once the wallet has caught up: what a restarted process replays.
  void Restart() {
    Settle();
    Shutdown();
    Start();
  }

  // The table service's part, in a fixture: start it on log_ (the server
  // serves what it returns), take its stub on the server's channel; on
  // Shutdown, BeginTablesShutdown before the server shuts down, StopTables
  // after, ReleaseTables once the server is gone (each a no-op when the
  // service never started).
  virtual absl::StatusOr<grpc::Service*> StartTables() = 0;
  virtual void ConnectTables(std::shared_ptr<grpc::Channel> channel) = 0;
  virtual void BeginTablesShutdown() {}
  virtual void StopTables() = 0;
  virtual void ReleaseTables() = 0;

  std::string Token(const std::string& subject,
                    auth::Role role = auth::Role::kPlayer) {
    return TestToken(role, subject, clock_.NowMicros() / 1'000'000);
  }
  std::unique_ptr<grpc::ClientContext> As(
      const std::string& subject, auth::Role role = auth::Role::kPlayer) {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->AddMetadata("authorization", "Bearer " + Token(subject, role));
    return ctx;
  }
  std::unique_ptr<grpc::ClientContext> Operator() {
    return As("op", auth::Role::kOperator);
  }

  void Fund(const std::string& player, int64_t cash) {
    FundPlayer(*wallet_stub_, player, cash);
  }
  int64_t Cash(const std::string& player) {
    return wallet_->ledger().AccountBalance(ledger::PlayerCashAccount(player));
  }
  // The records on the tables' topic so far.
  int64_t TableEvents() { return TopicRecords(*log_, topics_.topic); }

  // Waits until the wallet has carried out everything the tables logged.
  void Settle() {
    for (int i = 0; i < 3000; ++i) {
      if (GroupCaughtUp(*log_, topics_.requests_group,
                        topics_.requests_topic)) {
        return;
      }
      absl::SleepFor(absl::Milliseconds(2));
    }
    FAIL() << "the wallet did not catch up with " << topics_.requests_topic;
  }
  // Waits until the tables and the wallet are done with everything asked
  // so far: the wallet has carried out every request and the tables have
  // appended nothing more (an outcome a table polls for may still be on
  // its way when the wallet is done), for a count of events to compare.
  void Quiesce() {
    for (int i = 0; i < 100; ++i) {
      Settle();
      const int64_t n = TableEvents();
      absl::SleepFor(absl::Milliseconds(20));
      Settle();
      if (TableEvents() == n) return;
    }
    FAIL() << "the tables on " << topics_.topic << " never went quiet";
  }

  // An access matrix's run on the tables (access_matrix.h): a refused call
  // appends nothing to their topic; before each call, what an earlier,
  // allowed one set going is done; a stuck call fails after 20 s.
  MatrixOptions TableMatrix() {
    return {.events = [this] { return TableEvents(); },
            .before_each = [this] { Quiesce(); },
            .deadline = absl::Seconds(20)};
  }

  // Runs the test on the broker at `bootstrap` (KafkaBootstrap()) instead
  // of the embedded log; call before SetUp starts the services. The run's
  // topics and consumer groups carry a prefix of its own, so a rerun, or
  // another suite on the same broker, starts from nothing; its producers
  // a transactional id of its own, the same across Restart, so that a
  // restarted run fences the producers of the one before.
  void UseKafka(const std::string& bootstrap) {
    const std::string run = absl::StrCat(getpid(), "x", std::random_device{}());
    log_spec_ =
        absl::StrCat("kafka://", bootstrap, "?transactional_id=it-", run);
    topic_prefix_ = absl::StrCat("it-", run, ".");
  }

  // How often the wallet reads the tables' requests; zero: never (the test
  // polls it). Read by Start.
  absl::Duration wallet_requests_interval_ = absl::Milliseconds(1);

  // "embedded" (the log in dir_) or kafka://...; the prefix of the
  // topics' and groups' names on the broker. Read by Start.
  std::string log_spec_ = "embedded";
  std::string topic_prefix_;
  std::string dir_;
  ManualClock clock_{1'767'225'600'000'000};
  std::unique_ptr<eventlog::EventLog> log_;
  std::unique_ptr<wallet::WalletService> wallet_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::WalletService::Stub> wallet_stub_;

 private:
  const wire::TableTopics topics_;
  const std::string dir_prefix_;
};

// The log a parameterized fixture runs on: each test as `/Embedded` and as
// `/Kafka` (skipped, with the reason, when no broker is given).
enum class Backend { kEmbedded, kKafka };

class BackendHarness : public ServiceHarness,
                       public ::testing::WithParamInterface<Backend> {
 protected:
  using ServiceHarness::ServiceHarness;
  void SetUp() override {
    if (GetParam() == Backend::kKafka) {
      const std::string bootstrap = KafkaBootstrap();
      if (bootstrap.empty()) GTEST_SKIP() << kNoKafka;
      UseKafka(bootstrap);
    }
    ServiceHarness::SetUp();
  }
};

inline std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::kEmbedded ? "Embedded" : "Kafka";
}

}  // namespace banca::testing

#endif  // BANCA_TESTS_HARNESS_SERVICE_HARNESS_H_
