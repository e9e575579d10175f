// `banca audit verify`'s library (audit.h) over a whole data directory: a
// wallet in USD with its live projection, audited as a read-only snapshot;
// its JSON; and `banca log tail`'s JSON (log_tail.h).
#include "services/audit/audit.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "libs/projection/wallet_projection.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "nlohmann/json.hpp"
#include "services/audit/log_tail.h"

namespace banca::audit {
namespace {

namespace fs = std::filesystem;

constexpr fs::perms kAllWrite =
    fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;

// A data directory as `banca serve --currency=USD` leaves it: the wallet's
// log and its live projection, caught up.
class AuditDataDirTest : public ::testing::Test {
 protected:
  auto Commit() {
    return [this](const ledger::Committed& c) {
      ASSERT_TRUE(log_->Append({wire::EncodeWalletRecord(c, {})}).ok());
    };
  }

  void SetUp() override {
    dir_ = absl::StrCat(
        ::testing::TempDir(), "/audit_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto log = eventlog::OpenEmbeddedLog(dir_ + "/log");
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
    ASSERT_TRUE(log_->EnsureTopic({std::string(wire::kWalletTopic), 2}).ok());
    ASSERT_TRUE(ledger_.OpenAccount(Meta(), "ana", "USD", Commit()).ok());
    v1::LedgerTransaction deposit;
    deposit.set_reason(v1::POSTING_REASON_DEPOSIT);
    deposit.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
    deposit.mutable_reference()->set_id("dep-1");
    Move(deposit, "external/payments", -1234);
    Move(deposit, ledger::PlayerCashAccount("ana"), 1234);
    ASSERT_TRUE(
        ledger_.Post(Meta(), ledger::PlayerOwner("ana"), deposit, Commit())
            .ok());
  }

  static void Move(v1::LedgerTransaction& tx, std::string account,
                   int64_t amount) {
    v1::Posting* p = tx.add_postings();
    p->set_account(std::move(account));
    p->set_amount_minor(amount);
  }

  ledger::CommandMeta Meta() { return {absl::StrCat("req-", ++requests_), ""}; }

  // The live projection caught up, and the log closed: the server stopped.
  void Stop() {
    fs::create_directories(dir_ + "/projections");
    auto store =
        projection::ProjectionStore::Open(dir_ + "/projections/wallet");
    ASSERT_TRUE(store.ok()) << store.status();
    projection::WalletProjector projector;
    ASSERT_TRUE(projection::CatchUp(*log_, **store, projector).ok());
    ASSERT_TRUE((*store)->Flush().ok());
    store->reset();
    log_.reset();
  }

  std::string dir_;
  std::unique_ptr<eventlog::EventLog> log_;
  ledger::Ledger ledger_{{.currency = "USD"}};
  int requests_ = 0;
};

// Every file and directory under `dir`: its size, time and bytes.
std::map<std::string, std::string> Snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir)) {
    struct stat st;
    EXPECT_EQ(lstat(e.path().c_str(), &st), 0) << e.path();
    std::string entry =
        absl::StrCat(st.st_mode, " ", st.st_size, " ", st.st_mtim.tv_sec, ".",
                     st.st_mtim.tv_nsec);
    if (e.is_regular_file()) {
      std::ifstream in(e.path(), std::ios::binary);
      std::ostringstream bytes;
      bytes << in.rdbuf();
      absl::StrAppend(&entry, " ", std::hash<std::string>()(bytes.str()));
    }
    out[e.path().string()] = std::move(entry);
  }
  struct stat st;
  EXPECT_EQ(stat(dir.c_str(), &st), 0);
  out[dir] = absl::StrCat(st.st_mtim.tv_sec, ".", st.st_mtim.tv_nsec);
  return out;
}

// Issue 20: the audit wrote a scratch directory inside the data directory
// (and opened the log and the projection for writing), so a read-only
// snapshot could not be audited. Now it changes nothing there. Tests may
// run as root, whom chmod does not stop: every file is compared too.
TEST_F(AuditDataDirTest, AuditsAReadOnlySnapshotWithoutChangingIt) {
  Stop();
  ASSERT_FALSE(HasFatalFailure());
  const std::map<std::string, std::string> before = Snapshot(dir_);
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir_)) {
    fs::permissions(e.path(), kAllWrite, fs::perm_options::remove);
  }
  fs::permissions(dir_, kAllWrite, fs::perm_options::remove);
  const std::map<std::string, std::string> read_only = Snapshot(dir_);

  absl::StatusOr<AuditReport> report = VerifyDataDir(dir_);

  EXPECT_EQ(Snapshot(dir_), read_only);
  fs::permissions(dir_, fs::perms::owner_write, fs::perm_options::add);
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir_)) {
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << ProblemLines(report->problems);
  EXPECT_EQ(report->live_hash, report->rebuilt_hash);
  EXPECT_EQ(report->projection_accounts_checked, 2);
  EXPECT_EQ(before.size(), read_only.size());
  EXPECT_FALSE(fs::exists(dir_ + "/audit-scratch"));
}

// The end of the wallet topic's range in an audit's report (both
// partitions).
int64_t WalletRange(const AuditReport& report) {
  int64_t n = 0;
  for (const AuditedPartition& a : report.range) {
    if (a.topic == wire::kWalletTopic) n += a.end;
  }
  return n;
}

// Issue 20, the live audit: the server keeps its log and its projection
// open (and locked) and keeps writing; each audit reads the range there
// was when it began, and is clean for it. Before, the audit could not
// open a log a server held.
TEST_F(AuditDataDirTest, AuditsBesideARunningServerWithAGrowingRange) {
  fs::create_directories(dir_ + "/projections");
  auto store = projection::ProjectionStore::Open(dir_ + "/projections/wallet");
  ASSERT_TRUE(store.ok()) << store.status();
  projection::WalletProjector projector;
  ASSERT_TRUE(projection::CatchUp(*log_, **store, projector).ok());
  ASSERT_TRUE((*store)->Flush().ok());

  std::vector<std::string> progress;
  AuditOptions options;
  options.progress = [&](const std::string& line) { progress.push_back(line); };
  absl::StatusOr<AuditReport> first = VerifyDataDir(dir_, options);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(first->ok()) << ProblemLines(first->problems);
  EXPECT_EQ(first->live_hash, first->rebuilt_hash);
  EXPECT_EQ(WalletRange(*first), 2);
  EXPECT_TRUE(progress.empty());  // a short audit prints no progress

  // More deposits while the projection is not flushed: the audit reads
  // the projection as of its last flush and rebuilds up to it.
  for (int i = 0; i < 3; ++i) {
    v1::LedgerTransaction deposit;
    deposit.set_reason(v1::POSTING_REASON_DEPOSIT);
    deposit.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
    deposit.mutable_reference()->set_id(absl::StrCat("dep-live-", i));
    Move(deposit, "external/payments", -100);
    Move(deposit, ledger::PlayerCashAccount("ana"), 100);
    ASSERT_TRUE(
        ledger_.Post(Meta(), ledger::PlayerOwner("ana"), deposit, Commit())
            .ok());
  }
  absl::StatusOr<AuditReport> second = VerifyDataDir(dir_, options);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_TRUE(second->ok()) << ProblemLines(second->problems);
  EXPECT_EQ(WalletRange(*second), 5);
  EXPECT_EQ(second->live_lag_events, 3);
  EXPECT_EQ(second->ledger.deposits, 1234 + 300);
  // The server still writes: the audit took no lock and wrote nothing.
  ASSERT_TRUE(projection::CatchUp(*log_, **store, projector).ok());
  ASSERT_TRUE((*store)->Flush().ok());
}

// The wallet's currency, as its log names it, is the audit's: amounts are
// never printed in an assumed EUR.
TEST_F(AuditDataDirTest, AmountsAreInTheWalletsCurrency) {
  Stop();
  absl::StatusOr<AuditReport> report = VerifyDataDir(dir_);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->currency, "USD");
  const std::string text = FormatAuditReport(*report);
  EXPECT_NE(text.find("amounts in USD"), std::string::npos) << text;
  EXPECT_NE(text.find("12.34 USD"), std::string::npos) << text;
  EXPECT_EQ(text.find("EUR"), std::string::npos) << text;
}

// --json lists every problem with its kind and where it is, and names the
// currency, the audited range and the version; a stream id that needs
// escaping (a quote, a backslash, a control character) stays one valid
// JSON line.
TEST_F(AuditDataDirTest, JsonListsTheProblemsTheCurrencyTheRangeAndVersion) {
  const std::string stream = "wallet/player/\"odd\\\x01";
  v1::WalletEvent opened;
  opened.set_request_id("x");
  opened.mutable_account_opened()->set_player_id("odd");
  opened.mutable_account_opened()->set_currency("EUR");
  auto appended =
      log_->Append({wire::EncodeWalletRecord({stream, 2, opened}, {})});
  ASSERT_TRUE(appended.ok()) << appended.status();
  const eventlog::Position at = appended->front();
  Stop();

  absl::StatusOr<AuditReport> report = VerifyDataDir(dir_);
  ASSERT_TRUE(report.ok()) << report.status();
  const std::string line = AuditReportJson(*report);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(line);
  EXPECT_EQ(j["tool"], "banca audit verify");
  EXPECT_EQ(j["version"], BANCA_VERSION);
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["currency"], "USD");
  bool wallet_range = false;
  for (const nlohmann::json& r : j["range"]) {
    if (r["topic"] == wire::kWalletTopic && r["partition"] == at.partition) {
      wallet_range = true;
      EXPECT_EQ(r["from"], 0);
      EXPECT_EQ(r["to"], at.offset + 1);
    }
  }
  EXPECT_TRUE(wallet_range) << j["range"].dump();
  ASSERT_EQ(j["problem_count"], j["problems"].size());
  std::map<std::string, nlohmann::json> by_kind;
  for (const nlohmann::json& p : j["problems"]) by_kind[p["kind"]] = p;
  ASSERT_TRUE(by_kind.contains("sequence")) << j["problems"].dump();
  const nlohmann::json& gap = by_kind["sequence"];
  EXPECT_EQ(gap["where"]["stream"], stream);
  EXPECT_EQ(gap["where"]["topic"], wire::kWalletTopic);
  EXPECT_EQ(gap["where"]["partition"], at.partition);
  EXPECT_EQ(gap["where"]["offset"], at.offset);
  EXPECT_NE(gap["message"].get<std::string>().find(stream), std::string::npos);
  ASSERT_TRUE(by_kind.contains("currency")) << j["problems"].dump();
  EXPECT_NE(by_kind["currency"]["message"].get<std::string>().find(
                "in currency \"EUR\", not the wallet's USD"),
            std::string::npos);
}

// `banca log tail --json`: one object per record, the wallet's events
// decoded; a client's text that needs escaping reads back as it was.
TEST_F(AuditDataDirTest, LogTailJsonEscapesWhatClientsWrote) {
  const std::string request_id = "client/ana/\"quoted\"\\back\nline\x02";
  v1::WalletEvent rejected;
  rejected.set_request_id(request_id);
  rejected.set_actor("player:ana");
  rejected.mutable_request_rejected()->set_player_id("ana");
  rejected.mutable_request_rejected()->set_message("no \"funds\"\t");
  ASSERT_TRUE(
      log_->Append({wire::EncodeWalletRecord({"wallet/player/ana", 3, rejected},
                                             {.correlation_id = "c\"1"})})
          .ok());
  auto records = TailTopic(*log_, std::string(wire::kWalletTopic), /*n=*/10);
  ASSERT_TRUE(records.ok()) << records.status();
  ASSERT_EQ(records->size(), 3u);
  const std::string line = TailJson(records->back());
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(line);
  EXPECT_EQ(j["topic"], wire::kWalletTopic);
  EXPECT_EQ(j["key"], "wallet/player/ana");
  EXPECT_EQ(j["event_id"], "wallet/player/ana#3");
  EXPECT_EQ(j["type"], "request_rejected");
  EXPECT_EQ(j["request_id"], request_id);
  EXPECT_EQ(j["headers"]["correlation_id"], "c\"1");
  EXPECT_EQ(j["event"]["request_rejected"]["message"], "no \"funds\"\t");
  EXPECT_NE(j["description"].get<std::string>().find("no \"funds\""),
            std::string::npos);
  // The deposit, as the text line shows it.
  const nlohmann::json deposit = nlohmann::json::parse(TailJson((*records)[1]));
  EXPECT_EQ(deposit["type"], "transaction_posted");
  EXPECT_NE(TailLine((*records)[1]).find("TransactionPosted DEPOSIT"),
            std::string::npos);
  EXPECT_EQ(TailTopic(*log_, "no.such.topic", 1).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(
      TailTopic(*log_, std::string(wire::kWalletTopic), 0).status().code(),
      absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace banca::audit
