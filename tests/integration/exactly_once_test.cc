// Consume-transform-produce exactly once, under SIGKILL. A child process
// reads topic "in", appends one derived record per input to "out" and
// commits its consumer offset in the same atomic append; the parent kills it
// at random moments and starts it again until it finishes. Every input must
// then have exactly one derived record: none lost between the append and the
// offset commit, none doubled by a restart. Runs on the embedded log, and on
// Kafka (transactions with the offsets inside) when BANCA_KAFKA_BOOTSTRAP
// names a broker.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <random>

#include "absl/strings/numbers.h"
#include "libs/eventlog/log_backend.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {
namespace {

constexpr int kPartitions = 4;
constexpr char kGroup[] = "transformer";

enum class Backend { kEmbedded, kKafka };

class ExactlyOnceTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    const std::string suffix =
        absl::StrCat(getpid(), "x", std::random_device{}());
    if (GetParam() == Backend::kKafka) {
      const char* bootstrap = std::getenv("BANCA_KAFKA_BOOTSTRAP");
      if (bootstrap == nullptr || *bootstrap == '\0') {
        GTEST_SKIP() << "BANCA_KAFKA_BOOTSTRAP is not set: start a broker with "
                        "tools/kafka-local start (tools/run-tests does)";
      }
      // A stable transactional id: each restarted child fences the one
      // killed before it and aborts its open transaction.
      spec_ =
          absl::StrCat("kafka://", bootstrap, "?transactional_id=eo-", suffix);
    } else {
      spec_ = "embedded";
    }
    dir_ = FreshDir(absl::StrCat("exactly_once_", suffix));
    in_ = absl::StrCat("eo.in.", suffix);
    out_ = absl::StrCat("eo.out.", suffix);
    auto log = eventlog::OpenLogBackend(spec_, dir_);
    ASSERT_TRUE(log.ok()) << log.status();
    ASSERT_TRUE((*log)->EnsureTopic({in_, kPartitions}).ok());
    ASSERT_TRUE((*log)->EnsureTopic({out_, kPartitions}).ok());
    std::vector<eventlog::Record> batch;
    for (int i = 0; i < inputs(); ++i) {
      eventlog::Record r;
      r.topic = in_;
      r.key = absl::StrCat("k", i);
      r.value = absl::StrCat(i);
      batch.push_back(std::move(r));
      if (batch.size() == 500 || i + 1 == inputs()) {
        ASSERT_TRUE((*log)->Append(std::move(batch)).ok());
        batch.clear();
      }
    }
    // The child opens the log itself (the embedded log allows one process).
  }

  // The transformer, run in a child process. Exit 0 when all is consumed.
  [[noreturn]] void Transform() {
    auto log = eventlog::OpenLogBackend(spec_, dir_);
    if (!log.ok()) _exit(3);
    for (bool progressed = true; progressed;) {
      progressed = false;
      for (int p = 0; p < kPartitions; ++p) {
        auto next = (*log)->CommittedOffset(kGroup, in_, p);
        if (!next.ok()) _exit(4);
        auto records = (*log)->Read(in_, p, *next, batch());
        if (!records.ok()) _exit(5);
        if (records->empty()) continue;
        std::vector<eventlog::Record> derived;
        for (const auto& r : *records) {
          eventlog::Record d;
          d.topic = out_;
          d.key = r.key;
          d.value = absl::StrCat("derived:", r.value);
          derived.push_back(std::move(d));
        }
        const int64_t after = records->back().offset + 1;
        auto appended =
            (*log)->Append(std::move(derived), {{kGroup, in_, p, after}});
        if (!appended.ok()) _exit(6);
        progressed = true;
      }
    }
    log->reset();
    _exit(0);
  }

  // Kafka appends take a transaction each (5-40 ms, one after another
  // here). A child's life before it is killed: long enough to get past
  // opening the log (slower on Kafka: fencing each producer, coordinators)
  // and die inside the loop, short enough to die many times; the inputs
  // take several lives to transform even when appends are fast, so kills
  // keep landing (with 600 inputs, once the first append of a topic no
  // longer waited a second, the first child finished before any kill).
  int LifeMs(std::mt19937& rng) const {
    return GetParam() == Backend::kKafka ? 150 + static_cast<int>(rng() % 850)
                                         : 5 + static_cast<int>(rng() % 60);
  }
  int inputs() const { return 3000; }
  size_t batch() const { return 10; }

  std::string spec_, dir_, in_, out_;
};

TEST_P(ExactlyOnceTest, KilledTransformerNeitherLosesNorDoublesOutput) {
  std::mt19937 rng(20261122);
  constexpr int kKillRounds = 15;
  int kills = 0;
  bool finished = false;
  // Rounds of random short lives (killed at every stage of an append), then
  // one run left to finish.
  for (int round = 0; round <= kKillRounds && !finished; ++round) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) Transform();
    const bool last = round == kKillRounds;
    const int live_ms = last ? 180'000 : LifeMs(rng);
    int status = 0;
    for (int waited = 0; waited < live_ms; waited += 5) {
      if (waitpid(child, &status, WNOHANG) == child) {
        ASSERT_TRUE(WIFEXITED(status)) << "transformer crashed";
        ASSERT_EQ(WEXITSTATUS(status), 0) << "transformer failed";
        finished = true;
        break;
      }
      usleep(5'000);
    }
    if (!finished) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      ++kills;
    }
  }
  ASSERT_TRUE(finished) << "the transformer never finished";
  EXPECT_GE(kills, 3) << "too few kills landed for the test to prove much";

  auto log = eventlog::OpenLogBackend(spec_, dir_);
  ASSERT_TRUE(log.ok()) << log.status();
  std::map<std::string, int> seen;
  for (int p = 0; p < kPartitions; ++p) {
    const int64_t end = *(*log)->EndOffset(out_, p);
    int64_t next = 0;
    while (next < end) {
      auto records = (*log)->Read(out_, p, next, 1000);
      ASSERT_TRUE(records.ok()) << records.status();
      if (records->empty()) break;
      for (const auto& r : *records) {
        seen[r.value]++;
        next = r.offset + 1;
      }
    }
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(inputs()));
  for (int i = 0; i < inputs(); ++i) {
    EXPECT_EQ(seen[absl::StrCat("derived:", i)], 1) << "input " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ExactlyOnceTest,
                         ::testing::Values(Backend::kEmbedded, Backend::kKafka),
                         [](const auto& info) {
                           return info.param == Backend::kEmbedded ? "Embedded"
                                                                   : "Kafka";
                         });

}  // namespace
}  // namespace banca::testing
