// Issue 20, the live audit: `banca audit verify --json` run again and
// again, several at once, against a `banca serve
// --services=wallet,table,reporting` child that keeps taking deposits and
// playing poker. Every audit is OK for the range it read, the live wallet
// and reporting projections equal their rebuilds (in the last round, once
// they have flushed, with something in them), and the ranges grow; after the
// server stops, the whole log audits OK too. On Kafka the same runs when
// BANCA_KAFKA_BOOTSTRAP names a broker.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "banca/v1/table.grpc.pb.h"
#include "libs/projection/projector.h"
#include "nlohmann/json.hpp"
#include "tests/integration/serve_child.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

using auth::Role;

// At most this many audits at once, and rounds of them.
constexpr int kConcurrentAudits = 3;
constexpr int kRounds = 3;
// The state hash of an empty projection (SHA-256 of nothing).
constexpr char kEmptyHash[] =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

struct AuditRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Starts `banca audit verify --json` on `dir` (`log` as its --log); its
// stdout and stderr go to files named after `tag`.
pid_t StartAudit(const std::string& dir, const std::string& log,
                 const std::string& tag) {
  std::vector<std::string> args = {BANCA_BINARY,   "audit",
                                   "verify",       "--data-dir=" + dir,
                                   "--log=" + log, "--json"};
  const std::string out = dir + "/../" + tag + ".out";
  const std::string err = dir + "/../" + tag + ".err";
  const pid_t pid = fork();
  if (pid == 0) {
    const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, STDOUT_FILENO);
    dup2(e, STDERR_FILENO);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(BANCA_BINARY, argv.data());
    _exit(127);
  }
  return pid;
}

AuditRun WaitAudit(pid_t pid, const std::string& dir, const std::string& tag) {
  int status = 0;
  waitpid(pid, &status, 0);
  AuditRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = ReadAll(dir + "/../" + tag + ".out");
  run.err = ReadAll(dir + "/../" + tag + ".err");
  return run;
}

// The records an audit read: the sum of its range's ends.
int64_t RangeSize(const nlohmann::json& report) {
  int64_t n = 0;
  for (const nlohmann::json& r : report["range"]) n += r["to"].get<int64_t>();
  return n;
}

class LiveAuditTest : public ::testing::Test {
 protected:
  void TearDown() override {
    stop_ = true;
    if (traffic_.joinable()) traffic_.join();
    if (child_.pid > 0) StopServeChild(child_, SIGTERM);
  }

  void Start(const std::string& log) {
    log_ = log;
    // Ids unique per run: a Kafka broker keeps its topics between runs.
    const std::string run = absl::StrCat(std::random_device{}() % 100'000);
    table_ = "t" + run;
    players_ = {"ana" + run, "bob" + run, "cyd" + run};
    dir_ = FreshDir("live_audit") + "/data";
    std::filesystem::create_directories(dir_);
    std::vector<std::string> flags = {"--services=wallet,table,reporting"};
    if (log != "embedded") flags.push_back("--log=" + log);
    child_ = StartServeChild(dir_, flags);
    ASSERT_GT(child_.port, 0);
    started_ = absl::Now();
    back_office_ = ConnectWallet(child_.port);
    tables_ = v1::TableService::NewStub(
        grpc::CreateChannel(absl::StrCat("127.0.0.1:", child_.port),
                            grpc::InsecureChannelCredentials()));
    for (const std::string& p : players_) {
      FundPlayer(*back_office_, p, 1'000'000);
    }
    v1::CreateTableRequest create;
    create.set_request_id("create-" + table_);
    create.set_table_id(table_);
    create.set_name(table_);
    v1::PokerTableConfig* c = create.mutable_config();
    c->set_variant(v1::POKER_VARIANT_HOLDEM);
    c->set_small_blind_minor(50);
    c->set_big_blind_minor(100);
    c->set_buy_in_min_minor(5'000);
    c->set_buy_in_max_minor(20'000);
    c->set_hand_interval_ms(0);
    v1::TableInfo info;
    grpc::Status s =
        tables_->CreateTable(As(Role::kOperator, "op").get(), create, &info);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }

  static std::unique_ptr<grpc::ClientContext> As(Role role,
                                                 const std::string& name) {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->AddMetadata("authorization", "Bearer " + TestToken(role, name));
    ctx->set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(10)));
    return ctx;
  }

  bool Sit(const std::string& player, int seat) {
    v1::SitRequest sit;
    sit.set_request_id(absl::StrCat("sit-", player, "-", ++ids_));
    sit.set_table_id(table_);
    sit.set_seat(seat);
    sit.set_buy_in_minor(10'000);
    v1::SeatResponse out;
    return tables_->Sit(As(Role::kPlayer, player).get(), sit, &out).ok();
  }

  bool Leave(const std::string& player) {
    v1::LeaveRequest leave;
    leave.set_request_id(absl::StrCat("leave-", player, "-", ++ids_));
    leave.set_table_id(table_);
    v1::LeaveResponse out;
    return tables_->Leave(As(Role::kPlayer, player).get(), leave, &out).ok();
  }

  void Deposit(const std::string& player) {
    v1::DepositRequest d;
    const int64_t id = ++ids_;
    d.set_request_id(absl::StrCat(table_, "-dep-", id));
    d.set_player_id(player);
    d.set_amount_minor(1'000);
    d.set_payment_ref(absl::StrCat("psp-", table_, "-", id));
    v1::TransactionResponse tx;
    grpc::ClientContext ctx;
    (void)back_office_->Deposit(&ctx, d, &tx);
  }

  // One decision at the table, by whoever is to act: check when they
  // may, else call two times in three, else fold. False when nobody is to
  // act.
  bool ActOnce() {
    v1::WatchTableRequest req;
    req.set_table_id(table_);
    v1::TableView view;
    if (!tables_->GetTableView(As(Role::kAuditor, "aud").get(), req, &view)
             .ok() ||
        !view.in_hand() || view.to_act() <= 0) {
      return false;
    }
    std::string player;
    for (const v1::SeatState& s : view.seats()) {
      if (s.seat() == view.to_act()) player = s.player_id();
    }
    if (player.empty()) return false;
    auto can = [&](v1::PokerActionType a) {
      for (int x : view.to_act_legal().actions()) {
        if (x == a) return true;
      }
      return false;
    };
    v1::ActRequest act;
    act.set_request_id(absl::StrCat("act-", ++ids_));
    act.set_table_id(table_);
    act.set_hand_number(view.hand_number());
    act.set_action(can(v1::POKER_ACTION_TYPE_CHECK)
                       ? v1::POKER_ACTION_TYPE_CHECK
                   : ids_ % 3 != 0 && can(v1::POKER_ACTION_TYPE_CALL)
                       ? v1::POKER_ACTION_TYPE_CALL
                       : v1::POKER_ACTION_TYPE_FOLD);
    v1::TableView after;
    (void)tables_->Act(As(Role::kPlayer, player).get(), act, &after);
    ++actions_;
    return true;
  }

  // Deposits and play until stop_: ana and bob play; cyd sits down and
  // leaves again (a buy-in and a cash-out) every so often.
  void Traffic() {
    Sit(players_[0], 1);
    Sit(players_[1], 2);
    bool cyd_seated = false;
    for (int step = 0; !stop_; ++step) {
      if (!play_ || !ActOnce()) absl::SleepFor(absl::Milliseconds(5));
      if (step % 10 == 0) Deposit(players_[step % 3]);
      if (step % 40 == 20) {
        cyd_seated = cyd_seated ? !Leave(players_[2]) : Sit(players_[2], 3);
      }
    }
  }

  // kRounds rounds of kConcurrentAudits audits at once, while the traffic
  // runs: each OK, the ranges growing from round to round. With
  // `deposits_only_while_auditing`, the table pauses while the audits run
  // and only deposits go on (one topic): on Kafka the range's ends are
  // taken partition after partition, and a table's transaction committed
  // in between may fall on one side on one topic and on the other on
  // another (docs/operator-guide.md, "Live audit").
  void AuditWhileServing(bool deposits_only_while_auditing = false) {
    traffic_ = std::thread([this] { Traffic(); });
    int64_t last = 0;
    for (int round = 0; round < kRounds; ++round) {
      const int64_t acted = actions_;
      const absl::Time deadline = absl::Now() + absl::Seconds(30);
      while (actions_ < acted + 30 && absl::Now() < deadline) {
        absl::SleepFor(absl::Milliseconds(20));
      }
      ASSERT_GE(actions_, acted + 30) << "the table did not play";
      const bool last_round = round + 1 == kRounds;
      if (last_round) {
        // The projections have flushed since they started: the last
        // round compares states that hold something.
        const absl::Time flushed =
            started_ + projection::kRunnerFlushInterval + absl::Seconds(1);
        if (absl::Now() < flushed) absl::SleepFor(flushed - absl::Now());
      }
      if (deposits_only_while_auditing) {
        play_ = false;
        absl::SleepFor(absl::Milliseconds(500));  // the last hand settles
      }
      std::vector<std::pair<pid_t, std::string>> runs;
      for (int i = 0; i < kConcurrentAudits; ++i) {
        const std::string tag = absl::StrCat("audit-", round, "-", i);
        runs.emplace_back(StartAudit(dir_, log_, tag), tag);
      }
      int64_t smallest = INT64_MAX;
      for (const auto& [pid, tag] : runs) {
        const AuditRun run = WaitAudit(pid, dir_, tag);
        SCOPED_TRACE(tag);
        ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
        const nlohmann::json j = nlohmann::json::parse(run.out);
        EXPECT_EQ(j["ok"], true) << j["problems"].dump(1);
        EXPECT_GT(j["table_events"].get<int64_t>(), 0);
        EXPECT_EQ(j["live_hash"], j["replay_hash"]);
        EXPECT_TRUE(j.contains("reporting_live_hash"));
        EXPECT_EQ(j["reporting_live_hash"], j["reporting_rebuilt_hash"]);
        if (last_round) {
          EXPECT_NE(j["live_hash"], kEmptyHash);
          EXPECT_NE(j["reporting_live_hash"], kEmptyHash);
        }
        smallest = std::min(smallest, RangeSize(j));
      }
      EXPECT_GT(smallest, last) << "round " << round;
      last = smallest;
      play_ = true;
    }
    stop_ = true;
    traffic_.join();
    EXPECT_FALSE(ServeChildExited(child_));
  }

  std::string log_;
  std::string dir_;
  std::string table_;
  std::vector<std::string> players_;
  ServeChild child_;
  std::unique_ptr<v1::WalletService::Stub> back_office_;
  std::unique_ptr<v1::TableService::Stub> tables_;
  std::thread traffic_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> play_{true};
  absl::Time started_;
  std::atomic<int64_t> actions_{0};
  std::atomic<int64_t> ids_{0};
};

TEST_F(LiveAuditTest, EmbeddedAuditsAreOkWhileTheServerPlays) {
  Start("embedded");
  ASSERT_FALSE(HasFatalFailure());
  AuditWhileServing();
  ASSERT_FALSE(HasFatalFailure());
  // Stopped, the whole log audits OK as well.
  StopServeChild(child_, SIGTERM);
  child_.pid = -1;
  const AuditRun last =
      WaitAudit(StartAudit(dir_, log_, "final"), dir_, "final");
  ASSERT_EQ(last.exit_code, 0) << last.out << last.err;
  EXPECT_EQ(nlohmann::json::parse(last.out)["ok"], true);
}

TEST_F(LiveAuditTest, KafkaAuditsAreOkWhileTheServerPlays) {
  const char* bootstrap = std::getenv("BANCA_KAFKA_BOOTSTRAP");
  if (bootstrap == nullptr || *bootstrap == '\0') {
    GTEST_SKIP() << "BANCA_KAFKA_BOOTSTRAP is not set (no Kafka broker)";
  }
  Start(absl::StrCat("kafka://", bootstrap));
  ASSERT_FALSE(HasFatalFailure());
  AuditWhileServing(/*deposits_only_while_auditing=*/true);
}

}  // namespace
}  // namespace banca::testing
