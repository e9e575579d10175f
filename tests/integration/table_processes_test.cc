// Issue 21: the tables in processes of their own, on a private Kafka
// broker. The wallet runs in one `banca serve --services=wallet` process,
// the tables in another (`--services=table`), each with its own data
// directory: they meet only on the broker's topics. A poker hand and a
// roulette round are played through the table process and their money is
// settled by the wallet process; the auditor's replay of the topics
// balances. Two table processes of one --table-group split the tables,
// route clients to each other (the trailing metadata banca-owner of a
// refusal) and take each other's tables over. The tournaments and
// reporting run alone beside the wallet too.
#include <signal.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "banca/v1/banked_table.grpc.pb.h"
#include "banca/v1/reporting.grpc.pb.h"
#include "banca/v1/table.grpc.pb.h"
#include "banca/v1/tournament.grpc.pb.h"
#include "libs/eventlog/event_log.h"
#include "services/audit/audit.h"
#include "tests/integration/private_broker.h"
#include "tests/integration/serve_child.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

using auth::Role;

constexpr int64_t kFunds = 100'000;
constexpr int64_t kBuyIn = 10'000;

std::unique_ptr<grpc::ClientContext> As(Role role, const std::string& name) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->AddMetadata("authorization", "Bearer " + TestToken(role, name));
  ctx->set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(30)));
  return ctx;
}

std::shared_ptr<grpc::Channel> Channel(const std::string& address) {
  return grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
}

std::shared_ptr<grpc::Channel> Channel(int port) {
  return Channel(absl::StrCat("127.0.0.1:", port));
}

class TableProcessesTest : public PrivateBrokerTest {
 protected:
  void TearDown() override {
    for (ServeChild* child : {&tables_child_, &wallet_child_}) {
      if (child->pid > 0) StopServeChild(*child, SIGTERM);
      child->pid = -1;
    }
  }

  // The wallet and the tables, each a process with its own directory.
  void StartWalletAndTables() {
    std::filesystem::create_directories(dir_ + "/wallet");
    std::filesystem::create_directories(dir_ + "/tables");
    wallet_child_ = StartServeChild(dir_ + "/wallet",
                                    {"--log=" + spec_, "--services=wallet"});
    ASSERT_GT(wallet_child_.port, 0);
    tables_child_ = StartServeChild(dir_ + "/tables",
                                    {"--log=" + spec_, "--services=table"});
    ASSERT_GT(tables_child_.port, 0);
    wallet_ = ConnectWallet(wallet_child_.port);
    poker_ = v1::TableService::NewStub(Channel(tables_child_.port));
    banked_ = v1::BankedTableService::NewStub(Channel(tables_child_.port));
    // The table process serves no wallet.
    v1::GetBalanceRequest b;
    b.set_player_id("ana");
    v1::BalanceResponse out;
    grpc::ClientContext ctx;
    EXPECT_EQ(ConnectWallet(tables_child_.port)
                  ->GetBalance(&ctx, b, &out)
                  .error_code(),
              grpc::StatusCode::UNIMPLEMENTED);
  }

  int64_t Cash(const std::string& player) {
    v1::GetBalanceRequest b;
    b.set_player_id(player);
    v1::BalanceResponse out;
    grpc::ClientContext ctx;
    const grpc::Status s = wallet_->GetBalance(&ctx, b, &out);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out.available_minor();
  }

  // Waits up to a minute for `player`'s cash to be `expected` (the wallet
  // carries the tables' requests out from the log, after they answered).
  void ExpectCash(const std::string& player, int64_t expected) {
    const absl::Time give_up = absl::Now() + absl::Seconds(60);
    while (Cash(player) != expected && absl::Now() < give_up) {
      absl::SleepFor(absl::Milliseconds(50));
    }
    EXPECT_EQ(Cash(player), expected) << player;
  }

  v1::TableView PokerView(const std::string& table) {
    v1::WatchTableRequest req;
    req.set_table_id(table);
    v1::TableView view;
    const grpc::Status s =
        poker_->GetTableView(As(Role::kAuditor, "aud").get(), req, &view);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return view;
  }

  ServeChild wallet_child_, tables_child_;
  std::unique_ptr<v1::WalletService::Stub> wallet_;
  std::unique_ptr<v1::TableService::Stub> poker_;
  std::unique_ptr<v1::BankedTableService::Stub> banked_;
};

// Heads-up Hold'em with a pause between hands: the first hand is dealt, the
// player to act folds (the big blind wins the small blind's 50), and both
// leave before the next. The buy-ins, the hand's settlement and the
// cash-outs are carried out by the wallet process: the cash-outs it pays
// include the 50 the hand moved, which it could not pay had it not posted
// the settlement.
TEST_F(TableProcessesTest, APokerHandInATableProcessIsSettledByTheWallet) {
  StartWalletAndTables();
  ASSERT_FALSE(HasFatalFailure());
  FundPlayer(*wallet_, "ana", kFunds);
  FundPlayer(*wallet_, "bob", kFunds);
  v1::CreateTableRequest create;
  create.set_request_id("create-p1");
  create.set_table_id("p1");
  create.set_name("p1");
  v1::PokerTableConfig* c = create.mutable_config();
  c->set_variant(v1::POKER_VARIANT_HOLDEM);
  c->set_small_blind_minor(50);
  c->set_big_blind_minor(100);
  c->set_buy_in_min_minor(5'000);
  c->set_buy_in_max_minor(20'000);
  c->set_hand_interval_ms(1'000);
  v1::TableInfo info;
  grpc::Status s =
      poker_->CreateTable(As(Role::kOperator, "op").get(), create, &info);
  ASSERT_TRUE(s.ok()) << s.error_message();
  int seat = 0;
  for (const std::string player : {"ana", "bob"}) {
    v1::SitRequest sit;
    sit.set_request_id("sit-" + player);
    sit.set_table_id("p1");
    sit.set_seat(++seat);
    sit.set_buy_in_minor(kBuyIn);
    v1::SeatResponse out;
    s = poker_->Sit(As(Role::kPlayer, player).get(), sit, &out);
    ASSERT_TRUE(s.ok()) << player << ": " << s.error_message();
    EXPECT_EQ(out.stack_minor(), kBuyIn);
  }
  ExpectCash("ana", kFunds - kBuyIn);
  ExpectCash("bob", kFunds - kBuyIn);
  // The first hand, dealt by the table process's timer.
  v1::TableView view;
  const absl::Time give_up = absl::Now() + absl::Seconds(30);
  do {
    view = PokerView("p1");
  } while (!(view.in_hand() && view.to_act() > 0) && absl::Now() < give_up &&
           (absl::SleepFor(absl::Milliseconds(20)), true));
  ASSERT_TRUE(view.in_hand() && view.to_act() > 0) << view.DebugString();
  std::string folder;
  for (const v1::SeatState& st : view.seats()) {
    if (st.seat() == view.to_act()) folder = st.player_id();
  }
  ASSERT_FALSE(folder.empty());
  const std::string winner = folder == "ana" ? "bob" : "ana";
  v1::ActRequest act;
  act.set_request_id("fold-1");
  act.set_table_id("p1");
  act.set_hand_number(view.hand_number());
  act.set_action(v1::POKER_ACTION_TYPE_FOLD);
  v1::TableView after;
  s = poker_->Act(As(Role::kPlayer, folder).get(), act, &after);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_FALSE(after.in_hand());
  // Both leave before the next hand is due.
  std::map<std::string, int64_t> cashed;
  for (const std::string& player : {folder, winner}) {
    v1::LeaveRequest leave;
    leave.set_request_id("leave-" + player);
    leave.set_table_id("p1");
    v1::LeaveResponse out;
    s = poker_->Leave(As(Role::kPlayer, player).get(), leave, &out);
    ASSERT_TRUE(s.ok()) << player << ": " << s.error_message();
    ASSERT_TRUE(out.left()) << player;
    cashed[player] = out.cashed_out_minor();
  }
  EXPECT_EQ(cashed[folder], kBuyIn - 50);
  EXPECT_EQ(cashed[winner], kBuyIn + 50);
  ExpectCash(folder, kFunds - 50);
  ExpectCash(winner, kFunds + 50);

  StopServeChild(tables_child_, SIGTERM);
  tables_child_.pid = -1;
  StopServeChild(wallet_child_, SIGTERM);
  wallet_child_.pid = -1;
  // The auditor reads the broker's topics (the wallet's data directory
  // holds its projection): every request carried out once, the sum 0.
  auto report = audit::VerifyDataDir(dir_ + "/wallet", spec_);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << audit::FormatAuditReport(*report);
  EXPECT_EQ(report->ledger.sum, 0);
  EXPECT_EQ(report->poker.buy_ins, 2);
  EXPECT_EQ(report->poker.settlements, 1);
  EXPECT_EQ(report->poker.cash_outs, 2);
}

// A roulette wheel of the player's own, launched by the player: the stake
// is taken and the round settled by the wallet process.
TEST_F(TableProcessesTest, ARouletteRoundInATableProcessIsSettledByTheWallet) {
  StartWalletAndTables();
  ASSERT_FALSE(HasFatalFailure());
  FundPlayer(*wallet_, "ana", kFunds);
  v1::CreateBankedTableRequest create;
  create.set_request_id("create-r1");
  create.set_table_id("r1");
  create.set_name("r1");
  create.set_game(v1::BANKED_GAME_ROULETTE_FRENCH);
  create.mutable_roulette()->set_individual(true);
  create.mutable_roulette()->set_player_launches(true);
  v1::BankedTableInfo info;
  grpc::Status s =
      banked_->CreateTable(As(Role::kOperator, "op").get(), create, &info);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::JoinBankedTableRequest join;
  join.set_request_id("join-ana");
  join.set_table_id("r1");
  v1::BankedTableView view;
  s = banked_->Join(As(Role::kPlayer, "ana").get(), join, &view);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::PlaceBankedBetRequest bet;
  bet.set_request_id("bet-1");
  bet.set_table_id("r1");
  bet.set_round(view.round());
  bet.set_amount_minor(1'000);
  bet.mutable_roulette()->set_kind("red");
  s = banked_->PlaceBet(As(Role::kPlayer, "ana").get(), bet, &view);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ExpectCash("ana", kFunds - 1'000);  // the stake, taken by the wallet
  v1::LaunchRequest launch;
  launch.set_request_id("launch-1");
  launch.set_table_id("r1");
  launch.set_round(bet.round());
  s = banked_->Launch(As(Role::kPlayer, "ana").get(), launch, &view);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::GetBankedTableRequest req;
  req.set_table_id("r1");
  v1::BankedRoundRecord round;
  s = banked_->GetLastRound(As(Role::kPlayer, "ana").get(), req, &round);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(round.round(), bet.round());
  EXPECT_EQ(round.staked_minor(), 1'000);
  ExpectCash("ana", kFunds - 1'000 + round.returned_minor());

  StopServeChild(tables_child_, SIGTERM);
  tables_child_.pid = -1;
  StopServeChild(wallet_child_, SIGTERM);
  wallet_child_.pid = -1;
  auto report = audit::VerifyDataDir(dir_ + "/wallet", spec_);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << audit::FormatAuditReport(*report);
  EXPECT_EQ(report->ledger.sum, 0);
}

// The tournaments and reporting each in a process of their own beside the
// wallet: a registration's payment and the refund of its unregistration
// are carried out by the wallet process, and the reporting process, which
// follows the topics into its own projections, shows them in the
// player's statement.
TEST_F(TableProcessesTest, TournamentAndReportingProcessesWorkBesideTheWallet) {
  for (const char* sub : {"/wallet", "/tournaments", "/reporting"}) {
    std::filesystem::create_directories(dir_ + sub);
  }
  wallet_child_ = StartServeChild(dir_ + "/wallet",
                                  {"--log=" + spec_, "--services=wallet"});
  ASSERT_GT(wallet_child_.port, 0);
  wallet_ = ConnectWallet(wallet_child_.port);
  tables_child_ = StartServeChild(dir_ + "/tournaments",
                                  {"--log=" + spec_, "--services=tournament"});
  ASSERT_GT(tables_child_.port, 0);
  ServeChild reporting = StartServeChild(
      dir_ + "/reporting", {"--log=" + spec_, "--services=reporting"});
  ASSERT_GT(reporting.port, 0);
  FundPlayer(*wallet_, "ana", kFunds);
  auto tournaments =
      v1::TournamentService::NewStub(Channel(tables_child_.port));
  v1::CreateTournamentRequest create;
  create.set_request_id("create-tn1");
  create.set_tournament_id("tn1");
  create.set_name("tn1");
  create.mutable_config()->set_buy_in_minor(1'000);
  create.mutable_config()->set_fee_bps(1'000);
  create.mutable_config()->add_payouts_bps(10'000);
  v1::TournamentInfo info;
  grpc::Status s = tournaments->CreateTournament(
      As(Role::kOperator, "op").get(), create, &info);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::PlayerTournamentRequest reg;
  reg.set_request_id("reg-ana");
  reg.set_tournament_id("tn1");
  s = tournaments->Register(As(Role::kPlayer, "ana").get(), reg, &info);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ExpectCash("ana", kFunds - 1'000);
  reg.set_request_id("unreg-ana");
  s = tournaments->Unregister(As(Role::kPlayer, "ana").get(), reg, &info);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ExpectCash("ana", kFunds);
  // The deposit, the entry and its refund, in the reporting process.
  auto reports = v1::ReportingService::NewStub(Channel(reporting.port));
  v1::StatementRequest statement;
  statement.set_player_id("ana");
  v1::StatementPage page;
  const absl::Time give_up = absl::Now() + absl::Seconds(60);
  do {
    s = reports->GetStatement(As(Role::kPlayer, "ana").get(), statement, &page);
  } while ((!s.ok() || page.entries_size() < 3) && absl::Now() < give_up &&
           (absl::SleepFor(absl::Milliseconds(100)), true));
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(page.entries_size(), 3) << page.DebugString();
  StopServeChild(reporting, SIGTERM);
  StopServeChild(tables_child_, SIGTERM);
  tables_child_.pid = -1;
  StopServeChild(wallet_child_, SIGTERM);
  wallet_child_.pid = -1;
  auto report = audit::VerifyDataDir(dir_ + "/wallet", spec_);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << audit::FormatAuditReport(*report);
  EXPECT_EQ(report->ledger.sum, 0);
}

constexpr char kPokerGroup[] = "tables.banca.table.events";

// "0,1,2" as a set.
std::set<int> PartitionSet(const std::optional<std::string>& listed) {
  std::set<int> out;
  if (!listed) return out;
  for (absl::string_view p : absl::StrSplit(*listed, ',', absl::SkipEmpty())) {
    out.insert(std::stoi(std::string(p)));
  }
  return out;
}

// A poker table's id whose partition is in `owned`.
std::string TableOn(const std::set<int>& owned, const std::string& prefix) {
  for (int i = 0; i < 1'000; ++i) {
    const std::string id = absl::StrCat(prefix, i);
    if (owned.contains(eventlog::PartitionForKey("table/" + id, 8))) return id;
  }
  return "";
}

v1::CreateTableRequest Holdem(const std::string& id) {
  v1::CreateTableRequest create;
  create.set_request_id("create-" + id);
  create.set_table_id(id);
  create.set_name(id);
  v1::PokerTableConfig* c = create.mutable_config();
  c->set_variant(v1::POKER_VARIANT_HOLDEM);
  c->set_small_blind_minor(50);
  c->set_big_blind_minor(100);
  c->set_buy_in_min_minor(5'000);
  c->set_buy_in_max_minor(20'000);
  // No hand in the test's time: the seats only.
  c->set_hand_interval_ms(60'000);
  return create;
}

// The route a refusal named: its trailing metadata banca-owner ("" none).
std::string OwnerOf(const grpc::ClientContext& ctx) {
  const auto& trailing = ctx.GetServerTrailingMetadata();
  auto it = trailing.find("banca-owner");
  return it == trailing.end()
             ? ""
             : std::string(it->second.data(), it->second.size());
}

// Two table processes of one --table-group (a and b), each on a port of
// the test's choosing which it advertises.
class TableGroupProcessesTest : public TableProcessesTest {
 protected:
  void TearDown() override {
    if (a_.pid > 0) StopServeChild(a_, SIGKILL);
    a_.pid = -1;
    TableProcessesTest::TearDown();
  }

  void StartGroup(const std::string& spec) {
    port_a_ = FreePort();
    port_b_ = FreePort();
    while (port_b_ == port_a_) port_b_ = FreePort();
    auto flags = [&](int port) {
      return std::vector<std::string>{
          "--log=" + spec,
          "--services=table",
          "--table-group=tables",
          "--table-session-timeout-ms=6000",
          absl::StrCat("--grpc-port=", port),
          absl::StrCat("--advertise-address=127.0.0.1:", port),
          "--deck-key-file=" + deck_key_};
    };
    std::filesystem::create_directories(dir_ + "/a");
    std::filesystem::create_directories(dir_ + "/b");
    // Every host of a table opens its sealed decks: one key for the group.
    deck_key_ = dir_ + "/deck.key";
    std::ofstream(deck_key_) << TestDeckKeyHex() << "\n";
    a_ = StartServeChild(dir_ + "/a", flags(port_a_));
    tables_child_ = StartServeChild(dir_ + "/b", flags(port_b_));
    ASSERT_TRUE(a_.port == port_a_ && tables_child_.port == port_b_);
    const absl::Time split_by = absl::Now() + absl::Seconds(60);
    while (absl::Now() < split_by) {
      owned_a_ = PartitionSet(AssignedPartitions(
          dir_ + "/a", "table partitions assigned", kPokerGroup));
      owned_b_ = PartitionSet(AssignedPartitions(
          dir_ + "/b", "table partitions assigned", kPokerGroup));
      if (!owned_a_.empty() && !owned_b_.empty() &&
          owned_a_.size() + owned_b_.size() == 8) {
        break;
      }
      absl::SleepFor(absl::Milliseconds(50));
    }
    ASSERT_FALSE(owned_a_.empty() || owned_b_.empty())
        << "the two table processes never split the partitions";
    on_a_ = TableOn(owned_a_, "ta");
    on_b_ = TableOn(owned_b_, "tb");
    poker_a_ = v1::TableService::NewStub(Channel(port_a_));
    poker_b_ = v1::TableService::NewStub(Channel(port_b_));
  }

  // b's answer to GetTableView of a's table, retried until b names a as
  // its owner (a announces itself once it has its partitions).
  std::string RouteAtB() {
    v1::WatchTableRequest req;
    req.set_table_id(on_a_);
    v1::TableView view;
    std::string route;
    const absl::Time give_up = absl::Now() + absl::Seconds(30);
    while (route.empty() && absl::Now() < give_up) {
      auto ctx = As(Role::kPlayer, "ana");
      const grpc::Status s = poker_b_->GetTableView(ctx.get(), req, &view);
      EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE)
          << s.error_message();
      route = OwnerOf(*ctx);
      if (route.empty()) absl::SleepFor(absl::Milliseconds(50));
    }
    return route;
  }

  // Lets the frozen a go on and waits until the group has settled again;
  // `*owner` is then the address of whichever process decides for a's
  // table (its view showing no seat). a may have stopped on a fenced
  // append (SIGABRT, the only way it may stop) or rejoined.
  void ThawA(const std::string& route, std::string* owner) {
    kill(a_.pid, SIGCONT);
    int status = 0;
    bool exited = false;
    const absl::Time rejoined_by = absl::Now() + absl::Seconds(90);
    while (
        absl::Now() < rejoined_by &&
        !(exited = waitpid(a_.pid, &status, WNOHANG) == a_.pid) &&
        PartitionSet(AssignedPartitions(
                         dir_ + "/b", "table partitions assigned", kPokerGroup))
                .size() == 8) {
      absl::SleepFor(absl::Milliseconds(50));
    }
    v1::WatchTableRequest req;
    req.set_table_id(on_a_);
    v1::TableView view;
    grpc::Status s;
    const absl::Time settled_by = absl::Now() + absl::Seconds(60);
    do {
      auto ctx = As(Role::kAuditor, "aud");
      s = poker_b_->GetTableView(ctx.get(), req, &view);
      *owner = s.ok() ? absl::StrCat("127.0.0.1:", port_b_) : OwnerOf(*ctx);
      if (!s.ok() && *owner == route) {
        s = poker_a_->GetTableView(As(Role::kAuditor, "aud").get(), req, &view);
      }
    } while (!s.ok() && absl::Now() < settled_by &&
             (absl::SleepFor(absl::Milliseconds(100)), true));
    std::cerr << "after the thaw " << *owner << " decides for " << on_a_
              << "; a (127.0.0.1:" << port_a_ << ") "
              << (!exited ? std::string("rejoined")
                  : WIFSIGNALED(status)
                      ? absl::StrCat("stopped by signal ", WTERMSIG(status))
                      : absl::StrCat("exited ", WEXITSTATUS(status)))
              << "\n";
    if (exited) {
      EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT)
          << "a stopped otherwise: see " << dir_ << "/a/serve.stderr";
      close(a_.stdout_fd);
      a_.pid = -1;
    }
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(view.seats_size(), 0) << *owner << ": " << view.DebugString();
  }

  // `player` sits at a's table through `owner` and leaves again; the
  // wallet takes the buy-in and pays it back.
  void SitAndLeaveAt(const std::string& owner, const std::string& player,
                     const std::string& tag) {
    auto deciding = v1::TableService::NewStub(Channel(owner));
    v1::SitRequest sit;
    sit.set_request_id(absl::StrCat("sit-", player, "-", tag));
    sit.set_table_id(on_a_);
    sit.set_seat(3);
    sit.set_buy_in_minor(kBuyIn);
    v1::SeatResponse seated;
    grpc::Status s =
        deciding->Sit(As(Role::kPlayer, player).get(), sit, &seated);
    ASSERT_TRUE(s.ok()) << owner << ": " << s.error_message();
    ExpectCash(player, kFunds - kBuyIn);
    v1::LeaveRequest leave;
    leave.set_request_id(absl::StrCat("leave-", player, "-", tag));
    leave.set_table_id(on_a_);
    v1::LeaveResponse left;
    s = deciding->Leave(As(Role::kPlayer, player).get(), leave, &left);
    ASSERT_TRUE(s.ok()) << owner << ": " << s.error_message();
    ExpectCash(player, kFunds);
  }

  // With the table processes stopped: a fresh one replays every table's
  // stream (a gap or a repeat stops its replay) and shows a's table empty;
  // then the audit of the topics, with `buy_ins` buy-ins and as many
  // cash-outs.
  void ReplayAndAudit(const std::string& spec, int64_t buy_ins) {
    if (a_.pid > 0) StopServeChild(a_, SIGKILL);
    a_.pid = -1;
    tables_child_ = StartServeChild(
        dir_ + "/c",
        {"--log=" + spec, "--services=table", "--deck-key-file=" + deck_key_});
    ASSERT_GT(tables_child_.port, 0);
    poker_ = v1::TableService::NewStub(Channel(tables_child_.port));
    const v1::TableView view = PokerView(on_a_);
    EXPECT_EQ(view.seats_size(), 0) << view.DebugString();
    StopServeChild(tables_child_, SIGTERM);
    tables_child_.pid = -1;
    StopServeChild(wallet_child_, SIGTERM);
    wallet_child_.pid = -1;
    auto report = audit::VerifyDataDir(dir_ + "/wallet", spec_);
    ASSERT_TRUE(report.ok()) << report.status();
    EXPECT_TRUE(report->ok()) << audit::FormatAuditReport(*report);
    EXPECT_EQ(report->ledger.sum, 0);
    EXPECT_EQ(report->poker.buy_ins, buy_ins);
    EXPECT_EQ(report->poker.cash_outs, buy_ins);
  }

  ServeChild a_;
  std::string deck_key_;
  int port_a_ = 0, port_b_ = 0;
  std::set<int> owned_a_, owned_b_;
  std::string on_a_, on_b_;
  std::unique_ptr<v1::TableService::Stub> poker_a_, poker_b_;
};

// Beside the wallet, a and b split the poker topic's partitions. A call
// for a table at the process that does not decide for it is UNAVAILABLE
// and names the one that does (the trailing metadata banca-owner), which
// the client follows. a is frozen (SIGSTOP) with players seated at its
// table: b takes the partition over once the group presumes a dead,
// follows the table and lets the players leave (the wallet pays them).
// a thaws and rejoins; whoever then decides for the table has followed
// b's decisions there. A fresh process replays the tables' topic (a
// repeated or missing event of a table stops its replay) and the audit of
// the topics balances.
TEST_F(TableGroupProcessesTest, SplitRouteAndTakeOver) {
  const std::string spec =
      spec_ + "?transaction_timeout_ms=5000&socket.timeout.ms=5000";
  std::filesystem::create_directories(dir_ + "/wallet");
  std::filesystem::create_directories(dir_ + "/c");
  wallet_child_ =
      StartServeChild(dir_ + "/wallet", {"--log=" + spec, "--services=wallet"});
  ASSERT_GT(wallet_child_.port, 0);
  wallet_ = ConnectWallet(wallet_child_.port);
  StartGroup(spec);
  ASSERT_FALSE(HasFatalFailure());

  // The wrong process refuses, naming the right one; the client follows.
  const std::string route = RouteAtB();
  ASSERT_EQ(route, absl::StrCat("127.0.0.1:", port_a_));
  v1::TableInfo info;
  {
    auto ctx = As(Role::kOperator, "op");
    const grpc::Status s =
        poker_b_->CreateTable(ctx.get(), Holdem(on_a_), &info);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE)
        << s.error_message();
    EXPECT_NE(s.error_message().find("decided by another process"),
              std::string::npos)
        << s.error_message();
    EXPECT_EQ(OwnerOf(*ctx), route);
  }
  auto routed = v1::TableService::NewStub(Channel(route));
  grpc::Status s = routed->CreateTable(As(Role::kOperator, "op").get(),
                                       Holdem(on_a_), &info);
  ASSERT_TRUE(s.ok()) << s.error_message();
  s = poker_b_->CreateTable(As(Role::kOperator, "op").get(), Holdem(on_b_),
                            &info);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::ListTablesResponse listed;
  ASSERT_TRUE(poker_b_
                  ->ListTables(As(Role::kAuditor, "aud").get(),
                               v1::ListTablesRequest(), &listed)
                  .ok());
  ASSERT_EQ(listed.tables_size(), 1);
  EXPECT_EQ(listed.tables(0).table_id(), on_b_);

  // Players sit at a's table.
  FundPlayer(*wallet_, "ana", kFunds);
  FundPlayer(*wallet_, "bob", kFunds);
  int seat = 0;
  for (const std::string player : {"ana", "bob"}) {
    v1::SitRequest sit;
    sit.set_request_id("sit-" + player);
    sit.set_table_id(on_a_);
    sit.set_seat(++seat);
    sit.set_buy_in_minor(kBuyIn);
    v1::SeatResponse out;
    s = routed->Sit(As(Role::kPlayer, player).get(), sit, &out);
    ASSERT_TRUE(s.ok()) << player << ": " << s.error_message();
  }
  ExpectCash("ana", kFunds - kBuyIn);

  // a freezes; b takes everything over and decides at a's table.
  kill(a_.pid, SIGSTOP);
  const absl::Time taken_by = absl::Now() + absl::Seconds(90);
  while (
      PartitionSet(AssignedPartitions(dir_ + "/b", "table partitions assigned",
                                      kPokerGroup))
              .size() != 8 &&
      absl::Now() < taken_by) {
    absl::SleepFor(absl::Milliseconds(50));
  }
  v1::WatchTableRequest view_req;
  view_req.set_table_id(on_a_);
  v1::TableView view;
  s = poker_b_->GetTableView(As(Role::kAuditor, "aud").get(), view_req, &view);
  ASSERT_TRUE(s.ok()) << "b never took a's table over: " << s.error_message();
  EXPECT_EQ(view.seats_size(), 2) << view.DebugString();
  for (const std::string player : {"ana", "bob"}) {
    v1::LeaveRequest leave;
    leave.set_request_id("leave-" + player);
    leave.set_table_id(on_a_);
    v1::LeaveResponse out;
    s = poker_b_->Leave(As(Role::kPlayer, player).get(), leave, &out);
    ASSERT_TRUE(s.ok()) << player << ": " << s.error_message();
    EXPECT_TRUE(out.left());
    EXPECT_EQ(out.cashed_out_minor(), kBuyIn);
  }
  ExpectCash("ana", kFunds);
  ExpectCash("bob", kFunds);

  // a thaws: a zombie until it polls (an append of its would be fenced,
  // which stops it), then a member again. Whoever decides for the table
  // now has followed what b decided there: no seat is taken, and ana sits
  // and leaves once more, through the route.
  std::string owner;
  ThawA(route, &owner);
  ASSERT_FALSE(HasFatalFailure());
  SitAndLeaveAt(owner, "ana", "again");
  ASSERT_FALSE(HasFatalFailure());
  StopServeChild(tables_child_, SIGTERM);
  tables_child_.pid = -1;
  ReplayAndAudit(spec, /*buy_ins=*/3);
}

// The route as an attacker meets it: a call for another process's table
// without a token is UNAUTHENTICATED and names no owner; with the wrong
// role PERMISSION_DENIED and no owner; a malformed or oversize id
// INVALID_ARGUMENT; an unknown table on this process's partition
// NOT_FOUND; nothing of it lists a table.
TEST_F(TableGroupProcessesTest, TheRouteRefusesWhatItMust) {
  StartGroup(spec_);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(RouteAtB(), absl::StrCat("127.0.0.1:", port_a_));
  {
    grpc::ClientContext none;
    v1::TableInfo info;
    EXPECT_EQ(poker_b_->CreateTable(&none, Holdem(on_a_), &info).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(OwnerOf(none), "");
  }
  {
    v1::TableInfo info;
    auto ctx = As(Role::kPlayer, "ana");
    EXPECT_EQ(
        poker_b_->CreateTable(ctx.get(), Holdem(on_a_), &info).error_code(),
        grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_EQ(OwnerOf(*ctx), "");
  }
  v1::TableView view;
  for (const std::string& bad : {std::string("UPPER"), std::string(33, 'a'),
                                 std::string(1'000'000, 'a')}) {
    v1::WatchTableRequest r;
    r.set_table_id(bad);
    auto ctx = As(Role::kPlayer, "ana");
    EXPECT_EQ(poker_b_->GetTableView(ctx.get(), r, &view).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT)
        << bad.size();
    EXPECT_EQ(OwnerOf(*ctx), "");
  }
  v1::WatchTableRequest req;
  req.set_table_id(on_b_);
  EXPECT_EQ(poker_b_->GetTableView(As(Role::kPlayer, "ana").get(), req, &view)
                .error_code(),
            grpc::StatusCode::NOT_FOUND);
  v1::ListTablesResponse listed;
  ASSERT_TRUE(poker_b_
                  ->ListTables(As(Role::kAuditor, "aud").get(),
                               v1::ListTablesRequest(), &listed)
                  .ok());
  EXPECT_EQ(listed.tables_size(), 0);
}

}  // namespace
}  // namespace banca::testing
