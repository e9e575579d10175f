// Faults of the Kafka backend, against real brokers of the test's own (so
// the shared CI broker is never disturbed):
//  - the broker stops cleanly, and later dies by SIGKILL, in the middle of a
//    wallet workload and comes back: the service retries, recovers, and
//    nothing acknowledged is lost or doubled;
//  - a consumer stops and a new one resumes from the group's committed
//    offsets, reading each record once.
// Runs when BANCA_KAFKA_BOOTSTRAP is set (tools/run-tests starts a broker,
// which also means the Kafka jars are cached for tools/kafka-local).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "absl/strings/str_split.h"
#include "libs/eventlog/kafka_log.h"
#include "libs/wire/topics.h"
#include "services/audit/audit.h"
#include "tests/integration/private_broker.h"
#include "tests/integration/serve_child.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

using KafkaFaultTest = PrivateBrokerTest;

struct Deposit {
  std::string player;
  int64_t amount = 0;
  std::string tx_id;  // as acknowledged
};

// Sends one deposit until it is acknowledged (same request id every time, as
// a client must) or `give_up` passes; returns the last status.
grpc::Status DepositUntilAcknowledged(v1::WalletService::Stub& stub,
                                      const std::string& rid, Deposit& op,
                                      absl::Time give_up, int* attempts) {
  grpc::Status s;
  while (absl::Now() < give_up) {
    ++*attempts;
    v1::DepositRequest r;
    r.set_request_id(rid);
    r.set_player_id(op.player);
    r.set_amount_minor(op.amount);
    r.set_payment_ref("psp-" + rid);
    v1::TransactionResponse resp;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() +
                     std::chrono::seconds(15));
    s = stub.Deposit(&ctx, r, &resp);
    if (s.ok()) {
      op.tx_id = resp.tx().tx_id();
      return s;
    }
    // Only transient outcomes are retried; anything else is a bug.
    if (s.error_code() != grpc::StatusCode::UNAVAILABLE &&
        s.error_code() != grpc::StatusCode::DEADLINE_EXCEEDED &&
        s.error_code() != grpc::StatusCode::ABORTED) {
      return s;
    }
    absl::SleepFor(absl::Milliseconds(100));
  }
  return s;
}

TEST_F(KafkaFaultTest, BrokerStopAndRestartMidWorkloadLosesAndDoublesNothing) {
  ServeChild server = StartServeChild(dir_, {"--log=" + spec_});
  ASSERT_GT(server.port, 0);
  auto stub = ConnectWallet(server.port);
  constexpr int kPlayers = 16;
  constexpr int kWorkers = 8;
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
  std::atomic<int> attempts{0}, retried{0};
  std::mutex mu;
  std::map<std::string, Deposit> acknowledged;
  std::vector<std::string> failures;
  std::vector<std::thread> workers;
  const absl::Time give_up = absl::Now() + absl::Seconds(180);
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&, w] {
      std::mt19937_64 rng(w);
      auto client = ConnectWallet(server.port);
      for (int n = 0; !stop.load(); ++n) {
        Deposit op{absl::StrCat("p", rng() % kPlayers),
                   1 + static_cast<int64_t>(rng() % 10'000), ""};
        const std::string rid = absl::StrCat("w", w, "-", n);
        int tries = 0;
        const grpc::Status s =
            DepositUntilAcknowledged(*client, rid, op, give_up, &tries);
        attempts += tries;
        if (tries > 1) ++retried;
        std::lock_guard<std::mutex> lock(mu);
        if (s.ok()) {
          acknowledged[rid] = op;
        } else {
          failures.push_back(
              absl::StrCat(rid, ": ", s.error_code(), " ", s.error_message()));
        }
      }
    });
  }
  auto acknowledged_count = [&] {
    std::lock_guard<std::mutex> lock(mu);
    return acknowledged.size();
  };
  // Waits until `more` further deposits are acknowledged; false after a
  // minute without them.
  auto progress = [&](size_t more) {
    const size_t target = acknowledged_count() + more;
    for (int i = 0; i < 600 && acknowledged_count() < target; ++i) {
      absl::SleepFor(absl::Milliseconds(100));
    }
    return acknowledged_count() >= target;
  };
  EXPECT_TRUE(progress(100)) << "no progress before the faults";
  // A clean stop, down for a while, then back with the same data.
  broker_->Run("pause");
  EXPECT_TRUE(broker_->ok());
  absl::SleepFor(absl::Seconds(3));
  EXPECT_EQ(broker_->Run("resume"), address_);
  EXPECT_TRUE(progress(100)) << "no progress after the restart";
  // Then a crash of the broker (SIGKILL: log recovery on restart).
  broker_->Run("kill");
  EXPECT_TRUE(broker_->ok());
  absl::SleepFor(absl::Seconds(1));
  EXPECT_EQ(broker_->Run("resume"), address_);
  EXPECT_TRUE(progress(100)) << "no progress after the crash";
  stop = true;
  for (auto& t : workers) t.join();
  EXPECT_FALSE(ServeChildExited(server)) << "the wallet died with the broker";
  EXPECT_TRUE(failures.empty()) << failures.size() << " operations never "
                                << "acknowledged, first: " << failures[0];
  EXPECT_GT(retried.load(), 0) << "the outage was not felt: a test of nothing";
  std::cerr << acknowledged.size() << " deposits acknowledged, "
            << retried.load() << " needed retries, " << attempts.load()
            << " attempts\n";

  // Exactly once: each acknowledged deposit is in its player's statement
  // once, balances are the sums of the acknowledged deposits, and retrying
  // any of them returns the original transaction.
  std::map<std::string, int64_t> expected;
  for (const auto& [rid, op] : acknowledged) expected[op.player] += op.amount;
  std::map<std::string, int> seen;
  for (int p = 0; p < kPlayers; ++p) {
    const std::string player = absl::StrCat("p", p);
    absl::StatusOr<std::vector<v1::StatementEntry>> statement =
        ReadStatement(*stub, player);
    ASSERT_TRUE(statement.ok()) << statement.status();
    for (const auto& e : *statement) seen[e.reference().id()]++;
    v1::GetBalanceRequest b;
    b.set_player_id(player);
    v1::BalanceResponse br;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub->GetBalance(&ctx, b, &br).ok());
    EXPECT_EQ(br.available_minor(), expected[player]) << player;
  }
  for (const auto& [rid, op] : acknowledged) {
    EXPECT_EQ(seen["psp-" + rid], 1) << rid;
  }
  for (const auto& [ref, count] : seen) EXPECT_EQ(count, 1) << ref;
  int checked = 0;
  for (const auto& [rid, op] : acknowledged) {
    if (++checked > 200) break;
    Deposit again = op;
    int tries = 0;
    ASSERT_TRUE(DepositUntilAcknowledged(
                    *stub, rid, again, absl::Now() + absl::Seconds(30), &tries)
                    .ok());
    EXPECT_EQ(again.tx_id, op.tx_id) << rid;
  }
  StopServeChild(server, SIGTERM);

  // The auditor reads the broker's topics after all of it.
  auto report = audit::VerifyDataDir(dir_, spec_);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << audit::FormatAuditReport(*report);
  EXPECT_EQ(report->ledger.sum, 0);
  EXPECT_EQ(report->live_hash, report->rebuilt_hash);
  EXPECT_EQ(report->events,
            static_cast<int64_t>(kPlayers + acknowledged.size()));
}

// Two `banca serve` wallet processes in one consumer group on one Kafka
// topic: they split the partitions; one is killed (SIGKILL) mid-workload;
// the other takes its partitions over once the group notices (session
// timeout) and the dead one's open transaction is settled (transaction
// timeout); every acknowledged deposit is in the log exactly once, and
// the auditor's replay of the topic balances.
TEST_F(KafkaFaultTest, TwoWalletProcessesInOneGroupSurviveASigkill) {
  const std::string spec =
      spec_ + "?transaction_timeout_ms=5000&socket.timeout.ms=5000";
  const std::vector<std::string> flags = {"--log=" + spec,
                                          "--wallet-group=wallets",
                                          "--wallet-session-timeout-ms=2000"};
  std::filesystem::create_directories(dir_ + "/a");
  std::filesystem::create_directories(dir_ + "/b");
  ServeChild a = StartServeChild(dir_ + "/a", flags);
  ServeChild b = StartServeChild(dir_ + "/b", flags);
  ASSERT_TRUE(a.port > 0 && b.port > 0);
  // Both hold some partitions before the workload starts.
  const absl::Time split_by = absl::Now() + absl::Seconds(60);
  auto split = [&] {
    auto pa = AssignedPartitions(dir_ + "/a", "wallet partitions assigned");
    auto pb = AssignedPartitions(dir_ + "/b", "wallet partitions assigned");
    return pa && pb && !pa->empty() && !pb->empty();
  };
  while (!split() && absl::Now() < split_by) {
    absl::SleepFor(absl::Milliseconds(50));
  }
  ASSERT_TRUE(split()) << "the two wallets never split the partitions";
  std::vector<std::unique_ptr<v1::WalletService::Stub>> stubs;
  stubs.push_back(ConnectWallet(a.port));
  stubs.push_back(ConnectWallet(b.port));
  std::atomic<bool> b_alive{true};

  // Sends to each live process until one decides (the other answers
  // UNAVAILABLE: not its partition, or it is gone), for up to 90 s.
  auto route = [&](auto call, int* decided_by) {
    grpc::Status s;
    const absl::Time give_up = absl::Now() + absl::Seconds(90);
    while (absl::Now() < give_up) {
      for (int i = 0; i < (b_alive ? 2 : 1); ++i) {
        s = call(*stubs[i]);
        if (s.error_code() != grpc::StatusCode::UNAVAILABLE &&
            s.error_code() != grpc::StatusCode::DEADLINE_EXCEEDED) {
          *decided_by = i;
          return s;
        }
      }
      absl::SleepFor(absl::Milliseconds(50));
    }
    return s;
  };
  auto with_deadline = [](grpc::ClientContext& ctx) {
    ctx.set_deadline(std::chrono::system_clock::now() +
                     std::chrono::seconds(10));
  };
  constexpr int kPlayers = 16;
  constexpr int kRounds = 12;
  constexpr int kWorkers = 4;
  std::vector<int> decider(kPlayers, -1);
  for (int p = 0; p < kPlayers; ++p) {
    grpc::Status s = route(
        [&](v1::WalletService::Stub& stub) {
          v1::OpenAccountRequest open;
          open.set_request_id(absl::StrCat("open-", p));
          open.set_player_id(absl::StrCat("p", p));
          v1::AccountResponse resp;
          grpc::ClientContext ctx;
          with_deadline(ctx);
          return stub.OpenAccount(&ctx, open, &resp);
        },
        &decider[p]);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  ASSERT_NE(std::count(decider.begin(), decider.end(), 1), 0)
      << "b decides for no player: the test would prove nothing";

  // Workers deposit concurrently, so b dies with calls (and, likely, a
  // transaction) in flight; each retries its call with the same request
  // id until some process acknowledges it.
  std::mutex mu;
  std::map<std::string, int64_t> acknowledged;  // request id -> amount
  std::vector<std::string> failures;
  std::atomic<int> done{0}, decided_by_a_after_kill{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&, w] {
      for (int n = 0; n < kRounds; ++n) {
        for (int p = w; p < kPlayers; p += kWorkers) {
          const std::string rid = absl::StrCat("dep-", p, "-", n);
          const int64_t amount = 100 + p;
          const bool after_kill = !b_alive;
          int by = -1;
          grpc::Status s = route(
              [&](v1::WalletService::Stub& stub) {
                v1::DepositRequest r;
                r.set_request_id(rid);
                r.set_player_id(absl::StrCat("p", p));
                r.set_amount_minor(amount);
                r.set_payment_ref("psp-" + rid);
                v1::TransactionResponse resp;
                grpc::ClientContext ctx;
                with_deadline(ctx);
                return stub.Deposit(&ctx, r, &resp);
              },
              &by);
          std::lock_guard lock(mu);
          if (!s.ok()) {
            failures.push_back(rid + ": " + s.error_message());
            return;
          }
          acknowledged[rid] = amount;
          if (after_kill && by == 0 && decider[p] == 1) {
            ++decided_by_a_after_kill;
          }
          ++done;
        }
      }
    });
  }
  // Kill b without warning halfway through; the workers carry on against
  // whoever answers.
  while (done < kPlayers * kRounds / 2) {
    {
      std::lock_guard lock(mu);
      if (!failures.empty()) break;
    }
    absl::SleepFor(absl::Milliseconds(5));
  }
  StopServeChild(b, SIGKILL);
  b_alive = false;
  for (std::thread& t : workers) t.join();
  ASSERT_TRUE(failures.empty()) << failures.front();
  ASSERT_EQ(acknowledged.size(), static_cast<size_t>(kPlayers * kRounds));
  EXPECT_GT(decided_by_a_after_kill, 0) << "a never took b's players over";
  auto pa = AssignedPartitions(dir_ + "/a", "wallet partitions assigned");
  ASSERT_TRUE(pa.has_value());
  EXPECT_EQ(*pa, "0,1,2,3,4,5,6,7");
  StopServeChild(a, SIGTERM);

  // Exactly once: every acknowledged deposit once in the log, nothing else.
  auto options = eventlog::ParseKafkaSpec(spec_);
  ASSERT_TRUE(options.ok()) << options.status();
  auto log = eventlog::OpenKafkaLog(*options);
  ASSERT_TRUE(log.ok()) << log.status();
  std::map<std::string, int> seen;
  for (int p = 0; p < 8; ++p) {
    auto end = eventlog::ReadPartitionToEnd(
        **log, std::string(wire::kWalletTopic), p, 0,
        [&](const eventlog::StoredRecord& record) {
          auto decoded = wire::DecodeWalletRecord(record);
          if (!decoded.ok()) return decoded.status();
          ++seen[decoded->event.request_id()];
          return absl::OkStatus();
        });
    ASSERT_TRUE(end.ok()) << end.status();
  }
  // The payment service's deposits, under its namespace of request ids.
  for (const auto& [rid, amount] : acknowledged) {
    EXPECT_EQ(seen["client/service:payments/" + rid], 1) << rid;
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(kPlayers) + acknowledged.size());
  log->reset();

  // The auditor replays the topic: the ledger balances.
  auto report = audit::VerifyDataDir(dir_ + "/a", spec_);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << audit::FormatAuditReport(*report);
  EXPECT_EQ(report->ledger.sum, 0);
  EXPECT_EQ(report->events,
            static_cast<int64_t>(kPlayers + acknowledged.size()));
}

TEST_F(KafkaFaultTest, ConsumerRestartResumesFromCommittedOffsets) {
  auto options = eventlog::ParseKafkaSpec(spec_);
  ASSERT_TRUE(options.ok()) << options.status();
  constexpr char kTopic[] = "banca.resume.events";
  constexpr char kGroup[] = "banca.resume.reader";
  constexpr int kPartitions = 3;
  constexpr int kRecords = 600;
  {
    auto log = eventlog::OpenKafkaLog(*options);
    ASSERT_TRUE(log.ok()) << log.status();
    ASSERT_TRUE((*log)->EnsureTopic({kTopic, kPartitions}).ok());
    std::vector<eventlog::Record> batch;
    for (int i = 0; i < kRecords; ++i) {
      eventlog::Record r{kTopic, absl::StrCat("k", i), {}, absl::StrCat(i)};
      r.partition = i % kPartitions;  // 200 each
      batch.push_back(std::move(r));
      if (batch.size() == 100) {
        ASSERT_TRUE((*log)->Append(std::move(batch)).ok());
        batch.clear();
      }
    }
  }
  // A consumer reads up to `limit` records per partition, commits what it
  // processed, and goes away; the next one starts from the commits. Each
  // consumer is a fresh set of librdkafka clients, as after a restart.
  std::map<std::string, int> processed;
  auto consume = [&](size_t limit) {
    auto log = eventlog::OpenKafkaLog(*options);
    ASSERT_TRUE(log.ok()) << log.status();
    std::vector<eventlog::OffsetCommit> commits;
    for (int p = 0; p < kPartitions; ++p) {
      auto from = (*log)->CommittedOffset(kGroup, kTopic, p);
      ASSERT_TRUE(from.ok()) << from.status();
      auto records = (*log)->Read(kTopic, p, *from, limit);
      ASSERT_TRUE(records.ok()) << records.status();
      for (const auto& r : *records) processed[r.value]++;
      if (!records->empty()) {
        commits.push_back({kGroup, kTopic, p, records->back().offset + 1});
      }
    }
    ASSERT_TRUE((*log)->CommitOffsets(commits).ok());
  };
  consume(50);
  EXPECT_EQ(processed.size(), 150u);
  consume(70);
  EXPECT_EQ(processed.size(), 360u);
  consume(kRecords);  // the rest
  consume(kRecords);  // nothing left
  EXPECT_EQ(processed.size(), static_cast<size_t>(kRecords));
  for (const auto& [value, count] : processed) EXPECT_EQ(count, 1) << value;
}

}  // namespace
}  // namespace banca::testing
