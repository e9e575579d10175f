// Issue 21: the tables in processes of their own, on a private Kafka
// broker. The wallet runs in one `banca serve --services=wallet` process,
// the tables in another (`--services=table`), each with its own data
// directory: they meet only on the broker's topics. A poker hand and a
// roulette round are played through the table process and their money is
// settled by the wallet process; the auditor's replay of the topics
// balances.
#include <signal.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "banca/v1/banked_table.grpc.pb.h"
#include "banca/v1/table.grpc.pb.h"
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

std::shared_ptr<grpc::Channel> Channel(int port) {
  return grpc::CreateChannel(absl::StrCat("127.0.0.1:", port),
                             grpc::InsecureChannelCredentials());
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

}  // namespace
}  // namespace banca::testing
