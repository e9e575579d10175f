// Shared helpers for the wallet's gRPC tests: a wallet on loopback in a
// fresh directory, a stub, and the number of events in the log.
#ifndef BANCA_TESTS_INTEGRATION_WALLET_TEST_UTIL_H_
#define BANCA_TESTS_INTEGRATION_WALLET_TEST_UTIL_H_

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "services/wallet/wallet_events.h"
#include "tools/banca/wallet_server.h"

namespace banca::testing {

inline std::string FreshDir(const std::string& name) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/banca_", name, "_", getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

class WalletFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir(
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    StartServer();
  }
  void TearDown() override {
    stub_.reset();
    server_.reset();
  }
  void StartServer() {
    auto server = cli::LocalWalletServer::Start(dir_);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    stub_ = v1::WalletService::NewStub(grpc::CreateChannel(
        server_->target(), grpc::InsecureChannelCredentials()));
  }
  void RestartServer() {
    stub_.reset();
    ASSERT_TRUE(server_->Stop().ok());
    server_.reset();
    StartServer();
  }
  // Events in the wallet topic, across partitions.
  int64_t Events() {
    auto& log = server_->log();
    const std::string topic(wallet::kWalletTopic);
    int64_t n = 0;
    const int partitions = log.PartitionCount(topic).value_or(0);
    for (int p = 0; p < partitions; ++p)
      n += log.EndOffset(topic, p).value_or(0);
    return n;
  }

  grpc::Status Open(const std::string& player, const std::string& rid = "") {
    v1::OpenAccountRequest req;
    req.set_request_id(rid.empty() ? "open-" + player : rid);
    req.set_player_id(player);
    v1::AccountResponse resp;
    grpc::ClientContext ctx;
    return stub_->OpenAccount(&ctx, req, &resp);
  }
  grpc::Status Deposit(const std::string& player, int64_t amount,
                       const std::string& rid,
                       v1::TransactionResponse* out = nullptr) {
    v1::DepositRequest req;
    req.set_request_id(rid);
    req.set_player_id(player);
    req.set_amount_minor(amount);
    req.set_payment_ref("psp-" + rid);
    v1::TransactionResponse resp;
    grpc::ClientContext ctx;
    auto s = stub_->Deposit(&ctx, req, out ? out : &resp);
    return s;
  }

  std::string dir_;
  std::unique_ptr<cli::LocalWalletServer> server_;
  std::unique_ptr<v1::WalletService::Stub> stub_;
};

}  // namespace banca::testing

#endif  // BANCA_TESTS_INTEGRATION_WALLET_TEST_UTIL_H_
