// Shared helpers for the wallet's gRPC tests: a wallet on loopback in a
// fresh directory, a stub, and the number of events in the log.
#ifndef BANCA_TESTS_INTEGRATION_WALLET_TEST_UTIL_H_
#define BANCA_TESTS_INTEGRATION_WALLET_TEST_UTIL_H_

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "services/wallet/local_wallet_server.h"
#include "tests/integration/test_keys.h"

namespace banca::testing {

// A player's whole statement, page by page. Reads wait for the projection
// to catch up with the caller's writes and answer DEADLINE_EXCEEDED when it
// has not in time (a loaded machine, a broker just restarted): an answer to
// retry, for up to `patience`. Any other error is returned.
inline absl::StatusOr<std::vector<v1::StatementEntry>> ReadStatement(
    v1::WalletService::Stub& stub, const std::string& player,
    absl::Duration patience = absl::Seconds(90)) {
  const absl::Time give_up = absl::Now() + patience;
  std::vector<v1::StatementEntry> entries;
  std::string token;
  do {
    v1::ListTransactionsRequest req;
    req.set_player_id(player);
    req.set_page_size(500);
    req.set_page_token(token);
    v1::ListTransactionsResponse resp;
    grpc::ClientContext ctx;
    const grpc::Status s = stub.ListTransactions(&ctx, req, &resp);
    if (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED &&
        absl::Now() < give_up) {
      continue;  // the same page again
    }
    if (!s.ok()) {
      return absl::Status(
          static_cast<absl::StatusCode>(s.error_code()),
          absl::StrCat("statement of ", player, ": ", s.error_message()));
    }
    entries.insert(entries.end(), resp.entries().begin(), resp.entries().end());
    token = resp.next_page_token();
  } while (!token.empty());
  return entries;
}

// `player`'s available cash (nullopt if GetBalance failed).
inline std::optional<int64_t> AvailableMinor(v1::WalletService::Stub& wallet,
                                             const std::string& player) {
  v1::GetBalanceRequest request;
  request.set_player_id(player);
  v1::BalanceResponse balance;
  grpc::ClientContext ctx;
  if (!wallet.GetBalance(&ctx, request, &balance).ok()) return std::nullopt;
  return balance.available_minor();
}

// Opens `player`'s account and, unless `cash` is 0, deposits `cash` into it,
// as the back office and the payment service do (`wallet` carries their
// tokens).
inline void FundPlayer(v1::WalletService::Stub& wallet,
                       const std::string& player, int64_t cash) {
  v1::OpenAccountRequest open;
  open.set_request_id("open-" + player);
  open.set_player_id(player);
  v1::AccountResponse account;
  grpc::ClientContext c1;
  ASSERT_TRUE(wallet.OpenAccount(&c1, open, &account).ok());
  if (cash == 0) return;
  v1::DepositRequest deposit;
  deposit.set_request_id("dep-" + player);
  deposit.set_player_id(player);
  deposit.set_amount_minor(cash);
  deposit.set_payment_ref("psp-" + player);
  v1::TransactionResponse tx;
  grpc::ClientContext c2;
  ASSERT_TRUE(wallet.Deposit(&c2, deposit, &tx).ok());
}

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
    wallet::WalletOptions options;
    options.verifier = TestVerifier();
    auto server = wallet::LocalWalletServer::Start(dir_, options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    // The fixture's calls act as the back office (operator, payments and
    // table service); a test sets its own token to act as someone else.
    stub_ = v1::WalletService::NewStub(edge::AuthorizedChannel(
        server_->target(), *edge::BackOfficeTokens(TestSigningKey(), "test")));
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
    const std::string topic(wire::kWalletTopic);
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
  std::unique_ptr<wallet::LocalWalletServer> server_;
  std::unique_ptr<v1::WalletService::Stub> stub_;
};

}  // namespace banca::testing

#endif  // BANCA_TESTS_INTEGRATION_WALLET_TEST_UTIL_H_
