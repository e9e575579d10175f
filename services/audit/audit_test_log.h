// The audits' tests (table_audit_test.cc, banked_audit_test.cc) write their
// log by hand on the embedded backend: one table's events on a table topic
// family (wire::TableTopics, with the wallet's copies of the money
// requests) and what the wallet did about them on banca.wallet.events,
// each topic in 2 partitions, so that each test can leave out, repeat or
// spoil one step.
#ifndef BANCA_SERVICES_AUDIT_AUDIT_TEST_LOG_H_
#define BANCA_SERVICES_AUDIT_AUDIT_TEST_LOG_H_

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/wire/envelope_record.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"

namespace banca::audit {

class AuditLogTest : public ::testing::Test {
 protected:
  // The table's events go to `topics`.
  explicit AuditLogTest(const wire::TableTopics& topics) : topics_(topics) {}

  void SetUp() override {
    dir_ = absl::StrCat(
        ::testing::TempDir(), "/", ToAbsl(topics_.what), "_audit_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    auto log = eventlog::OpenEmbeddedLog(dir_);
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *std::move(log);
    for (std::string_view topic :
         {topics_.topic, topics_.requests_topic, wire::kWalletTopic}) {
      ASSERT_TRUE(log_->EnsureTopic({std::string(topic), 2}).ok());
    }
  }

  // Appends table t1's next event `e` as a table host does, with
  // `append` (wire::AppendTableRecords, AppendBankedRecords): the event
  // and, for a money request, the wallet's copy. Returns its event id;
  // last_ is where the last record (the copy, if any) is.
  template <typename Event>
  std::string Table(Event e, void (*append)(const Event&, uint64_t,
                                            const wire::TableEventContext&,
                                            std::vector<eventlog::Record>*)) {
    e.set_table_id("t1");
    std::vector<eventlog::Record> records;
    append(e, ++table_sequence_, {"table", "", 0}, &records);
    auto appended = log_->Append(std::move(records));
    EXPECT_TRUE(appended.ok()) << appended.status();
    if (appended.ok()) last_ = appended->back();
    return absl::StrCat(wire::TableTopicStream(topics_, "t1"), "#",
                        table_sequence_);
  }

  // What the wallet logs (on ana's stream).
  void Wallet(const v1::WalletEvent& e) {
    const std::string stream = "wallet/player/ana";
    auto appended = log_->Append({wire::EncodeWalletRecord(
        ledger::Committed{stream, ++wallet_sequence_, e}, {})});
    EXPECT_TRUE(appended.ok()) << appended.status();
  }
  // The wallet posts `tx` under `request_id`.
  void Posted(const std::string& request_id, const v1::LedgerTransaction& tx) {
    v1::WalletEvent e;
    e.set_request_id(request_id);
    *e.mutable_transaction_posted()->mutable_tx() = tx;
    Wallet(e);
  }

  // `group` has read every partition of `topic` to its end.
  void ReadToEnd(const std::string& group, std::string_view topic) {
    std::vector<eventlog::OffsetCommit> commits;
    for (int p = 0; p < 2; ++p) {
      commits.push_back(
          {group, std::string(topic), p, *log_->EndOffset(topic, p)});
    }
    ASSERT_TRUE(log_->CommitOffsets(std::move(commits)).ok());
  }
  // The single wallet's reader (or, with `wallet_partition`, that wallet
  // partition's in group mode) has read the requests topic to its end.
  void WalletReadAll(int wallet_partition = -1) {
    const std::string group(topics_.requests_group);
    ReadToEnd(wallet_partition < 0 ? group
                                   : absl::StrCat(group, ".", wallet_partition),
              topics_.requests_topic);
  }

  // Whether one of `report`'s problems mentions `what`.
  template <typename Report>
  static bool Mentions(const Report& report, const std::string& what) {
    for (const AuditProblem& p : report.problems) {
      if (p.message.find(what) != std::string::npos) return true;
    }
    return false;
  }

  std::string dir_;
  std::unique_ptr<eventlog::EventLog> log_;
  uint64_t table_sequence_ = 0;
  uint64_t wallet_sequence_ = 0;
  eventlog::Position last_;

 private:
  const wire::TableTopics topics_;
};

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_AUDIT_TEST_LOG_H_
