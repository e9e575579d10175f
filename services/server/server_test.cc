// The composition root's own wiring, over fake hosted services: each is
// registered and reported healthy, a start error names its service, the
// services shut down and stop the last started first, and the keys loaded
// are the ones the services ask for.
#include "services/server/server.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "banca/v1/table.grpc.pb.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "libs/common/status_macros.h"
#include "services/common/test_certs.h"
#include "services/server/token_key.h"
#include "testing/grpc_health_client.grpc.pb.h"

namespace banca::server {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// What the fake services were asked to do, in order.
class Journal {
 public:
  void Add(std::string call) {
    absl::MutexLock lock(&mu_);
    calls_.push_back(std::move(call));
  }
  std::vector<std::string> Take() {
    absl::MutexLock lock(&mu_);
    return std::exchange(calls_, {});
  }

 private:
  absl::Mutex mu_;
  std::vector<std::string> calls_ ABSL_GUARDED_BY(mu_);
};

class FakeService final : public edge::HostedService {
 public:
  FakeService(std::string name, std::unique_ptr<grpc::Service> service,
              std::string health_name, int64_t replayed, absl::Status stop,
              Journal* journal)
      : name_(std::move(name)),
        service_(std::move(service)),
        health_name_(std::move(health_name)),
        replayed_(replayed),
        stop_(std::move(stop)),
        journal_(journal) {}
  ~FakeService() override { journal_->Add("destroy " + name_); }

  grpc::Service* service() override { return service_.get(); }
  std::string health_name() const override { return health_name_; }
  int64_t replayed_events() const override { return replayed_; }
  void BeginShutdown() override { journal_->Add("begin " + name_); }
  absl::Status Stop() override {
    journal_->Add("stop " + name_);
    return stop_;
  }

 private:
  std::string name_;
  std::unique_ptr<grpc::Service> service_;
  std::string health_name_;
  int64_t replayed_;
  absl::Status stop_;
  Journal* journal_;
};

// A wallet-like fake (banca.v1.WalletService).
edge::HostedServiceSpec Wallet(Journal* journal, absl::Status stop = {}) {
  edge::HostedServiceSpec spec;
  spec.name = "wallet";
  spec.insecure_dev_allowed = true;
  spec.start = [journal, stop](const edge::HostContext&)
      -> absl::StatusOr<std::unique_ptr<edge::HostedService>> {
    journal->Add("start wallet");
    return std::make_unique<FakeService>(
        "wallet", std::make_unique<v1::WalletService::Service>(),
        v1::WalletService::service_full_name(), 3, stop, journal);
  };
  return spec;
}

// A table-like fake (banca.v1.TableService), or one that fails to start.
edge::HostedServiceSpec Table(Journal* journal, absl::Status start = {},
                              absl::Status stop = {}) {
  edge::HostedServiceSpec spec;
  spec.name = "table";
  spec.needs_deck_keys = true;
  spec.start = [journal, start, stop](const edge::HostContext&)
      -> absl::StatusOr<std::unique_ptr<edge::HostedService>> {
    journal->Add("start table");
    RETURN_IF_ERROR(start);
    return std::make_unique<FakeService>(
        "table", std::make_unique<v1::TableService::Service>(),
        v1::TableService::service_full_name(), 4, stop, journal);
  };
  return spec;
}

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string dir = absl::StrCat(
        ::testing::TempDir(), "/server_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name(), "_",
        ::getpid());
    std::filesystem::remove_all(dir);
    // As LoadServerKeys leaves it for Start.
    std::filesystem::create_directories(dir);
    config_.settings.data_dir = dir;
    config_.grpc_address = "127.0.0.1";
    config_.grpc_port = 0;
    config_.metrics_port = 0;
    ::unsetenv("BANCA_TOKEN_KEY");
  }

  grpc::health::v1::HealthCheckResponse::ServingStatus Health(
      int port, const std::string& service,
      std::shared_ptr<grpc::ChannelCredentials> credentials =
          grpc::InsecureChannelCredentials()) {
    auto health = grpc::health::v1::Health::NewStub(
        grpc::CreateChannel(absl::StrCat("127.0.0.1:", port), credentials));
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(service);
    grpc::health::v1::HealthCheckResponse response;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(5));
    const grpc::Status status = health->Check(&context, request, &response);
    if (!status.ok()) return grpc::health::v1::HealthCheckResponse::UNKNOWN;
    return response.status();
  }

  Journal journal_;  // outlives every server
  ServerConfig config_;
};

TEST_F(ServerTest, ServesEachServiceInOrderWithItsHealth) {
  auto server = Server::Start(config_, ServerKeys{},
                              {Wallet(&journal_), Table(&journal_)});
  ASSERT_TRUE(server.ok()) << server.status();
  EXPECT_THAT(journal_.Take(), ElementsAre("start wallet", "start table"));
  EXPECT_GT((*server)->port(), 0);
  EXPECT_EQ((*server)->replayed_events(), 3 + 4);
  EXPECT_EQ(Health((*server)->port(), "banca.v1.WalletService"),
            grpc::health::v1::HealthCheckResponse::SERVING);
  EXPECT_EQ(Health((*server)->port(), "banca.v1.TableService"),
            grpc::health::v1::HealthCheckResponse::SERVING);
  // Not hosted: the health service does not know it.
  EXPECT_EQ(Health((*server)->port(), "banca.v1.BankedTableService"),
            grpc::health::v1::HealthCheckResponse::UNKNOWN);
  (*server)->Shutdown(absl::Seconds(1));
  EXPECT_TRUE((*server)->Wait().ok());
}

TEST_F(ServerTest, ServesTlsWhenConfiguredAndNotPlaintext) {
  const testing::TestCa ca("server test CA");
  const testing::TestIdentity server = ca.Issue("server");
  const std::string& dir = config_.settings.data_dir;
  testing::WriteFileAtomically(dir + "/ca.crt", ca.cert_pem());
  testing::WriteFileAtomically(dir + "/server.crt", server.cert_pem);
  testing::WriteFileAtomically(dir + "/server.key", server.key_pem);
  config_.tls = edge::ServerTls{.cert_file = dir + "/server.crt",
                                .key_file = dir + "/server.key"};
  auto server_started =
      Server::Start(config_, ServerKeys{}, {Wallet(&journal_)});
  ASSERT_TRUE(server_started.ok()) << server_started.status();
  const int port = (*server_started)->port();
  EXPECT_EQ(Health(port, "banca.v1.WalletService",
                   *edge::ChannelCredentialsFor({.ca_file = dir + "/ca.crt"})),
            grpc::health::v1::HealthCheckResponse::SERVING);
  EXPECT_EQ(Health(port, "banca.v1.WalletService"),
            grpc::health::v1::HealthCheckResponse::UNKNOWN);  // refused
  (*server_started)->Shutdown(absl::Seconds(1));
  EXPECT_TRUE((*server_started)->Wait().ok());
}

// Certificate files that cannot be used stop the start before any service
// replays the log.
TEST_F(ServerTest, UnusableCertificateFilesStopTheStartFirst) {
  config_.tls =
      edge::ServerTls{.cert_file = config_.settings.data_dir + "/missing.crt",
                      .key_file = config_.settings.data_dir + "/missing.key"};
  auto server = Server::Start(config_, ServerKeys{}, {Wallet(&journal_)});
  EXPECT_TRUE(absl::IsInvalidArgument(server.status())) << server.status();
  EXPECT_THAT(server.status().message(), ::testing::HasSubstr("missing.crt"));
  EXPECT_THAT(journal_.Take(), IsEmpty());
}

// A log nobody answers for: tried again for --log-retry-seconds, then the
// start fails naming the tries; with no retry, at the first failure.
TEST_F(ServerTest, AnUnreachableLogIsTriedAgainForTheRetryTimeThenRefused) {
  config_.log = "kafka://127.0.0.1:1?request_timeout_ms=500";
  config_.log_retry = absl::Seconds(2);
  const absl::Time start = absl::Now();
  auto server = Server::Start(config_, ServerKeys{}, {Wallet(&journal_)});
  EXPECT_TRUE(absl::IsUnavailable(server.status())) << server.status();
  EXPECT_THAT(server.status().message(), ::testing::HasSubstr("gave up"));
  EXPECT_GE(absl::Now() - start, absl::Seconds(2));
  EXPECT_THAT(journal_.Take(), IsEmpty());

  config_.log_retry = absl::ZeroDuration();
  server = Server::Start(config_, ServerKeys{}, {Wallet(&journal_)});
  EXPECT_TRUE(absl::IsUnavailable(server.status())) << server.status();
  EXPECT_THAT(server.status().message(),
              ::testing::Not(::testing::HasSubstr("gave up")));
}

TEST_F(ServerTest, ShutsDownAndStopsTheLastStartedFirst) {
  auto server = Server::Start(
      config_, ServerKeys{},
      {Wallet(&journal_, absl::DataLossError("wallet not durable")),
       Table(&journal_, absl::OkStatus(), absl::InternalError("table"))});
  ASSERT_TRUE(server.ok()) << server.status();
  journal_.Take();
  (*server)->Shutdown(absl::Seconds(1));
  EXPECT_THAT(journal_.Take(), ElementsAre("begin table", "begin wallet"));
  // The first error in stop order: the table's, stopped first.
  const absl::Status stopped = (*server)->Wait();
  EXPECT_EQ(stopped, absl::InternalError("table"));
  EXPECT_THAT(journal_.Take(), ElementsAre("stop table", "stop wallet"));
  server->reset();
  EXPECT_THAT(journal_.Take(), ElementsAre("destroy table", "destroy wallet"));
}

TEST_F(ServerTest, WaitReturnsTheWalletsStopStatus) {
  auto server = Server::Start(
      config_, ServerKeys{},
      {Wallet(&journal_, absl::DataLossError("wallet not durable")),
       Table(&journal_)});
  ASSERT_TRUE(server.ok()) << server.status();
  (*server)->Shutdown(absl::Seconds(1));
  EXPECT_EQ((*server)->Wait(), absl::DataLossError("wallet not durable"));
}

TEST_F(ServerTest, StartErrorNamesTheServiceAndDropsTheStartedOnes) {
  auto server = Server::Start(
      config_, ServerKeys{},
      {Wallet(&journal_),
       Table(&journal_, absl::FailedPreconditionError("no deck keys")),
       Wallet(&journal_)});
  EXPECT_EQ(server.status(),
            absl::FailedPreconditionError("table: no deck keys"));
  // The wallet started is destroyed (not stopped); the one after the
  // failure never starts.
  EXPECT_THAT(journal_.Take(),
              ElementsAre("start wallet", "start table", "destroy wallet"));
}

TEST_F(ServerTest, ServicesGetTheServersSettingsKeysAndMetrics) {
  config_.settings.currency = "GBP";
  config_.settings.partitions = 5;
  edge::HostedServiceSpec spec = Wallet(&journal_);
  edge::HostedServiceSpec probe = spec;
  probe.start = [&](const edge::HostContext& context) {
    journal_.Add(absl::StrCat(
        context.settings.currency, " ", context.settings.partitions, " ",
        context.settings.data_dir == config_.settings.data_dir, " ",
        context.metrics != nullptr, " ", context.keys.verifier.has_value()));
    return spec.start(context);
  };
  auto server = Server::Start(config_, ServerKeys{}, {probe});
  ASSERT_TRUE(server.ok()) << server.status();
  EXPECT_THAT(journal_.Take(), ElementsAre("GBP 5 1 1 0", "start wallet"));
}

TEST_F(ServerTest, InsecureDevNeedsNoVerifierOnlyWhenEveryServiceAllowsIt) {
  config_.settings.insecure_dev = true;
  auto wallet_only = LoadServerKeys(config_, {Wallet(&journal_)});
  ASSERT_TRUE(wallet_only.ok()) << wallet_only.status();
  EXPECT_FALSE(wallet_only->keys.verifier.has_value());
  EXPECT_FALSE(wallet_only->keys.deck_keys.has_value());
  EXPECT_THAT(journal_.Take(), IsEmpty());  // loading starts nothing
  EXPECT_TRUE(absl::IsNotFound(
      LoadServerKeys(config_, {Wallet(&journal_), Table(&journal_)}).status()));
  config_.settings.insecure_dev = false;
  EXPECT_TRUE(
      absl::IsNotFound(LoadServerKeys(config_, {Wallet(&journal_)}).status()));
}

TEST_F(ServerTest, DeckKeysAreLoadedOnlyForServicesThatSealDecks) {
  config_.token_key_file = config_.settings.data_dir + "/token.key";
  ASSERT_TRUE(WriteNewSeedFile(config_.token_key_file).ok());
  auto wallet_only = LoadServerKeys(config_, {Wallet(&journal_)});
  ASSERT_TRUE(wallet_only.ok()) << wallet_only.status();
  EXPECT_TRUE(wallet_only->keys.verifier.has_value());
  EXPECT_FALSE(wallet_only->keys.deck_keys.has_value());
  EXPECT_FALSE(wallet_only->deck_key_made);
  auto with_tables =
      LoadServerKeys(config_, {Wallet(&journal_), Table(&journal_)});
  ASSERT_TRUE(with_tables.ok()) << with_tables.status();
  EXPECT_TRUE(with_tables->keys.deck_keys.has_value());
  EXPECT_TRUE(with_tables->deck_key_made);
  EXPECT_TRUE(std::filesystem::exists(config_.settings.data_dir + "/deck.key"));
}

}  // namespace
}  // namespace banca::server
