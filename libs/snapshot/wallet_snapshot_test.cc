#include "libs/snapshot/wallet_snapshot.h"

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <memory>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/ledger/account.h"
#include "libs/snapshot/snapshot_file.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"

namespace banca::snapshot {
namespace {

std::string TempDir(const std::string& name) {
  const std::string dir = absl::StrCat(::testing::TempDir(), "/wallet_snap_",
                                       name, "_", ::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// A log of real wallet events, decided by a ledger as the wallet does.
class WalletLog {
 public:
  explicit WalletLog(const std::string& dir)
      : log_(*eventlog::OpenEmbeddedLog(dir)) {
    EXPECT_TRUE(log_->EnsureTopic({std::string(wire::kWalletTopic), 4}).ok());
  }
  eventlog::EventLog& log() { return *log_; }

  // `players` accounts opened, then `rounds` deposits and holds.
  void Write(int players, int rounds) {
    for (int p = 0; p < players; ++p) {
      Commit(ledger_.OpenAccount(Meta(), absl::StrCat("p", opened_++), "EUR",
                                 Sink()));
    }
    for (int r = 0; r < rounds; ++r) {
      const std::string player = absl::StrCat("p", (r * 7) % opened_);
      v1::LedgerTransaction tx;
      tx.set_reason(v1::POSTING_REASON_DEPOSIT);
      tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
      tx.mutable_reference()->set_id(absl::StrCat("pay-", n_));
      auto* a = tx.add_postings();
      a->set_account("external/payments");
      a->set_amount_minor(-500);
      auto* b = tx.add_postings();
      b->set_account(ledger::PlayerCashAccount(player));
      b->set_amount_minor(500);
      Commit(ledger_.Post(Meta(), ledger::PlayerOwner(player), tx, Sink()));
      v1::Reference table;
      table.set_kind(v1::REFERENCE_KIND_TABLE);
      table.set_id("t1");
      Commit(ledger_.PlaceHold(Meta(), player, 100, v1::POSTING_REASON_BUY_IN,
                               table, 0, Sink()));
    }
    if (pending_.empty()) return;
    ASSERT_TRUE(log_->Append(std::move(pending_)).ok());
    pending_.clear();
  }

 private:
  ledger::CommandMeta Meta() { return {absl::StrCat("req-", ++n_), "fp"}; }
  std::function<void(const ledger::Committed&)> Sink() {
    return [this](const ledger::Committed& c) {
      wire::WalletEventContext context;
      context.occurred_at_micros = ++n_;
      pending_.push_back(wire::EncodeWalletRecord(c, context));
    };
  }
  void Commit(const absl::Status& s) { EXPECT_TRUE(s.ok()) << s; }

  std::unique_ptr<eventlog::EventLog> log_;
  ledger::Ledger ledger_;
  std::vector<eventlog::Record> pending_;
  int opened_ = 0;
  int n_ = 0;
};

struct Wallet {
  ledger::Ledger ledger;
  ledger::IdempotencyIndex idempotency;
};

// A snapshot of `log` as it stands, in `dir`.
std::string Snapshot(eventlog::EventLog& log, const SnapshotDir& dir) {
  Wallet w;
  absl::StatusOr<WalletReplayed> replayed =
      ReplayWalletLog(log, {}, w.ledger, w.idempotency);
  EXPECT_TRUE(replayed.ok()) << replayed.status();
  WalletPoint point = CaptureWalletState(w.ledger, w.idempotency,
                                         [&] { return replayed->next; });
  absl::StatusOr<std::string> path = WriteWalletSnapshot(dir, log, point);
  EXPECT_TRUE(path.ok()) << path.status();
  return *path;
}

std::string FullReplayHash(eventlog::EventLog& log) {
  Wallet w;
  EXPECT_TRUE(ReplayWalletLog(log, {}, w.ledger, w.idempotency).ok());
  return WalletStateHash(w.ledger, w.idempotency);
}

TEST(WalletSnapshot, SnapshotAndTailEqualAFullReplay) {
  const std::string dir = TempDir("tail");
  WalletLog wallet(dir + "/log");
  wallet.Write(20, 300);
  SnapshotDir snapshots(dir + "/snapshots", "wallet");
  Snapshot(wallet.log(), snapshots);
  wallet.Write(5, 100);  // the tail

  Wallet w;
  absl::StatusOr<WalletSnapshotLoad> load =
      LoadWalletSnapshot(snapshots, wallet.log(), w.ledger, w.idempotency);
  ASSERT_TRUE(load.ok()) << load.status();
  EXPECT_FALSE(load->path.empty());
  EXPECT_EQ(load->events, 20 + 600);
  absl::StatusOr<WalletReplayed> tail =
      ReplayWalletLog(wallet.log(), load->next, w.ledger, w.idempotency);
  ASSERT_TRUE(tail.ok()) << tail.status();
  EXPECT_EQ(tail->events, 5 + 200);
  EXPECT_EQ(WalletStateHash(w.ledger, w.idempotency),
            FullReplayHash(wallet.log()));
  // A request of the snapshot is answered, one of the tail too.
  EXPECT_TRUE(w.idempotency.Find("req-1", "fp").has_value());
  EXPECT_EQ(w.idempotency.size(), 20u + 600u + 5u + 200u);
}

TEST(WalletSnapshot, ExportedStateImportsToTheSameHash) {
  const std::string dir = TempDir("import");
  WalletLog wallet(dir + "/log");
  wallet.Write(10, 50);
  Wallet a;
  ASSERT_TRUE(ReplayWalletLog(wallet.log(), {}, a.ledger, a.idempotency).ok());
  const WalletPoint point =
      CaptureWalletState(a.ledger, a.idempotency, [] { return LogOffsets{}; });
  Wallet b;
  ASSERT_TRUE(b.ledger.ImportState(point.state.ledger()).ok());
  for (const auto& e : point.state.requests()) {
    b.idempotency.Restore(e.request_id(),
                          absl::HexStringToBytes(e.fingerprint()), e.result(),
                          e.answered_at_micros());
  }
  EXPECT_EQ(WalletStateHash(a.ledger, a.idempotency),
            WalletStateHash(b.ledger, b.idempotency));
  EXPECT_TRUE(b.ledger.CheckReplayedState().ok());
  EXPECT_EQ(b.ledger.Summarize().transactions,
            a.ledger.Summarize().transactions);
  // Only into an empty ledger, and one that stripes alike.
  EXPECT_EQ(b.ledger.ImportState(point.state.ledger()).code(),
            absl::StatusCode::kFailedPrecondition);
  ledger::Ledger unstriped({.hot_stripes = 1});
  EXPECT_EQ(unstriped.ImportState(point.state.ledger()).code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(WalletSnapshot, ACorruptNewestFallsBackToThePrevious) {
  const std::string dir = TempDir("fallback");
  WalletLog wallet(dir + "/log");
  SnapshotDir snapshots(dir + "/snapshots", "wallet");
  wallet.Write(10, 50);
  const std::string older = Snapshot(wallet.log(), snapshots);
  wallet.Write(2, 20);
  const std::string newer = Snapshot(wallet.log(), snapshots);
  std::string bytes = *ReadWholeFile(newer);
  bytes[bytes.size() / 2] ^= 1;
  ASSERT_TRUE(WriteFileAtomically(newer, bytes).ok());

  Wallet w;
  absl::StatusOr<WalletSnapshotLoad> load =
      LoadWalletSnapshot(snapshots, wallet.log(), w.ledger, w.idempotency);
  ASSERT_TRUE(load.ok()) << load.status();
  EXPECT_EQ(load->path, older);
  ASSERT_EQ(load->refused.size(), 1u);
  EXPECT_NE(load->refused[0].find("checksum"), std::string::npos);
  ASSERT_TRUE(
      ReplayWalletLog(wallet.log(), load->next, w.ledger, w.idempotency).ok());
  EXPECT_EQ(WalletStateHash(w.ledger, w.idempotency),
            FullReplayHash(wallet.log()));
}

TEST(WalletSnapshot, TruncatedAndMissingFallBackToAFullReplay) {
  const std::string dir = TempDir("none");
  WalletLog wallet(dir + "/log");
  SnapshotDir snapshots(dir + "/snapshots", "wallet");
  Wallet empty;
  EXPECT_TRUE(LoadWalletSnapshot(snapshots, wallet.log(), empty.ledger,
                                 empty.idempotency)
                  ->path.empty());
  wallet.Write(10, 50);
  const std::string only = Snapshot(wallet.log(), snapshots);
  std::filesystem::resize_file(only, std::filesystem::file_size(only) - 10);
  Wallet w;
  absl::StatusOr<WalletSnapshotLoad> load =
      LoadWalletSnapshot(snapshots, wallet.log(), w.ledger, w.idempotency);
  ASSERT_TRUE(load.ok());
  EXPECT_TRUE(load->path.empty());
  ASSERT_EQ(load->refused.size(), 1u);
  EXPECT_NE(load->refused[0].find("truncated"), std::string::npos);
}

TEST(WalletSnapshot, OffsetsPastTheLogsEndAreRefused) {
  const std::string dir = TempDir("past_end");
  WalletLog longer(dir + "/long");
  longer.Write(10, 50);
  SnapshotDir snapshots(dir + "/snapshots", "wallet");
  Snapshot(longer.log(), snapshots);
  WalletLog shorter(dir + "/short");  // same events, fewer of them
  shorter.Write(10, 20);
  Wallet w;
  absl::StatusOr<WalletSnapshotLoad> load =
      LoadWalletSnapshot(snapshots, shorter.log(), w.ledger, w.idempotency);
  ASSERT_TRUE(load.ok());
  EXPECT_TRUE(load->path.empty());
  ASSERT_EQ(load->refused.size(), 1u);
  EXPECT_NE(load->refused[0].find("past the log's end"), std::string::npos);
}

TEST(WalletSnapshot, AnotherLogIsRefused) {
  const std::string dir = TempDir("other_log");
  WalletLog one(dir + "/one");
  one.Write(10, 50);
  SnapshotDir snapshots(dir + "/snapshots", "wallet");
  Snapshot(one.log(), snapshots);
  WalletLog other(dir + "/other");
  other.Write(11, 50);  // other records at the snapshot's offsets
  Wallet w;
  absl::StatusOr<WalletSnapshotLoad> load =
      LoadWalletSnapshot(snapshots, other.log(), w.ledger, w.idempotency);
  ASSERT_TRUE(load.ok());
  EXPECT_TRUE(load->path.empty());
  ASSERT_FALSE(load->refused.empty());
}

}  // namespace
}  // namespace banca::snapshot
