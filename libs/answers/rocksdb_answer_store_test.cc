#include "libs/answers/rocksdb_answer_store.h"

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/ledger/idempotency.h"

namespace banca::answers {
namespace {

using ledger::Answer;
using ledger::IdempotencyIndex;

class AnswerStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(
        ::testing::TempDir(), "/answers_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name(), "_",
        ::getpid());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::unique_ptr<RocksDbAnswerStore> Open() {
    auto store = RocksDbAnswerStore::Open(
        dir_, {.window = absl::Hours(1), .clock = &clock_});
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? std::move(*store) : nullptr;
  }
  IdempotencyIndex IndexOn(RocksDbAnswerStore& store) {
    return IdempotencyIndex(
        {.window = absl::Hours(1), .clock = &clock_, .store = &store});
  }

  std::string dir_;
  ManualClock clock_;
};

TEST_F(AnswerStoreTest, AnAnswerIsKeptOnDiskAndOffTheIndex) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  IdempotencyIndex index = IndexOn(*store);
  ASSERT_EQ(index.Begin("r1", "body")->outcome,
            IdempotencyIndex::Outcome::kFirst);
  EXPECT_EQ(index.size(), 1u);  // in flight
  index.Complete("r1", "result");
  EXPECT_EQ(index.size(), 0u);  // answered: in the store only
  EXPECT_EQ(store->Get("r1"), (Answer{"body", "result", clock_.NowMicros()}));
  EXPECT_EQ(index.Begin("r1", "body")->result, "result");
  EXPECT_EQ(index.Begin("r1", "other").status().code(),
            absl::StatusCode::kAlreadyExists);
}

TEST_F(AnswerStoreTest, ARetryAfterARestartIsAnsweredFromTheStore) {
  std::string id;
  {
    auto store = Open();
    ASSERT_NE(store, nullptr);
    id = store->id();
    IdempotencyIndex index = IndexOn(*store);
    ASSERT_TRUE(index.Begin("r1", "body").ok());
    index.Complete("r1", "result");
    store->Sync();
  }
  auto store = Open();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->id(), id);  // the same store, named alike
  IdempotencyIndex index = IndexOn(*store);
  auto again = index.Begin("r1", "body");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->outcome, IdempotencyIndex::Outcome::kRepeat);
  EXPECT_EQ(again->result, "result");
}

TEST_F(AnswerStoreTest, AnAnswerOutsideTheWindowIsForgottenAndDropped) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  IdempotencyIndex index = IndexOn(*store);
  ASSERT_TRUE(index.Begin("old", "body").ok());
  index.Complete("old", "result");
  clock_.Advance(absl::Minutes(30));
  ASSERT_TRUE(index.Begin("new", "body").ok());
  index.Complete("new", "result");
  clock_.Advance(absl::Minutes(31));
  // "old" is 61 minutes old: a new request, whatever its body.
  EXPECT_EQ(index.Begin("old", "other")->outcome,
            IdempotencyIndex::Outcome::kFirst);
  index.Abandon("old");
  EXPECT_EQ(index.Begin("new", "body")->outcome,
            IdempotencyIndex::Outcome::kRepeat);
  store->CompactAll();
  std::vector<std::string> kept;
  store->ForEach(
      [&](std::string_view id, const Answer&) { kept.emplace_back(id); });
  EXPECT_EQ(kept, std::vector<std::string>{"new"});
}

TEST_F(AnswerStoreTest, AReplayOfAnOlderUseKeepsTheLaterAnswer) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  const int64_t now = clock_.NowMicros();
  store->Put("r1", Answer{"b", "later", now - 5});
  store->Put("r1", Answer{"a", "earlier", now - 9});
  EXPECT_EQ(store->Get("r1")->result, "later");
  store->Put("r1", Answer{"c", "latest", now});
  EXPECT_EQ(store->Get("r1")->result, "latest");
  // Binary fingerprints and empty results round-trip.
  const std::string fingerprint("\0\xff\x01", 3);
  store->Put("r2", Answer{fingerprint, "", now});
  EXPECT_EQ(store->Get("r2"), (Answer{fingerprint, "", now}));
}

TEST_F(AnswerStoreTest, TwoStoresHaveTwoIds) {
  auto a = Open();
  ASSERT_NE(a, nullptr);
  const std::string id = a->id();
  a.reset();
  std::filesystem::remove_all(dir_);
  auto b = Open();
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(id.size(), 32u);
  EXPECT_NE(b->id(), id);
}

TEST_F(AnswerStoreTest, AStoreThatCannotOpenIsUnavailable) {
  ASSERT_TRUE(std::filesystem::create_directories(dir_));
  const std::string file = dir_ + "/not-a-dir";
  {
    std::FILE* f = std::fopen(file.c_str(), "w");
    std::fclose(f);
  }
  auto store = RocksDbAnswerStore::Open(file, {});
  EXPECT_EQ(store.status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace banca::answers
