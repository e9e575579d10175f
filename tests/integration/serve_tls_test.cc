// `banca serve` with mutual TLS, as an operator starts it and an attacker
// meets it: certificate files on the command line, a back office with the
// client CA's certificate served, and refused without TLS, without a
// client certificate or with another CA's (docs/security.md, "Transport").
#include <signal.h>

#include <chrono>
#include <string>

#include "absl/strings/str_cat.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "services/common/test_certs.h"
#include "services/common/transport_security.h"
#include "testing/grpc_health_client.grpc.pb.h"
#include "tests/integration/serve_child.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

class ServeTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir("serve_tls");
    WriteFileAtomically(dir_ + "/ca.crt", server_ca_.cert_pem());
    WriteFileAtomically(dir_ + "/client-ca.crt", client_ca_.cert_pem());
    Write("server", server_ca_.Issue("wallet"));
    Write("client", client_ca_.Issue("back-office"));
    Write("stranger", other_ca_.Issue("back-office"));
    child_ = StartServeChild(
        dir_, {"--tls-cert-file=" + dir_ + "/server.crt",
               "--tls-key-file=" + dir_ + "/server.key",
               "--tls-client-ca-file=" + dir_ + "/client-ca.crt"});
    ASSERT_GT(child_.port, 0);
  }
  void TearDown() override {
    if (child_.pid > 0) StopServeChild(child_, SIGTERM);
  }

  void Write(const std::string& name, const TestIdentity& identity) {
    WriteFileAtomically(dir_ + "/" + name + ".crt", identity.cert_pem);
    WriteFileAtomically(dir_ + "/" + name + ".key", identity.key_pem);
  }
  // The client files named NAME.crt/.key; "" for none.
  edge::ClientTls Client(const std::string& name) const {
    edge::ClientTls tls{.ca_file = dir_ + "/ca.crt"};
    if (!name.empty()) {
      tls.cert_file = dir_ + "/" + name + ".crt";
      tls.key_file = dir_ + "/" + name + ".key";
    }
    return tls;
  }

  // The wallet's health on a new channel with `credentials`.
  grpc::Status Health(std::shared_ptr<grpc::ChannelCredentials> credentials) {
    auto health = grpc::health::v1::Health::NewStub(grpc::CreateChannel(
        absl::StrCat("127.0.0.1:", child_.port), credentials));
    grpc::health::v1::HealthCheckRequest request;
    request.set_service("banca.v1.WalletService");
    grpc::health::v1::HealthCheckResponse response;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(5));
    grpc::Status status = health->Check(&context, request, &response);
    if (status.ok()) {
      EXPECT_EQ(response.status(),
                grpc::health::v1::HealthCheckResponse::SERVING);
    }
    return status;
  }

  std::string dir_;
  TestCa server_ca_{"serve test server CA"};
  TestCa client_ca_{"serve test client CA"};
  TestCa other_ca_{"an attacker's CA"};
  ServeChild child_;
};

TEST_F(ServeTlsTest, ServesItsClientsAndRefusesEveryoneElse) {
  const grpc::Status good =
      Health(*edge::ChannelCredentialsFor(Client("client")));
  EXPECT_TRUE(good.ok()) << good.error_message();
  // The back office's calls go through with its certificate.
  auto wallet = v1::WalletService::NewStub(edge::AuthorizedChannel(
      absl::StrCat("127.0.0.1:", child_.port),
      *edge::BackOfficeTokens(TestSigningKey(), "test"), {},
      *edge::ChannelCredentialsFor(Client("client"))));
  FundPlayer(*wallet, "tls-player", 500);

  EXPECT_EQ(Health(grpc::InsecureChannelCredentials()).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(Health(*edge::ChannelCredentialsFor(Client(""))).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(
      Health(*edge::ChannelCredentialsFor(Client("stranger"))).error_code(),
      grpc::StatusCode::UNAVAILABLE);
  // Still serving after the refusals.
  EXPECT_TRUE(Health(*edge::ChannelCredentialsFor(Client("client"))).ok());
}

}  // namespace
}  // namespace banca::testing
