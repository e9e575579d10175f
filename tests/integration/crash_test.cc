// The crash test: a real `banca serve` child process is SIGKILLed at random
// moments under a concurrent workload, then restarted, round after round.
// Afterwards every acknowledged operation must be present exactly once,
// nothing unacknowledged may be half-applied, the ledger must sum to zero
// and `banca audit verify` must find the projections equal to a replay.
#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "absl/strings/numbers.h"
#include "testing/grpc_health_client.grpc.pb.h"
#include "testing/grpc_reflection_client.grpc.pb.h"
#include "tests/integration/serve_child.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

struct Op {
  std::string player;
  bool deposit;
  int64_t amount;
  std::string tx_id;  // as acknowledged
};

grpc::Status Send(v1::WalletService::Stub& stub, const std::string& rid,
                  const Op& op, v1::TransactionResponse* out) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  if (op.deposit) {
    v1::DepositRequest r;
    r.set_request_id(rid);
    r.set_player_id(op.player);
    r.set_amount_minor(op.amount);
    r.set_payment_ref("psp-" + rid);
    return stub.Deposit(&ctx, r, out);
  }
  v1::WithdrawRequest r;
  r.set_request_id(rid);
  r.set_player_id(op.player);
  r.set_amount_minor(op.amount);
  r.set_payment_ref("psp-" + rid);
  return stub.Withdraw(&ctx, r, out);
}

TEST(CrashTest, SigkillDuringLoadLosesNothingAcknowledged) {
  int rounds = 20;
  if (const char* env = std::getenv("BANCA_CRASH_ROUNDS")) {
    ASSERT_TRUE(absl::SimpleAtoi(env, &rounds));
  }
  constexpr int kPlayers = 24;
  constexpr int kWorkers = 8;
  const std::string dir = FreshDir("crash");
  std::mt19937_64 rng(20261122);
  std::mutex mu;
  std::map<std::string, Op> acknowledged;

  for (int round = 0; round < rounds; ++round) {
    ServeChild child = StartServeChild(dir);
    ASSERT_GT(child.port, 0);
    auto stub = ConnectWallet(child.port);
    for (int p = 0; p < kPlayers; ++p) {
      v1::OpenAccountRequest open;
      open.set_request_id(absl::StrCat("open-", p));
      open.set_player_id(absl::StrCat("p", p));
      v1::AccountResponse resp;
      grpc::ClientContext ctx;
      const grpc::Status s = stub->OpenAccount(&ctx, open, &resp);
      ASSERT_TRUE(s.ok()) << s.error_message();
    }
    std::atomic<bool> stop{false};
    std::vector<std::thread> workers;
    for (int w = 0; w < kWorkers; ++w) {
      workers.emplace_back([&, w] {
        std::mt19937_64 local(round * 1000 + w);
        auto client = ConnectWallet(child.port);
        for (int n = 0; !stop.load(); ++n) {
          Op op;
          op.player =
              absl::StrCat("p", (w + kWorkers * (local() % 3)) % kPlayers);
          op.deposit = local() % 3 != 0;
          op.amount = 1 + static_cast<int64_t>(local() % 5'000);
          const std::string rid = absl::StrCat("r", round, "-w", w, "-", n);
          v1::TransactionResponse resp;
          const grpc::Status s = Send(*client, rid, op, &resp);
          if (s.ok()) {
            op.tx_id = resp.tx().tx_id();
            std::lock_guard<std::mutex> lock(mu);
            acknowledged[rid] = op;
          } else if (s.error_code() == grpc::StatusCode::UNAVAILABLE ||
                     s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
            return;  // the server is gone
          }
        }
      });
    }
    absl::SleepFor(absl::Milliseconds(100 + rng() % 500));
    StopServeChild(child, SIGKILL);
    stop = true;
    for (auto& t : workers) t.join();
  }
  ASSERT_GT(acknowledged.size(), 100u);

  // Restart and check.
  ServeChild child = StartServeChild(dir);
  ASSERT_GT(child.port, 0);
  auto stub = ConnectWallet(child.port);
  auto channel = grpc::CreateChannel(absl::StrCat("127.0.0.1:", child.port),
                                     grpc::InsecureChannelCredentials());
  {
    // gRPC health checking answers for the wallet...
    auto health = grpc::health::v1::Health::NewStub(channel);
    grpc::health::v1::HealthCheckRequest req;
    req.set_service("banca.v1.WalletService");
    grpc::health::v1::HealthCheckResponse resp;
    grpc::ClientContext ctx;
    ASSERT_TRUE(health->Check(&ctx, req, &resp).ok());
    EXPECT_EQ(resp.status(), grpc::health::v1::HealthCheckResponse::SERVING);
  }
  {
    // ...and server reflection lists it.
    auto reflection =
        grpc::reflection::v1alpha::ServerReflection::NewStub(channel);
    grpc::ClientContext ctx;
    auto stream = reflection->ServerReflectionInfo(&ctx);
    grpc::reflection::v1alpha::ServerReflectionRequest req;
    req.set_list_services("");
    ASSERT_TRUE(stream->Write(req));
    stream->WritesDone();
    grpc::reflection::v1alpha::ServerReflectionResponse resp;
    ASSERT_TRUE(stream->Read(&resp));
    bool listed = false;
    for (const auto& s : resp.list_services_response().service()) {
      listed |= s.name() == "banca.v1.WalletService";
    }
    EXPECT_TRUE(listed);
    EXPECT_TRUE(stream->Finish().ok());
  }
  v1::LedgerSummaryResponse before;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub->GetLedgerSummary(&ctx, {}, &before).ok());
  }
  EXPECT_EQ(before.ledger_sum_minor(), 0);
  // Every acknowledged operation is there: its retry returns the same
  // transaction and changes nothing.
  for (const auto& [rid, op] : acknowledged) {
    v1::TransactionResponse resp;
    const grpc::Status s = Send(*stub, rid, op, &resp);
    ASSERT_TRUE(s.ok()) << rid << ": " << s.error_message();
    EXPECT_EQ(resp.tx().tx_id(), op.tx_id) << rid;
  }
  v1::LedgerSummaryResponse after;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub->GetLedgerSummary(&ctx, {}, &after).ok());
  }
  EXPECT_EQ(after.transactions(), before.transactions());
  // Statements: no payment appears twice; every acknowledged one once; each
  // player's balance is the sum of their statement.
  std::map<std::string, int> seen;
  for (int p = 0; p < kPlayers; ++p) {
    const std::string player = absl::StrCat("p", p);
    int64_t sum = 0;
    absl::StatusOr<std::vector<v1::StatementEntry>> statement =
        ReadStatement(*stub, player);
    ASSERT_TRUE(statement.ok()) << statement.status();
    for (const auto& e : *statement) {
      if (e.account() != absl::StrCat("player/", player, "/cash")) continue;
      seen[e.reference().id()]++;
      sum += e.amount_minor();
    }
    const std::optional<int64_t> available = AvailableMinor(*stub, player);
    ASSERT_TRUE(available.has_value()) << player;
    EXPECT_EQ(*available, sum) << player;
    EXPECT_GE(*available, 0);
  }
  for (const auto& [ref, count] : seen) EXPECT_EQ(count, 1) << ref;
  for (const auto& [rid, op] : acknowledged) {
    EXPECT_EQ(seen["psp-" + rid], 1) << rid << " acknowledged but not applied";
  }
  StopServeChild(child, SIGTERM);

  // The auditor's view.
  const std::string audit =
      absl::StrCat(BANCA_BINARY, " audit verify --data-dir=", dir, " > ", dir,
                   "/audit.txt 2>&1");
  const int rc = std::system(audit.c_str());
  EXPECT_EQ(rc, 0) << "banca audit verify failed; see " << dir << "/audit.txt";
}

}  // namespace
}  // namespace banca::testing
