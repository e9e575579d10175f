// The reporting bench's workload (deterministic, every kind of movement,
// records the ledger replays) and its JSON at a small size.
#include "tools/bench/reporting_bench.h"

#include <unistd.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/ledger/ledger.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "libs/projection/reporting_projection.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "tools/bench/reporting_workload.h"

namespace banca::bench {
namespace {

class ReportingBenchTest : public ::testing::Test {
 protected:
  ReportingBenchTest()
      : dir_(
            absl::StrCat(::testing::TempDir(), "/reporting-bench-", getpid())) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~ReportingBenchTest() override { std::filesystem::remove_all(dir_); }

  // Every wallet record of the log at `sub`, written with `options`.
  std::vector<eventlog::StoredRecord> Written(
      const std::string& sub, const ReportingWorkloadOptions& options,
      ReportingWorkloadCounts* counts = nullptr) {
    auto log = eventlog::OpenEmbeddedLog(absl::StrCat(dir_, "/", sub));
    EXPECT_TRUE(log.ok()) << log.status();
    auto written = WriteReportingWorkload(**log, options);
    EXPECT_TRUE(written.ok()) << written.status();
    if (counts != nullptr && written.ok()) *counts = *written;
    std::vector<eventlog::StoredRecord> all;
    const std::string topic(wire::kWalletTopic);
    for (int p = 0; p < wire::kDefaultWalletPartitions; ++p) {
      auto records = (*log)->Read(topic, p, 0, 1 << 20);
      EXPECT_TRUE(records.ok()) << records.status();
      for (auto& r : *records) all.push_back(std::move(r));
    }
    return all;
  }

  std::string dir_;
};

ReportingWorkloadOptions Small(uint64_t seed = 1) {
  ReportingWorkloadOptions o;
  o.events = 6'000;
  o.players = 300;
  o.seed = seed;
  return o;
}

TEST_F(ReportingBenchTest, TheWorkloadIsTheSameForTheSameSeed) {
  const auto a = Written("a", Small());
  const auto b = Written("b", Small());
  const auto c = Written("c", Small(2));
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].key, b[i].key) << i;
    ASSERT_EQ(a[i].value, b[i].value) << i;
  }
  bool differs = a.size() != c.size();
  for (size_t i = 0; !differs && i < a.size(); ++i) {
    differs = a[i].value != c[i].value;
  }
  EXPECT_TRUE(differs) << "another seed wrote the same log";
}

TEST_F(ReportingBenchTest, TheWorkloadHasEveryMovementAndTheLedgerReplaysIt) {
  ReportingWorkloadCounts counts;
  const auto records = Written("a", Small(), &counts);
  EXPECT_GE(counts.events, 6'000);
  EXPECT_LT(counts.events, 6'000 + 100);
  EXPECT_EQ(static_cast<int64_t>(records.size()), counts.events);
  EXPECT_GT(counts.accounts, 0);
  EXPECT_GT(counts.deposits, 0);
  EXPECT_GT(counts.withdrawals, 0);
  EXPECT_GT(counts.banked_rounds, 0);
  EXPECT_GT(counts.banked_bets, counts.banked_rounds);
  EXPECT_GT(counts.poker_hands, 0);
  EXPECT_GT(counts.poker_buy_ins, 0);
  EXPECT_GT(counts.poker_cash_outs, 0);
  EXPECT_GT(counts.tournaments, 0);
  EXPECT_GT(counts.tournament_entries, 6 * counts.tournaments - 1);
  EXPECT_EQ(counts.tournament_prizes, 3 * counts.tournaments);
  EXPECT_GT(counts.last_micros, counts.first_micros);
  // Real wallet records: the ledger's replay takes every one, and the
  // balances it ends with sum to zero with every hold accounted for.
  ledger::Ledger replayed;
  for (const eventlog::StoredRecord& r : records) {
    auto decoded = wire::DecodeWalletRecord(r);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    ASSERT_TRUE(replayed
                    .Apply(decoded->envelope.stream_id(),
                           decoded->envelope.sequence(), decoded->event)
                    .ok());
  }
  EXPECT_TRUE(replayed.CheckReplayedState().ok());
}

// A bulk catch-up of the reporting projection (typed values serialized
// per table file, table files of a few hundred records, so games and
// buckets span several) ends in the bytes of a record-at-a-time one, with
// lanes allowed or not (today's parts share one).
TEST_F(ReportingBenchTest, ABulkCatchUpOfTheWorkloadEqualsARecordAtATimeOne) {
  auto log = eventlog::OpenEmbeddedLog(absl::StrCat(dir_, "/log"));
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_TRUE(WriteReportingWorkload(**log, Small()).ok());
  auto state = [&](const std::string& sub,
                   const projection::CatchUpOptions& options) {
    auto store =
        projection::ProjectionStore::Open(absl::StrCat(dir_, "/", sub));
    EXPECT_TRUE(store.ok()) << store.status();
    projection::ReportingProjector projector;
    auto applied = projection::CatchUp(**log, **store, projector, options);
    EXPECT_TRUE(applied.ok()) << applied.status();
    EXPECT_GE(applied.value_or(0), 6'000);
    EXPECT_GT(*(*store)->KeyCount(), 6'000);
    return std::make_pair(*(*store)->StateHash(), (*store)->Offsets());
  };
  projection::CatchUpOptions one_at_a_time;
  one_at_a_time.bulk_min_records = 0;
  one_at_a_time.batch_records = 97;
  projection::CatchUpOptions bulk;
  bulk.bulk_min_records = 1;
  bulk.bulk_bytes = 64 << 10;
  bulk.batch_records = 500;
  projection::CatchUpOptions bulk_one_lane = bulk;
  bulk_one_lane.lanes = false;
  const auto expected = state("one", one_at_a_time);
  EXPECT_EQ(state("bulk", bulk), expected);
  EXPECT_EQ(state("bulk-one-lane", bulk_one_lane), expected);
}

TEST_F(ReportingBenchTest, TheBenchPrintsItsFiguresAndReusesItsLog) {
  ReportingBenchOptions options;
  options.dir = dir_;
  options.workload = Small();
  options.queries = 50;
  auto first = RunReportingBench(options);
  ASSERT_TRUE(first.ok()) << first.status();
  const nlohmann::ordered_json& j = *first;
  EXPECT_EQ(j["bench"], "reporting");
  EXPECT_EQ(j["log_reused"], false);
  EXPECT_EQ(j["events"], j["workload"]["written"]);
  EXPECT_GE(j["events"].get<int64_t>(), 6'000);
  EXPECT_GT(j["ingest_events_per_sec"].get<int64_t>(), 0);
  EXPECT_GT(j["store_bytes"].get<int64_t>(), 0);
  EXPECT_GT(j["store_keys"].get<int64_t>(), 0);
  EXPECT_EQ(j["queries"], 50);
  EXPECT_GT(j["games_per_query"].get<double>(), 0);
  EXPECT_LE(j["games_per_query"].get<double>(), 10);
  EXPECT_GT(j["last10_p50_ms"].get<double>(), 0);
  EXPECT_GE(j["last10_p99_ms"].get<double>(), j["last10_p50_ms"].get<double>());
  EXPECT_GE(j["last10_max_ms"].get<double>(), j["last10_p99_ms"].get<double>());
  EXPECT_GT(j["peak_rss_mb"].get<double>(), 0);
  EXPECT_EQ(j["target_ingest_events_per_sec"], 200'000);
  EXPECT_EQ(j["target_last10_p99_ms"], 20);
  // The statement export and the daily close, measured on the same store:
  // every statement line of the workload's players exported (fewer than
  // the million), every day of its clock closed and reconciled.
  EXPECT_GT(j["csv_rows"].get<int64_t>(), 0);
  EXPECT_GT(j["csv_rows_per_sec"].get<int64_t>(), 0);
  EXPECT_GE(j["close_days"].get<int64_t>(), 1);
  EXPECT_GT(j["close_busiest_day_events"].get<int64_t>(), 0);
  EXPECT_GE(j["close_ms"].get<double>(), 0);

  auto second = RunReportingBench(options);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ((*second)["log_reused"], true);
  EXPECT_EQ((*second)["events"], j["events"]);
  EXPECT_EQ((*second)["store_keys"], j["store_keys"]);

  options.workload.seed = 2;  // another log: written afresh
  auto third = RunReportingBench(options);
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_EQ((*third)["log_reused"], false);
}

TEST_F(ReportingBenchTest, BadOptionsAreRefused) {
  ReportingBenchOptions options;
  options.dir = dir_;
  options.workload = Small();
  options.queries = 0;
  EXPECT_TRUE(absl::IsInvalidArgument(RunReportingBench(options).status()));
  auto log = eventlog::OpenEmbeddedLog(dir_ + "/x");
  ASSERT_TRUE(log.ok());
  ReportingWorkloadOptions w = Small();
  w.players = 1;
  EXPECT_TRUE(
      absl::IsInvalidArgument(WriteReportingWorkload(**log, w).status()));
}

}  // namespace
}  // namespace banca::bench
