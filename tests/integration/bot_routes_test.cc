// Issue 21: the bots' route to a service's processes
// (tools/bench/service_route.h) against real `banca serve` processes. A
// call made while its process is down is carried out once the process is
// back (on the same port), and repeated with its request id it is answered
// with the original result and appends nothing. The game bots play
// through two wallets of one --wallet-group and two table processes of one
// --table-group on a private broker: the wallets refuse each other's
// players and the table processes each other's tables (naming the owner),
// and every bot's money still ties out.
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "services/audit/audit.h"
#include "tests/integration/private_broker.h"
#include "tests/integration/serve_child.h"
#include "tests/integration/test_keys.h"
#include "tools/bench/bot_calls.h"
#include "tools/bench/game_bots.h"
#include "tools/bench/service_route.h"

namespace banca::testing {
namespace {

using bench::ServiceRoute;

grpc::Status Deposit(ServiceRoute& wallet, const std::string& request_id,
                     v1::TransactionResponse& tx) {
  v1::DepositRequest req;
  req.set_request_id(request_id);
  req.set_player_id("ana");
  req.set_amount_minor(1'000);
  req.set_payment_ref("pay-" + request_id);
  return wallet.On<v1::WalletService>(
      TestToken(auth::Role::kService, "payments"), "ana",
      [&](v1::WalletService::Stub& w, grpc::ClientContext* c) {
        return w.Deposit(c, req, &tx);
      });
}

// A wallet process SIGKILLed; a deposit is asked for while it is down and
// answered once it is back on the same port and data directory; asked
// again with the same request id, the answer is the same transaction and
// the balance holds the deposit once.
TEST(BotRoutesTest, ACallIsRepeatedAcrossARestartWithItsRequestId) {
  const std::string dir = FreshDir("bot_routes_restart");
  const int port = FreePort();
  const std::vector<std::string> flags = {"--services=wallet",
                                          absl::StrCat("--grpc-port=", port)};
  ServeChild wallet = StartServeChild(dir, flags);
  ASSERT_EQ(wallet.port, port);
  ServiceRoute route({absl::StrCat("127.0.0.1:", port)}, nullptr);
  bench::BackOffice office{TestToken(auth::Role::kOperator, "op"),
                           TestToken(auth::Role::kService, "payments")};
  absl::Status funded = bench::FundPlayer(route, office, "ana", 5'000, "first");
  ASSERT_TRUE(funded.ok()) << funded;

  StopServeChild(wallet, SIGKILL);
  v1::TransactionResponse tx;
  grpc::Status during;
  std::thread call([&] { during = Deposit(route, "while-down", tx); });
  absl::SleepFor(absl::Seconds(2));  // a few attempts refused meanwhile
  wallet = StartServeChild(dir, flags);
  ASSERT_EQ(wallet.port, port);
  call.join();
  ASSERT_TRUE(during.ok()) << during.error_message();
  EXPECT_GT(route.stats().retries, 0);
  EXPECT_EQ(route.stats().gave_up, 0);

  v1::TransactionResponse again;
  const grpc::Status repeated = Deposit(route, "while-down", again);
  ASSERT_TRUE(repeated.ok()) << repeated.error_message();
  EXPECT_FALSE(tx.tx().tx_id().empty());
  EXPECT_EQ(again.tx().tx_id(), tx.tx().tx_id());
  absl::StatusOr<int64_t> balance = bench::TotalBalance(route, office, "ana");
  ASSERT_TRUE(balance.ok()) << balance.status();
  EXPECT_EQ(*balance, 6'000);
  StopServeChild(wallet, SIGTERM);
}

class BotRoutesGroupsTest : public PrivateBrokerTest {
 protected:
  void TearDown() override {
    for (ServeChild& child : children_) {
      if (child.pid > 0) StopServeChild(child, SIGTERM);
    }
  }

  // A `banca serve` of its own directory `name` on a port it advertises.
  std::string Start(const std::string& name, std::vector<std::string> flags) {
    std::filesystem::create_directories(dir_ + "/" + name);
    const int port = FreePort();
    flags.push_back(absl::StrCat("--grpc-port=", port));
    flags.push_back(absl::StrCat("--advertise-address=127.0.0.1:", port));
    children_.push_back(StartServeChild(dir_ + "/" + name, flags));
    EXPECT_EQ(children_.back().port, port) << name;
    return absl::StrCat("127.0.0.1:", port);
  }

  std::vector<ServeChild> children_;
};

// Two wallets of a group and two table processes of a group: the bots
// play every table game through their routes; the tables each process
// does not decide for and the players each wallet does not own are
// refused and the bots go on elsewhere; every bot's balance is its
// deposit and its sessions' net, and the audit of the topics balances.
TEST_F(BotRoutesGroupsTest, TheGameBotsPlayThroughWalletAndTableGroups) {
  const std::string spec =
      spec_ + "?transaction_timeout_ms=5000&socket.timeout.ms=5000";
  const std::string deck_key = dir_ + "/deck.key";
  std::ofstream(deck_key) << TestDeckKeyHex() << "\n";
  bench::GameBotsOptions o;
  for (const char* name : {"wallet-a", "wallet-b"}) {
    o.services.wallet.push_back(Start(
        name, {"--log=" + spec, "--services=wallet", "--wallet-group=wallets",
               "--wallet-session-timeout-ms=3000"}));
  }
  for (const char* name : {"tables-a", "tables-b"}) {
    o.services.table.push_back(Start(
        name,
        {"--log=" + spec, "--services=table", "--table-group=tables",
         "--table-session-timeout-ms=3000", "--deck-key-file=" + deck_key}));
  }
  ASSERT_FALSE(HasFailure());
  o.target = o.services.wallet[0];  // no tournament, no reporting
  o.key = TestSigningKey();
  o.run_id = "routes";
  o.play_for = absl::Seconds(15);
  o.players = 2;
  o.sit_and_go = false;
  absl::StatusOr<bench::GameBotsResult> result = bench::RunGameBots(o);
  ASSERT_TRUE(result.ok()) << result.status();
  for (const std::string& f : result->failures) ADD_FAILURE() << f;
  for (const bench::GameTally& t : result->games) {
    EXPECT_GT(t.rounds, 0) << t.game;
  }
  EXPECT_EQ(result->ledger_sum_minor, 0);
  // Each group refused the bots somewhere and the routes went on.
  EXPECT_GT(result->routes["wallet"].retries, 0);
  EXPECT_GT(result->routes["table"].redirects, 0);
  EXPECT_EQ(result->routes["wallet"].gave_up, 0);
  EXPECT_EQ(result->routes["table"].gave_up, 0);

  for (ServeChild& child : children_) StopServeChild(child, SIGTERM);
  children_.clear();
  auto report = audit::VerifyDataDir(dir_ + "/wallet-a", spec_);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << audit::FormatAuditReport(*report);
  EXPECT_EQ(report->ledger.sum, 0);
}

}  // namespace
}  // namespace banca::testing
