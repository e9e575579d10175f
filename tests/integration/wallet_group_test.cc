// Two wallet processes in one consumer group on one wallet topic
// (docs/architecture.md, "Several wallet processes"): they split the
// partitions, each decides only for its own owners and follows the other's
// events, and when one leaves the other takes everything over, with every
// request applied exactly once. Both wallets run in this process, each on
// its own log client: the embedded backend always; a real Kafka broker
// when BANCA_KAFKA_BOOTSTRAP names one (then each wallet has its own
// producers and group consumer, as two processes would).
#include <cstdlib>
#include <map>
#include <random>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/kafka_log.h"
#include "libs/ledger/account.h"
#include "libs/wire/topics.h"
#include "services/common/server_options.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

constexpr int kPartitions = 8;
constexpr int kPlayers = 24;
constexpr int64_t kDeposit = 10'000;

struct GroupWallet {
  std::unique_ptr<eventlog::EventLog> own_log;  // Kafka: one per wallet
  std::unique_ptr<wallet::WalletService> wallet;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<v1::WalletService::Stub> stub;
};

class WalletGroupTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "Kafka") {
      const char* bootstrap = std::getenv("BANCA_KAFKA_BOOTSTRAP");
      if (bootstrap == nullptr || *bootstrap == '\0') {
        GTEST_SKIP() << "BANCA_KAFKA_BOOTSTRAP is not set: start a broker "
                        "with tools/kafka-local start (tools/run-tests does)";
      }
      kafka_ = bootstrap;
    }
    dir_ = FreshDir(absl::StrCat("wallet_group_", GetParam()));
    // Unique per run: a broker keeps its topics (and groups) between runs.
    run_ = absl::StrCat("g", std::random_device{}());
    if (kafka_.empty()) {
      auto log = eventlog::OpenEmbeddedLog(dir_ + "/log");
      ASSERT_TRUE(log.ok()) << log.status();
      shared_log_ = *std::move(log);
    }
  }

  absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenKafka() {
    absl::StatusOr<eventlog::KafkaLogOptions> options =
        eventlog::ParseKafkaSpec(absl::StrCat("kafka://", kafka_));
    if (!options.ok()) return options.status();
    return eventlog::OpenKafkaLog(*options);
  }

  GroupWallet Start(const std::string& name) {
    GroupWallet w;
    eventlog::EventLog* log = shared_log_.get();
    if (log == nullptr) {
      auto opened = OpenKafka();
      EXPECT_TRUE(opened.ok()) << opened.status();
      if (!opened.ok()) return w;
      w.own_log = *std::move(opened);
      log = w.own_log.get();
    }
    wallet::WalletOptions options;
    options.partitions = kPartitions;
    options.projection_dir = absl::StrCat(dir_, "/projection-", name);
    options.group = absl::StrCat("wallet-", run_);
    options.group_session_timeout_ms = 1500;
    options.table_requests_interval = absl::ZeroDuration();
    options.verifier = TestVerifier();
    auto started = wallet::WalletService::Start(*log, clock_, options);
    EXPECT_TRUE(started.ok()) << started.status();
    if (!started.ok()) return w;
    w.wallet = *std::move(started);
    grpc::ServerBuilder builder;
    edge::ApplyServerOptions(builder);  // as served: request limits too
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.RegisterService(w.wallet.get());
    w.server = builder.BuildAndStart();
    w.stub = v1::WalletService::NewStub(edge::AuthorizedChannel(
        absl::StrCat("127.0.0.1:", port),
        *edge::BackOfficeTokens(TestSigningKey(), "test")));
    return w;
  }

  static void Stop(GroupWallet& w) {
    if (w.server) w.server->Shutdown(absl::ToChronoTime(absl::Now()));
    if (w.wallet) {
      EXPECT_TRUE(w.wallet->Stop().ok());
    }
    w.server.reset();
    w.wallet.reset();
  }

  // Waits until the wallets' owned partitions split 0..7 between them.
  static bool AwaitSplit(const std::vector<GroupWallet*>& wallets) {
    const absl::Time give_up = absl::Now() + absl::Seconds(60);
    while (absl::Now() < give_up) {
      std::set<int> seen;
      size_t total = 0;
      bool all_have_some = true;
      for (GroupWallet* w : wallets) {
        const std::vector<int> owned = w->wallet->OwnedPartitions();
        all_have_some = all_have_some && !owned.empty();
        total += owned.size();
        seen.insert(owned.begin(), owned.end());
      }
      if (all_have_some && total == kPartitions && seen.size() == total) {
        return true;
      }
      absl::SleepFor(absl::Milliseconds(20));
    }
    return false;
  }

  std::string Player(int i) const { return absl::StrCat(run_, "-p", i); }

  // Sends `call` to each wallet in turn until one decides it (the others
  // answer UNAVAILABLE: not their partition); retries for a while, as a
  // client does during a rebalance. Returns the last status; `decided_by`
  // gets the index of the wallet that answered.
  template <typename Call>
  grpc::Status Route(const std::vector<GroupWallet*>& wallets, Call call,
                     int* decided_by = nullptr) {
    grpc::Status last;
    const absl::Time give_up = absl::Now() + absl::Seconds(60);
    while (absl::Now() < give_up) {
      for (size_t i = 0; i < wallets.size(); ++i) {
        last = call(*wallets[i]->stub);
        if (last.error_code() != grpc::StatusCode::UNAVAILABLE) {
          if (decided_by != nullptr) *decided_by = static_cast<int>(i);
          return last;
        }
      }
      absl::SleepFor(absl::Milliseconds(20));
    }
    return last;
  }

  static auto OpenCall(const std::string& player) {
    return [player](v1::WalletService::Stub& stub) {
      v1::OpenAccountRequest req;
      req.set_request_id(absl::StrCat("open-", player));
      req.set_player_id(player);
      v1::AccountResponse resp;
      grpc::ClientContext ctx;
      return stub.OpenAccount(&ctx, req, &resp);
    };
  }
  static auto DepositCall(const std::string& player, int64_t amount,
                          const std::string& rid,
                          v1::TransactionResponse* out = nullptr) {
    return [=](v1::WalletService::Stub& stub) {
      v1::DepositRequest req;
      req.set_request_id(rid);
      req.set_player_id(player);
      req.set_amount_minor(amount);
      req.set_payment_ref(rid);
      v1::TransactionResponse resp;
      grpc::ClientContext ctx;
      grpc::Status s = stub.Deposit(&ctx, req, &resp);
      if (out != nullptr) *out = resp;
      return s;
    };
  }
  // Money moves between players only through a table (no rule moves it
  // player to player): `from` buys in at seat "ring/<from>", and that seat
  // cashes out to `to`. Each leg has its own deciding owner (the payer,
  // then the seat's table), so each is routed on its own.
  static auto TransferLeg(const std::string& from_account,
                          const std::string& to_account,
                          v1::PostingReason reason, int64_t amount,
                          const std::string& rid) {
    return [=](v1::WalletService::Stub& stub) {
      v1::TransferRequest req;
      req.set_request_id(rid);
      req.set_from_account(from_account);
      req.set_to_account(to_account);
      req.set_amount_minor(amount);
      req.set_reason(reason);
      req.mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
      req.mutable_reference()->set_id("ring");
      v1::TransactionResponse resp;
      grpc::ClientContext ctx;
      return stub.Transfer(&ctx, req, &resp);
    };
  }
  static std::string RingSeat(const std::string& player) {
    return "table/ring/seat/" + player;
  }
  grpc::Status TransferThroughTable(std::vector<GroupWallet*> wallets,
                                    const std::string& from,
                                    const std::string& to, int64_t amount,
                                    const std::string& rid) {
    grpc::Status in = Route(
        wallets, TransferLeg(ledger::PlayerCashAccount(from), RingSeat(from),
                             v1::POSTING_REASON_BUY_IN, amount, rid + "-in"));
    if (!in.ok()) return in;
    // The seat's deciding wallet may not have followed the buy-in yet (it
    // answers "insufficient funds" until it has): as a table would, wait
    // for it.
    const absl::Time give_up = absl::Now() + absl::Seconds(30);
    while (true) {
      grpc::Status out = Route(
          wallets,
          TransferLeg(RingSeat(from), ledger::PlayerCashAccount(to),
                      v1::POSTING_REASON_TABLE_CASH_OUT, amount, rid + "-out"));
      if (out.error_code() != grpc::StatusCode::FAILED_PRECONDITION ||
          absl::Now() > give_up) {
        return out;
      }
      absl::SleepFor(absl::Milliseconds(10));
    }
  }

  // Request id -> how many wallet events carry it, over the whole topic.
  std::map<std::string, int> RequestIdsInLog(eventlog::EventLog& log) {
    std::map<std::string, int> seen;
    for (int p = 0; p < kPartitions; ++p) {
      absl::StatusOr<int64_t> end = eventlog::ReadPartitionToEnd(
          log, std::string(wire::kWalletTopic), p, 0,
          [&](const eventlog::StoredRecord& record) {
            auto decoded = wire::DecodeWalletRecord(record);
            if (!decoded.ok()) return decoded.status();
            const std::string& rid = decoded->event.request_id();
            if (absl::StartsWith(rid, absl::StrCat("open-", run_)) ||
                absl::StrContains(rid, run_)) {
              ++seen[rid];
            }
            return absl::OkStatus();
          });
      EXPECT_TRUE(end.ok()) << end.status();
    }
    return seen;
  }

  static int64_t Available(wallet::WalletService& w, const std::string& p) {
    absl::StatusOr<ledger::PlayerBalance> b = w.ledger().Balance(p);
    return b.ok() ? b->available : -1;
  }

  std::string kafka_, dir_, run_;
  SystemClock clock_;
  std::unique_ptr<eventlog::EventLog> shared_log_;
};

TEST_P(WalletGroupTest, TwoWalletsSplitOwnersFollowEachOtherAndTakeOver) {
  GroupWallet a = Start("a");
  GroupWallet b = Start("b");
  ASSERT_TRUE(a.wallet && b.wallet);
  ASSERT_TRUE(AwaitSplit({&a, &b}));

  // Every player is decided by exactly one of them; the other refuses
  // with UNAVAILABLE naming the partition.
  std::vector<int> decider(kPlayers, -1);
  for (int i = 0; i < kPlayers; ++i) {
    grpc::Status s = Route({&a, &b}, OpenCall(Player(i)), &decider[i]);
    ASSERT_TRUE(s.ok()) << s.error_message();
    ASSERT_TRUE(Route({&a, &b}, DepositCall(Player(i), kDeposit,
                                            absl::StrCat(Player(i), "-dep")))
                    .ok());
  }
  ASSERT_NE(std::count(decider.begin(), decider.end(), 0), 0);
  ASSERT_NE(std::count(decider.begin(), decider.end(), 1), 0);
  {
    const int i = 0;
    GroupWallet& other = decider[i] == 0 ? b : a;
    grpc::Status refused = DepositCall(Player(i), 1, "never")(*other.stub);
    EXPECT_EQ(refused.error_code(), grpc::StatusCode::UNAVAILABLE);
    EXPECT_NE(refused.error_message().find("wallet partition"),
              std::string::npos)
        << refused.error_message();
  }
  // Both wallets follow each other's openings and deposits. Until then a
  // transfer to a payee the payer's wallet has not followed yet is refused
  // (no such account there): the ring starts once both know everyone.
  auto everyone_known = [&] {
    for (int i = 0; i < kPlayers; ++i) {
      if (Available(*a.wallet, Player(i)) != kDeposit ||
          Available(*b.wallet, Player(i)) != kDeposit) {
        return false;
      }
    }
    return true;
  };
  const absl::Time followed_by = absl::Now() + absl::Seconds(30);
  while (!everyone_known() && absl::Now() < followed_by) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  ASSERT_TRUE(everyone_known());
  // A ring of transfers: each crosses to the other wallet's owners about
  // half the time; the payer's wallet decides, the payee's follows.
  for (int i = 0; i < kPlayers; ++i) {
    grpc::Status s =
        TransferThroughTable({&a, &b}, Player(i), Player((i + 1) % kPlayers),
                             100, absl::StrCat(Player(i), "-ring"));
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  // Both ledgers converge on every balance: the ring leaves each at the
  // deposit.
  const absl::Time give_up = absl::Now() + absl::Seconds(30);
  while (!everyone_known() && absl::Now() < give_up) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  ASSERT_TRUE(everyone_known());
  EXPECT_EQ(a.wallet->ledger().Summarize().sum, 0);
  EXPECT_EQ(b.wallet->ledger().Summarize().sum, 0);
  EXPECT_EQ(a.wallet->ledger().Summarize().negative_constrained_accounts, 0);

  // b leaves: a takes every partition over and decides for b's players,
  // and a retry of a request b decided is answered from a's index.
  const int b_player = static_cast<int>(
      std::find(decider.begin(), decider.end(), 1) - decider.begin());
  Stop(b);
  ASSERT_TRUE(AwaitSplit({&a}));
  v1::TransactionResponse again;
  ASSERT_TRUE(
      Route({&a}, DepositCall(Player(b_player), kDeposit,
                              absl::StrCat(Player(b_player), "-dep"), &again))
          .ok());
  EXPECT_TRUE(again.has_tx());
  for (int i = 0; i < kPlayers; ++i) {
    ASSERT_TRUE(TransferThroughTable({&a}, Player(i),
                                     Player((i + 1) % kPlayers), 50,
                                     absl::StrCat(Player(i), "-late"))
                    .ok());
    EXPECT_EQ(Available(*a.wallet, Player(i)) % 50, 0);
  }
  EXPECT_EQ(a.wallet->ledger().Summarize().sum, 0);

  // Exactly once in the log: every request id of this run once.
  eventlog::EventLog& log = shared_log_ ? *shared_log_ : *a.own_log;
  const std::map<std::string, int> seen = RequestIdsInLog(log);
  // Opening, deposit, and two legs for each of the two transfers.
  EXPECT_EQ(seen.size(), static_cast<size_t>(6 * kPlayers));
  for (const auto& [rid, count] : seen) EXPECT_EQ(count, 1) << rid;
  Stop(a);
}

TEST_P(WalletGroupTest, ABatchDecidesItsOwnItemsAndRefusesTheOthersEach) {
  GroupWallet a = Start("a");
  GroupWallet b = Start("b");
  ASSERT_TRUE(a.wallet && b.wallet);
  ASSERT_TRUE(AwaitSplit({&a, &b}));
  std::vector<int> decider(kPlayers, -1);
  for (int i = 0; i < kPlayers; ++i) {
    ASSERT_TRUE(Route({&a, &b}, OpenCall(Player(i)), &decider[i]).ok());
    ASSERT_TRUE(Route({&a, &b}, DepositCall(Player(i), kDeposit,
                                            absl::StrCat(Player(i), "-dep")))
                    .ok());
  }
  // One buy-in per player, all sent to a: a decides those of its players
  // (the payer's owner decides a debit) and refuses each of b's on its
  // own, UNAVAILABLE naming the partition.
  v1::TransferBatchRequest batch;
  for (int i = 0; i < kPlayers; ++i) {
    v1::TransferRequest* t = batch.add_items();
    t->set_request_id(absl::StrCat(Player(i), "-batch"));
    t->set_from_account(ledger::PlayerCashAccount(Player(i)));
    t->set_to_account(RingSeat(Player(i)));
    t->set_amount_minor(100);
    t->set_reason(v1::POSTING_REASON_BUY_IN);
    t->mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
    t->mutable_reference()->set_id("ring");
  }
  v1::TransferBatchResponse out;
  grpc::ClientContext ctx;
  ASSERT_TRUE(a.stub->TransferBatch(&ctx, batch, &out).ok());
  ASSERT_EQ(out.results_size(), kPlayers);
  for (int i = 0; i < kPlayers; ++i) {
    SCOPED_TRACE(i);
    if (decider[i] == 0) {
      EXPECT_EQ(out.results(i).code(), 0) << out.results(i).message();
      EXPECT_EQ(Available(*a.wallet, Player(i)), kDeposit - 100);
    } else {
      EXPECT_EQ(out.results(i).code(),
                static_cast<int>(grpc::StatusCode::UNAVAILABLE));
      EXPECT_NE(out.results(i).message().find("wallet partition"),
                std::string::npos)
          << out.results(i).message();
    }
  }
  Stop(a);
  Stop(b);
}

INSTANTIATE_TEST_SUITE_P(Backends, WalletGroupTest,
                         ::testing::Values("Embedded", "Kafka"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace banca::testing
