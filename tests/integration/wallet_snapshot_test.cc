// The wallet's snapshots end to end (issue 22, item 1): a wallet restarted
// from a snapshot and the log's tail holds the state a replay from offset 0
// holds (the same state hash), answers the retries of requests decided
// before the snapshot as it did, falls back from a damaged snapshot to the
// previous one, and the audit checks the snapshot against a full replay.
#include "libs/snapshot/wallet_snapshot.h"

#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/snapshot/snapshot_file.h"
#include "services/audit/audit.h"
#include "services/common/authorized_channel.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

wallet::WalletOptions SnapshotOptions(const std::string& dir) {
  wallet::WalletOptions options;
  options.verifier = TestVerifier();
  options.snapshot_dir = dir + "/snapshots/wallet";
  options.snapshot_every_events = 0;  // the test takes them
  return options;
}

std::unique_ptr<v1::WalletService::Stub> Stub(const std::string& target) {
  return v1::WalletService::NewStub(edge::AuthorizedChannel(
      target, *edge::BackOfficeTokens(TestSigningKey(), "test")));
}

v1::TransactionResponse Deposit(v1::WalletService::Stub& stub,
                                const std::string& rid,
                                const std::string& player, int64_t amount) {
  v1::DepositRequest deposit;
  deposit.set_request_id(rid);
  deposit.set_player_id(player);
  deposit.set_amount_minor(amount);
  deposit.set_payment_ref("psp-" + rid);
  v1::TransactionResponse tx;
  grpc::ClientContext ctx;
  const grpc::Status s = stub.Deposit(&ctx, deposit, &tx);
  EXPECT_TRUE(s.ok()) << rid << ": " << s.error_message();
  return tx;
}

std::string FullReplayHash(eventlog::EventLog& log) {
  ledger::Ledger ledger;
  ledger::IdempotencyIndex idempotency;
  EXPECT_TRUE(snapshot::ReplayWalletLog(log, {}, ledger, idempotency).ok());
  return snapshot::WalletStateHash(ledger, idempotency);
}

TEST(WalletSnapshot, RestartFromSnapshotAndTailEqualsAFullReplay) {
  const std::string dir = FreshDir("wallet_snapshot_restart");
  std::string before_snapshot_tx;
  std::string mid;
  {
    auto server = wallet::LocalWalletServer::Start(dir, SnapshotOptions(dir));
    ASSERT_TRUE(server.ok()) << server.status();
    auto stub = Stub((*server)->target());
    for (int p = 0; p < 12; ++p) FundPlayer(*stub, absl::StrCat("p", p), 900);
    before_snapshot_tx = Deposit(*stub, "early", "p3", 77).tx().tx_id();
    absl::StatusOr<std::string> taken = (*server)->wallet().TakeSnapshot();
    ASSERT_TRUE(taken.ok()) << taken.status();
    ASSERT_FALSE(taken->empty());
    mid = *taken;
    for (int n = 0; n < 30; ++n) {
      Deposit(*stub, absl::StrCat("late-", n), absl::StrCat("p", n % 12), 5);
    }
    stub.reset();
    ASSERT_TRUE((*server)->Stop().ok());  // writes the stop's snapshot
  }
  // The stop's snapshot is damaged: the start falls back to `mid`, and
  // replays the 30 deposits after it.
  snapshot::SnapshotDir snapshots(dir + "/snapshots/wallet", "wallet");
  const std::vector<std::string> listed = *snapshots.List();
  ASSERT_EQ(listed.size(), 2u);
  ASSERT_EQ(listed[1], mid);
  std::string bytes = *snapshot::ReadWholeFile(listed[0]);
  bytes[bytes.size() / 3] ^= 0x40;
  ASSERT_TRUE(snapshot::WriteFileAtomically(listed[0], bytes).ok());

  auto again = wallet::LocalWalletServer::Start(dir, SnapshotOptions(dir));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->wallet().replayed_events(), 30);
  EXPECT_EQ(snapshot::WalletStateHash((*again)->wallet().ledger(),
                                      (*again)->wallet().idempotency()),
            FullReplayHash((*again)->log()));
  // A retry of a request decided before the snapshot gets its answer.
  auto stub = Stub((*again)->target());
  EXPECT_EQ(Deposit(*stub, "early", "p3", 77).tx().tx_id(), before_snapshot_tx);
  EXPECT_EQ((*again)->wallet().ledger().Summarize().sum, 0);
  stub.reset();
  ASSERT_TRUE((*again)->Stop().ok());
  again->reset();

  auto audit = audit::VerifyDataDir(dir);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_TRUE(audit->ok()) << audit::FormatAuditReport(*audit);
  EXPECT_FALSE(audit->snapshot.path.empty());
  EXPECT_EQ(audit->snapshot.hash, audit->snapshot.full_replay_hash);
}

TEST(WalletSnapshot, NoSnapshotDirectoryReplaysFromOffsetZero) {
  const std::string dir = FreshDir("wallet_snapshot_none");
  {
    auto server = wallet::LocalWalletServer::Start(dir, SnapshotOptions(dir));
    ASSERT_TRUE(server.ok()) << server.status();
    auto stub = Stub((*server)->target());
    FundPlayer(*stub, "ana", 100);
    stub.reset();
    ASSERT_TRUE((*server)->Stop().ok());
  }
  std::filesystem::remove_all(dir + "/snapshots");
  auto again = wallet::LocalWalletServer::Start(dir, SnapshotOptions(dir));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->wallet().replayed_events(), 2);
  ASSERT_TRUE((*again)->Stop().ok());
}

// Issue 22, item 2: the answered requests in the wallet's answer store on
// disk, not in the snapshot.
wallet::WalletOptions StoreOptions(const std::string& dir) {
  wallet::WalletOptions options = SnapshotOptions(dir);
  options.answer_store_dir = dir + "/answers/wallet";
  return options;
}

v1::WalletState NewestSnapshotState(const std::string& dir) {
  snapshot::SnapshotDir snapshots(dir + "/snapshots/wallet", "wallet");
  const std::vector<std::string> listed = *snapshots.List();
  EXPECT_FALSE(listed.empty());
  v1::WalletState state;
  if (listed.empty()) return state;
  auto file =
      snapshot::DecodeSnapshot(*snapshot::ReadWholeFile(listed.front()));
  EXPECT_TRUE(file.ok()) << file.status();
  if (file.ok()) {
    EXPECT_TRUE(state.ParseFromString(file->payload));
  }
  return state;
}

TEST(WalletSnapshot, AnswersOnDiskAnswerRetriesAfterARestartFromASnapshot) {
  const std::string dir = FreshDir("wallet_snapshot_answer_store");
  std::string early_tx;
  {
    auto server = wallet::LocalWalletServer::Start(dir, StoreOptions(dir));
    ASSERT_TRUE(server.ok()) << server.status();
    auto stub = Stub((*server)->target());
    for (int p = 0; p < 5; ++p) FundPlayer(*stub, absl::StrCat("p", p), 900);
    early_tx = Deposit(*stub, "early", "p3", 77).tx().tx_id();
    // Answered requests live in the store: the index holds none.
    EXPECT_EQ((*server)->wallet().idempotency().size(), 0u);
    stub.reset();
    ASSERT_TRUE((*server)->Stop().ok());  // writes the stop's snapshot
  }
  const v1::WalletState state = NewestSnapshotState(dir);
  EXPECT_EQ(state.requests_size(), 0);
  EXPECT_FALSE(state.answer_store_id().empty());
  {
    auto again = wallet::LocalWalletServer::Start(dir, StoreOptions(dir));
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ((*again)->wallet().replayed_events(), 0);
    auto stub = Stub((*again)->target());
    EXPECT_EQ(Deposit(*stub, "early", "p3", 77).tx().tx_id(), early_tx);
    stub.reset();
    ASSERT_TRUE((*again)->Stop().ok());
  }
  auto audit = audit::VerifyDataDir(dir);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_TRUE(audit->ok()) << audit::FormatAuditReport(*audit);
  EXPECT_EQ(audit->snapshot.hash, audit->snapshot.full_replay_hash);

  // The store lost (an operator removed it): the snapshot, sound only
  // beside it, is refused; the log is replayed from offset 0 and the
  // retry is still answered, not carried out again.
  std::filesystem::remove_all(dir + "/answers");
  auto lost = wallet::LocalWalletServer::Start(dir, StoreOptions(dir));
  ASSERT_TRUE(lost.ok()) << lost.status();
  EXPECT_GT((*lost)->wallet().replayed_events(), 10);
  auto stub = Stub((*lost)->target());
  EXPECT_EQ(Deposit(*stub, "early", "p3", 77).tx().tx_id(), early_tx);
  EXPECT_EQ((*lost)->wallet().ledger().Summarize().sum, 0);
  stub.reset();
  ASSERT_TRUE((*lost)->Stop().ok());
  lost->reset();  // its log closed

  // A wallet that keeps its answers in memory refuses such a snapshot too
  // (it would answer no retry from before it) and replays from offset 0.
  auto in_memory = wallet::LocalWalletServer::Start(dir, SnapshotOptions(dir));
  ASSERT_TRUE(in_memory.ok()) << in_memory.status();
  EXPECT_GT((*in_memory)->wallet().replayed_events(), 10);
  stub = Stub((*in_memory)->target());
  EXPECT_EQ(Deposit(*stub, "early", "p3", 77).tx().tx_id(), early_tx);
  stub.reset();
  ASSERT_TRUE((*in_memory)->Stop().ok());
}

}  // namespace
}  // namespace banca::testing
