// ReportingProjector hands each record to the parts that follow its topic:
// a wallet record decoded once for every WalletEventPart, the raw record to
// any other part.
#include "libs/projection/reporting_projection.h"

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/ledger/ledger.h"
#include "libs/projection/wallet_event_part.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"

namespace banca::projection {
namespace {

constexpr char kOtherTopic[] = "banca.other";

// Counts the raw records it gets, on the wallet topic and another.
class RawPart final : public Projector {
 public:
  explicit RawPart(int* applied) : applied_(applied) {}
  std::vector<std::string> Topics() const override {
    return {std::string(wire::kWalletTopic), kOtherTopic};
  }
  absl::Status Apply(const eventlog::StoredRecord&, Txn&) override {
    ++*applied_;
    return absl::OkStatus();
  }

 private:
  int* applied_;
};

// Counts the decoded wallet events it gets, and the accounts they open.
class DecodedPart final : public WalletEventPart {
 public:
  explicit DecodedPart(int* applied) : applied_(applied) {}
  absl::Status ApplyWallet(const eventlog::StoredRecord&,
                           const wire::DecodedWalletEvent& decoded,
                           Txn&) override {
    EXPECT_TRUE(decoded.event.has_account_opened());
    ++*applied_;
    return absl::OkStatus();
  }

 private:
  int* applied_;
};

class ReportingProjectionTest : public ::testing::Test {
 protected:
  ReportingProjectionTest()
      : dir_(absl::StrCat(::testing::TempDir(), "/reporting-projection-",
                          getpid())) {
    std::filesystem::remove_all(dir_);
    auto store = ProjectionStore::Open(dir_);
    EXPECT_TRUE(store.ok()) << store.status();
    store_ = std::move(*store);
  }
  ~ReportingProjectionTest() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  // ana's account opened, as the wallet writes it on its topic.
  static eventlog::StoredRecord AccountOpened() {
    ledger::Ledger ledger;
    eventlog::StoredRecord stored;
    EXPECT_TRUE(ledger
                    .OpenAccount({"r1", "f", "bench"}, "ana", "EUR",
                                 [&](const ledger::Committed& c) {
                                   eventlog::Record r =
                                       wire::EncodeWalletRecord(
                                           c, {.occurred_at_micros = 1});
                                   stored.topic = r.topic;
                                   stored.key = r.key;
                                   stored.headers = r.headers;
                                   stored.value = r.value;
                                 })
                    .ok());
    return stored;
  }

  std::string dir_;
  std::unique_ptr<ProjectionStore> store_;
};

TEST_F(ReportingProjectionTest, AWalletRecordGoesDecodedOrRawToEveryPart) {
  int raw = 0, first = 0, second = 0;
  std::vector<std::unique_ptr<Projector>> parts;
  parts.push_back(std::make_unique<RawPart>(&raw));
  parts.push_back(std::make_unique<DecodedPart>(&first));
  parts.push_back(std::make_unique<DecodedPart>(&second));
  ReportingProjector projector(std::move(parts));
  EXPECT_EQ(
      projector.Topics(),
      (std::vector<std::string>{kOtherTopic, std::string(wire::kWalletTopic)}));
  Txn txn(*store_);
  const eventlog::StoredRecord record = AccountOpened();
  ASSERT_EQ(record.topic, wire::kWalletTopic);
  ASSERT_TRUE(projector.Apply(record, txn).ok());
  EXPECT_EQ(raw, 1);
  EXPECT_EQ(first, 1);
  EXPECT_EQ(second, 1);

  eventlog::StoredRecord other;
  other.topic = kOtherTopic;
  other.value = "not a wallet event";
  ASSERT_TRUE(projector.Apply(other, txn).ok());
  EXPECT_EQ(raw, 2);
  EXPECT_EQ(first, 1);  // not its topic
}

TEST_F(ReportingProjectionTest, AWalletPartAloneDecodesTheRecordItself) {
  int applied = 0;
  DecodedPart part(&applied);
  Txn txn(*store_);
  ASSERT_TRUE(part.Apply(AccountOpened(), txn).ok());
  EXPECT_EQ(applied, 1);
}

TEST_F(ReportingProjectionTest, ARecordThatDoesNotDecodeIsDataLoss) {
  int raw = 0, decoded = 0;
  std::vector<std::unique_ptr<Projector>> parts;
  parts.push_back(std::make_unique<RawPart>(&raw));
  parts.push_back(std::make_unique<DecodedPart>(&decoded));
  ReportingProjector projector(std::move(parts));
  eventlog::StoredRecord bad = AccountOpened();
  bad.value = "\xff\xff garbage";
  Txn txn(*store_);
  EXPECT_TRUE(absl::IsDataLoss(projector.Apply(bad, txn)));
  EXPECT_EQ(decoded, 0);
  DecodedPart alone(&decoded);
  EXPECT_TRUE(absl::IsDataLoss(alone.Apply(bad, txn)));
  EXPECT_EQ(decoded, 0);
}

}  // namespace
}  // namespace banca::projection
