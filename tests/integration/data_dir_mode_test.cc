// Data files are private (issue 17 item 6; docs/security.md "Tables and
// hidden cards"): everything a real `banca serve` creates under its data
// directory (the log with its decks and shoes, the RocksDB projections,
// the offsets, the lock) is mode 0600, every directory 0700.
#include <sys/stat.h>

#include <filesystem>
#include <memory>
#include <string>

#include "banca/v1/table.grpc.pb.h"
#include "tests/integration/serve_child.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

// Before, banca kept the process's umask (022 on most systems) and the
// embedded log asked for 0644 files and 0755 directories: any local user
// could read every hand's deck from the log segments and every balance
// from the projections.
TEST(DataDirMode, ServeCreatesOnlyPrivateFilesAndDirectories) {
  const std::string dir = FreshDir("data_dir_mode");
  const std::string data = dir + "/data";  // banca serve creates it
  ServeChild child =
      StartServeChild(dir, {"--data-dir=" + data, "--services=wallet,table",
                            "--token-key-file=" + WriteTestKeyFile(dir)});
  ASSERT_GT(child.port, 0);
  // Some of everything: a deposit (the wallet's topic and projection), a
  // table, a seat (the table's topic, the wallet's table-request reader
  // and its offsets).
  std::unique_ptr<v1::WalletService::Stub> wallet = ConnectWallet(child.port);
  v1::OpenAccountRequest open;
  open.set_request_id("open-ana");
  open.set_player_id("ana");
  v1::AccountResponse account;
  grpc::ClientContext c1;
  ASSERT_TRUE(wallet->OpenAccount(&c1, open, &account).ok());
  v1::DepositRequest dep;
  dep.set_request_id("dep-ana");
  dep.set_player_id("ana");
  dep.set_amount_minor(50'000);
  dep.set_payment_ref("psp-ana");
  v1::TransactionResponse tx;
  grpc::ClientContext c2;
  ASSERT_TRUE(wallet->Deposit(&c2, dep, &tx).ok());
  auto tables = v1::TableService::NewStub(
      grpc::CreateChannel(absl::StrCat("127.0.0.1:", child.port),
                          grpc::InsecureChannelCredentials()));
  auto as = [](auth::Role role, const std::string& name) {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->AddMetadata("authorization", "Bearer " + TestToken(role, name));
    return ctx;
  };
  v1::CreateTableRequest create;
  create.set_request_id("create-t1");
  create.set_table_id("t1");
  create.mutable_config()->set_variant(v1::POKER_VARIANT_HOLDEM);
  create.mutable_config()->set_small_blind_minor(50);
  create.mutable_config()->set_big_blind_minor(100);
  create.mutable_config()->set_buy_in_min_minor(5'000);
  create.mutable_config()->set_buy_in_max_minor(20'000);
  v1::TableInfo info;
  ASSERT_TRUE(
      tables->CreateTable(as(auth::Role::kOperator, "op").get(), create, &info)
          .ok());
  v1::SitRequest sit;
  sit.set_request_id("sit-ana");
  sit.set_table_id("t1");
  sit.set_seat(1);
  sit.set_buy_in_minor(10'000);
  v1::SeatResponse seat;
  const grpc::Status sat =
      tables->Sit(as(auth::Role::kPlayer, "ana").get(), sit, &seat);
  ASSERT_TRUE(sat.ok()) << sat.error_message();
  StopServeChild(child, SIGTERM);

  int files = 0;
  int dirs = 0;
  auto expect_mode = [](const std::filesystem::path& p, mode_t want) {
    struct stat st;
    ASSERT_EQ(::lstat(p.c_str(), &st), 0) << p;
    EXPECT_EQ(st.st_mode & 07777, want)
        << p << " is " << std::oct << (st.st_mode & 07777);
  };
  expect_mode(data, 0700);
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(data)) {
    if (entry.is_symlink()) {
      ADD_FAILURE() << entry.path() << " is a symbolic link";
    } else if (entry.is_directory()) {
      expect_mode(entry.path(), 0700);
      ++dirs;
    } else {
      expect_mode(entry.path(), 0600);
      ++files;
    }
  }
  // The walk saw the log and the projections, not an empty directory.
  EXPECT_GE(dirs, 2);
  EXPECT_GE(files, 5);
  EXPECT_TRUE(std::filesystem::exists(data + "/log/LOCK"));
}

}  // namespace
}  // namespace banca::testing
