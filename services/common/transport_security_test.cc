// TLS and mutual TLS on a real gRPC server over loopback, with
// certificates this test makes (test_certs.h): who is answered and who is
// refused (plaintext, no client certificate, another CA's, an expired
// one), files that cannot be used, and certificates replaced on disk
// reaching new connections without a restart.
#include "services/common/transport_security.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "gtest/gtest.h"
#include "services/common/test_certs.h"
#include "testing/grpc_health_client.grpc.pb.h"

namespace banca::edge {
namespace {

using ::banca::testing::TestCa;
using ::banca::testing::TestIdentity;
using ::banca::testing::WriteFileAtomically;
using ::testing::HasSubstr;

class TransportSecurityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(
        ::testing::TempDir(), "/tls_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name(), "_",
        ::getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (server_ != nullptr) server_->Shutdown();
  }

  // Writes `identity` as DIR/NAME.crt and DIR/NAME.key.
  void WriteIdentity(const std::string& name, const TestIdentity& identity) {
    WriteFileAtomically(Path(name + ".crt"), identity.cert_pem);
    WriteFileAtomically(Path(name + ".key"), identity.key_pem);
  }
  std::string Path(const std::string& name) const {
    return absl::StrCat(dir_, "/", name);
  }
  ServerTls ServerFiles(bool mutual) const {
    return ServerTls{.cert_file = Path("server.crt"),
                     .key_file = Path("server.key"),
                     .client_ca_file = mutual ? Path("client-ca.crt") : "",
                     .reload_seconds = 1};
  }

  void StartServer(const std::optional<ServerTls>& tls) {
    auto credentials = ServerCredentialsFor(tls);
    ASSERT_TRUE(credentials.ok()) << credentials.status();
    grpc::EnableDefaultHealthCheckService(true);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", *credentials, &port_);
    builder.RegisterService(&unimplemented_);
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
  }

  // A health check on a new connection: OK when the server answered.
  grpc::Status Check(const ClientTls& tls) {
    auto credentials = ChannelCredentialsFor(tls);
    EXPECT_TRUE(credentials.ok()) << credentials.status();
    if (!credentials.ok()) return grpc::Status(grpc::StatusCode::INTERNAL, "");
    grpc::ChannelArguments args;
    args.SetInt("banca.test.fresh", ++connections_);  // never a shared one
    auto health = grpc::health::v1::Health::NewStub(grpc::CreateCustomChannel(
        absl::StrCat("127.0.0.1:", port_), *credentials, args));
    grpc::health::v1::HealthCheckRequest request;
    grpc::health::v1::HealthCheckResponse response;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(5));
    return health->Check(&context, request, &response);
  }

  std::string dir_;
  TestCa server_ca_{"banca test server CA"};
  TestCa client_ca_{"banca test client CA"};
  TestCa other_ca_{"someone else's CA"};
  v1::WalletService::Service unimplemented_;  // a server serves something
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  int connections_ = 0;
};

TEST_F(TransportSecurityTest, TlsServerAnswersATlsClientAndRefusesPlaintext) {
  WriteIdentity("server", server_ca_.Issue("server"));
  WriteFileAtomically(Path("server-ca.crt"), server_ca_.cert_pem());
  StartServer(ServerFiles(/*mutual=*/false));
  const grpc::Status tls = Check({.ca_file = Path("server-ca.crt")});
  EXPECT_TRUE(tls.ok()) << tls.error_message();
  EXPECT_EQ(Check({}).error_code(), grpc::StatusCode::UNAVAILABLE);
  // A client that trusts another CA does not take this server.
  WriteFileAtomically(Path("other-ca.crt"), other_ca_.cert_pem());
  EXPECT_EQ(Check({.ca_file = Path("other-ca.crt")}).error_code(),
            grpc::StatusCode::UNAVAILABLE);
}

TEST_F(TransportSecurityTest, MutualTlsRefusesClientsWithoutACertOfItsCa) {
  WriteIdentity("server", server_ca_.Issue("server"));
  WriteFileAtomically(Path("server-ca.crt"), server_ca_.cert_pem());
  WriteFileAtomically(Path("client-ca.crt"), client_ca_.cert_pem());
  WriteIdentity("client", client_ca_.Issue("operator"));
  WriteIdentity("stranger", other_ca_.Issue("operator"));
  WriteIdentity("expired", client_ca_.Issue("operator", -absl::Hours(48),
                                            -absl::Hours(24)));
  StartServer(ServerFiles(/*mutual=*/true));
  const grpc::Status good = Check({.ca_file = Path("server-ca.crt"),
                                   .cert_file = Path("client.crt"),
                                   .key_file = Path("client.key")});
  EXPECT_TRUE(good.ok()) << good.error_message();
  // No certificate, one from another CA, plaintext: refused.
  EXPECT_EQ(Check({.ca_file = Path("server-ca.crt")}).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(Check({.ca_file = Path("server-ca.crt"),
                   .cert_file = Path("stranger.crt"),
                   .key_file = Path("stranger.key")})
                .error_code(),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(Check({}).error_code(), grpc::StatusCode::UNAVAILABLE);
  // An expired client certificate: the client refuses to present it, and a
  // client that presented it anyway (the raw credentials) is refused.
  EXPECT_THAT(ChannelCredentialsFor({.ca_file = Path("server-ca.crt"),
                                     .cert_file = Path("expired.crt"),
                                     .key_file = Path("expired.key")})
                  .status()
                  .message(),
              HasSubstr("expired"));
  grpc::SslCredentialsOptions raw;
  raw.pem_root_certs = server_ca_.cert_pem();
  const TestIdentity expired =
      client_ca_.Issue("operator", -absl::Hours(48), -absl::Hours(24));
  raw.pem_cert_chain = expired.cert_pem;
  raw.pem_private_key = expired.key_pem;
  auto health = grpc::health::v1::Health::NewStub(grpc::CreateChannel(
      absl::StrCat("127.0.0.1:", port_), grpc::SslCredentials(raw)));
  grpc::health::v1::HealthCheckResponse response;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(5));
  EXPECT_EQ(health->Check(&context, {}, &response).error_code(),
            grpc::StatusCode::UNAVAILABLE);
}

TEST_F(TransportSecurityTest, ReplacedCertificatesReachNewConnections) {
  TestCa next_ca("banca test server CA, next");
  WriteIdentity("server", server_ca_.Issue("server"));
  WriteFileAtomically(Path("server-ca.crt"), server_ca_.cert_pem());
  WriteFileAtomically(Path("next-ca.crt"), next_ca.cert_pem());
  StartServer(ServerFiles(/*mutual=*/false));
  ASSERT_TRUE(Check({.ca_file = Path("server-ca.crt")}).ok());
  ASSERT_FALSE(Check({.ca_file = Path("next-ca.crt")}).ok());
  // The key first, then the certificate: the provider keeps the old pair
  // until the two match again.
  const TestIdentity next = next_ca.Issue("server");
  WriteFileAtomically(Path("server.key"), next.key_pem);
  WriteFileAtomically(Path("server.crt"), next.cert_pem);
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (!Check({.ca_file = Path("next-ca.crt")}).ok() &&
         absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(200));
  }
  EXPECT_TRUE(Check({.ca_file = Path("next-ca.crt")}).ok());
  EXPECT_FALSE(Check({.ca_file = Path("server-ca.crt")}).ok());
}

TEST_F(TransportSecurityTest, FilesThatCannotBeUsedAreRefusedNamingThem) {
  WriteIdentity("server", server_ca_.Issue("server"));
  WriteIdentity("other", server_ca_.Issue("other"));
  WriteIdentity("expired",
                server_ca_.Issue("server", -absl::Hours(48), -absl::Hours(1)));
  WriteIdentity("future",
                server_ca_.Issue("server", absl::Hours(1), absl::Hours(48)));
  WriteFileAtomically(Path("garbage.pem"), "not a certificate\n");
  const auto refused = [&](ServerTls tls) {
    return ServerCredentialsFor(tls).status();
  };
  ServerTls tls = ServerFiles(false);
  tls.key_file = Path("other.key");
  EXPECT_THAT(refused(tls).message(),
              HasSubstr("other.key: is not the key of the certificate"));
  tls = ServerFiles(false);
  tls.cert_file = Path("missing.crt");
  EXPECT_THAT(refused(tls).message(), HasSubstr("missing.crt: cannot be read"));
  tls.cert_file = Path("garbage.pem");
  EXPECT_THAT(refused(tls).message(),
              HasSubstr("garbage.pem: no PEM certificate"));
  tls.cert_file = Path("server.key");  // a key is not a certificate
  EXPECT_THAT(refused(tls).message(), HasSubstr("no PEM certificate"));
  tls = ServerFiles(false);
  tls.key_file = Path("server.crt");
  EXPECT_THAT(refused(tls).message(), HasSubstr("no unencrypted PEM private"));
  tls = ServerFiles(false);
  tls.cert_file = Path("expired.crt");
  tls.key_file = Path("expired.key");
  EXPECT_THAT(refused(tls).message(), HasSubstr("has expired"));
  tls.cert_file = Path("future.crt");
  tls.key_file = Path("future.key");
  EXPECT_THAT(refused(tls).message(), HasSubstr("not valid yet"));
  tls = ServerFiles(true);
  tls.client_ca_file = Path("garbage.pem");
  EXPECT_THAT(refused(tls).message(), HasSubstr("garbage.pem"));
  tls = ServerFiles(false);
  tls.reload_seconds = 0;
  EXPECT_TRUE(absl::IsInvalidArgument(refused(tls)));
  tls.reload_seconds = 1;
  tls.key_file = "";
  EXPECT_TRUE(absl::IsInvalidArgument(refused(tls)));
  // A file far too large to be PEM is not read whole.
  WriteFileAtomically(Path("huge.pem"), std::string(kMaxPemFileBytes + 1, 'A'));
  tls = ServerFiles(false);
  tls.cert_file = Path("huge.pem");
  EXPECT_THAT(refused(tls).message(), HasSubstr("larger than"));
  // A client: a certificate without its key, or without a CA to check the
  // server with.
  EXPECT_TRUE(absl::IsInvalidArgument(
      ChannelCredentialsFor(
          {.ca_file = Path("server.crt"), .cert_file = Path("server.crt")})
          .status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      ChannelCredentialsFor(
          {.cert_file = Path("server.crt"), .key_file = Path("server.key")})
          .status()));
  EXPECT_THAT(ChannelCredentialsFor({.ca_file = Path("garbage.pem")})
                  .status()
                  .message(),
              HasSubstr("garbage.pem: no PEM certificate"));
}

}  // namespace
}  // namespace banca::edge
