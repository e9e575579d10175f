// The EventLog contract, run unchanged against every backend: the embedded
// journal always, and Apache Kafka when BANCA_KAFKA_BOOTSTRAP names a broker
// (`export BANCA_KAFKA_BOOTSTRAP=$(tools/kafka-local start | tail -n1)`).
//
// One documented difference is asserted, not hidden: the embedded backend's
// offsets are dense, Kafka's only strictly increasing (transaction markers
// take offsets). Tests read from `last.offset + 1`, as callers must.
#include <librdkafka/rdkafka.h>
#include <stdlib.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/event_log.h"
#include "libs/eventlog/group_member.h"
#include "libs/eventlog/journal_format.h"
#include "libs/eventlog/kafka_log.h"

namespace banca::eventlog {
namespace {

using ::absl::StatusCode;
using ::banca::ToAbsl;

enum class Backend { kEmbedded, kKafka };

std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::kEmbedded ? "Embedded" : "Kafka";
}

std::string RandomHex() {
  static std::mutex mu;
  static std::mt19937_64 gen{std::random_device{}()};
  std::lock_guard l(mu);
  return absl::StrCat(absl::Hex(gen(), absl::kZeroPad16));
}

Record Rec(std::string topic, std::string key, std::string value,
           int partition = -1) {
  Record r;
  r.topic = std::move(topic);
  r.key = std::move(key);
  r.value = std::move(value);
  r.partition = partition;
  return r;
}

std::vector<std::string> Values(const std::vector<StoredRecord>& rs) {
  std::vector<std::string> v;
  for (const StoredRecord& r : rs) v.push_back(r.value);
  return v;
}

class EventLogConformance : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::kKafka) {
      const char* bootstrap = getenv("BANCA_KAFKA_BOOTSTRAP");
      if (bootstrap == nullptr || *bootstrap == '\0') {
        GTEST_SKIP() << "BANCA_KAFKA_BOOTSTRAP is not set, so there is no "
                        "broker to test against; run `tools/kafka-local "
                        "start` and export its last line as "
                        "BANCA_KAFKA_BOOTSTRAP";
      }
      bootstrap_ = bootstrap;
    }
    log_ = Open();
    ASSERT_NE(log_, nullptr);
  }

  std::unique_ptr<EventLog> Open() {
    absl::StatusOr<std::unique_ptr<EventLog>> log;
    if (GetParam() == Backend::kEmbedded) {
      if (dir_.empty()) {
        std::string tmpl = ::testing::TempDir() + "/conformance_XXXXXX";
        char* d = mkdtemp(tmpl.data());
        EXPECT_NE(d, nullptr);
        dir_ = std::string(d) + "/log";
      }
      log = OpenEmbeddedLog(dir_);
    } else {
      KafkaLogOptions o;
      o.bootstrap_servers = bootstrap_;
      o.client_id = "banca-conformance";
      o.request_timeout_ms = 10'000;
      log = OpenKafkaLog(o);
    }
    EXPECT_TRUE(log.ok()) << log.status();
    return log.ok() ? std::move(*log) : nullptr;
  }

  bool Dense() const { return GetParam() == Backend::kEmbedded; }

  // A topic name no earlier run against the same broker used.
  std::string Topic(std::string_view base) {
    return absl::StrCat("conf.", ToAbsl(base), ".", RandomHex());
  }

  std::string NewTopic(std::string_view base, int partitions) {
    std::string name = Topic(base);
    absl::Status s = log_->EnsureTopic({name, partitions});
    EXPECT_TRUE(s.ok()) << s;
    return name;
  }

  // Everything in the partition, checking offsets increase (and are dense
  // where the backend promises it).
  std::vector<StoredRecord> ReadAll(const std::string& topic, int partition,
                                    EventLog* log = nullptr) {
    if (log == nullptr) log = log_.get();
    std::vector<StoredRecord> out;
    int64_t next = 0;
    for (;;) {
      absl::StatusOr<std::vector<StoredRecord>> r =
          log->Read(topic, partition, next, 97);
      EXPECT_TRUE(r.ok()) << r.status();
      if (!r.ok() || r->empty()) break;
      for (StoredRecord& s : *r) {
        EXPECT_GE(s.offset, next);
        if (Dense()) {
          EXPECT_EQ(s.offset, static_cast<int64_t>(out.size()));
        }
        EXPECT_EQ(s.topic, topic);
        EXPECT_EQ(s.partition, partition);
        next = s.offset + 1;
        out.push_back(std::move(s));
      }
    }
    return out;
  }

  int64_t End(const std::string& topic, int partition) {
    absl::StatusOr<int64_t> e = log_->EndOffset(topic, partition);
    EXPECT_TRUE(e.ok()) << e.status();
    return e.ok() ? *e : -1;
  }

  int64_t Committed(const std::string& group, const std::string& topic,
                    int partition) {
    absl::StatusOr<int64_t> c = log_->CommittedOffset(group, topic, partition);
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *c : -1;
  }

  std::string bootstrap_;
  std::string dir_;
  std::unique_ptr<EventLog> log_;
};

TEST_P(EventLogConformance, AppendReadRoundTrip) {
  const std::string a = NewTopic("wallet", 3);
  const std::string b = NewTopic("table", 2);
  EXPECT_EQ(*log_->PartitionCount(a), 3);
  EXPECT_EQ(*log_->PartitionCount(b), 2);

  Record r1 = Rec(a, "player-1", "deposit", 2);
  r1.headers = {{"type", "Deposited"}, {"schema_version", "1"}, {"empty", ""}};
  // Kafka keeps milliseconds, so the contract is tested at that precision.
  r1.timestamp_micros = 1'700'000'000'123'000;
  Record r2 = Rec(b, "table-9", std::string("\0bin\xff", 5), 1);
  Record r3 = Rec(a, "player-2", "", 0);
  absl::StatusOr<std::vector<Position>> pos = log_->Append({r1, r2, r3});
  ASSERT_TRUE(pos.ok()) << pos.status();
  ASSERT_EQ(pos->size(), 3u);
  EXPECT_EQ((*pos)[0], (Position{a, 2, 0}));
  EXPECT_EQ((*pos)[1], (Position{b, 1, 0}));
  EXPECT_EQ((*pos)[2], (Position{a, 0, 0}));

  std::vector<StoredRecord> got = ReadAll(a, 2);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].offset, 0);
  EXPECT_EQ(got[0].key, "player-1");
  EXPECT_EQ(got[0].headers, r1.headers);
  EXPECT_EQ(got[0].value, "deposit");
  EXPECT_EQ(got[0].timestamp_micros, r1.timestamp_micros);
  got = ReadAll(b, 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].value, r2.value);
  EXPECT_EQ(got[0].key, "table-9");
  EXPECT_TRUE(got[0].headers.empty());
  // The log stamps records that carry no timestamp.
  got = ReadAll(a, 0);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].value, "");
  const int64_t now = absl::ToUnixMicros(absl::Now());
  EXPECT_GT(got[0].timestamp_micros, now - 600'000'000);
  EXPECT_LT(got[0].timestamp_micros, now + 600'000'000);
  EXPECT_TRUE(ReadAll(a, 1).empty());
  EXPECT_EQ(End(a, 1), 0);
  EXPECT_TRUE(ReadAll(b, 0).empty());

  absl::StatusOr<std::vector<TopicConfig>> topics = log_->ListTopics();
  ASSERT_TRUE(topics.ok()) << topics.status();
  std::map<std::string, int> listed;
  for (const TopicConfig& t : *topics) listed[t.name] = t.partitions;
  EXPECT_EQ(listed[a], 3);
  EXPECT_EQ(listed[b], 2);
  for (const TopicConfig& t : *topics) EXPECT_FALSE(t.name.starts_with("__"));
}

TEST_P(EventLogConformance, LargestRecordRoundTrips) {
  const std::string t = NewTopic("large", 1);
  Record r = Rec(t, "k", std::string(kMaxRecordBytes - 1000, 'v'), 0);
  r.headers = {{"h", std::string(500, 'h')}};
  ASSERT_TRUE(log_->Append({r}).ok());
  std::vector<StoredRecord> got = ReadAll(t, 0);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].value, r.value);
  EXPECT_EQ(got[0].headers, r.headers);
}

TEST_P(EventLogConformance, KeysGoToPartitionForKeyInOrder) {
  const std::string t = NewTopic("keyed", 4);
  std::map<int, std::vector<std::string>> expected;
  std::map<int, int64_t> last_offset;
  for (int i = 0; i < 60; ++i) {
    const std::string key = absl::StrCat("k", i % 13);
    const std::string value = absl::StrCat("v", i);
    absl::StatusOr<std::vector<Position>> p =
        log_->Append({Rec(t, key, value)});
    ASSERT_TRUE(p.ok()) << p.status();
    const int part = PartitionForKey(key, 4);
    EXPECT_EQ((*p)[0].partition, part);
    if (Dense()) {
      EXPECT_EQ((*p)[0].offset, static_cast<int64_t>(expected[part].size()));
    } else if (last_offset.contains(part)) {
      EXPECT_GT((*p)[0].offset, last_offset[part]);
    }
    last_offset[part] = (*p)[0].offset;
    expected[part].push_back(value);
  }
  for (int p = 0; p < 4; ++p) EXPECT_EQ(Values(ReadAll(t, p)), expected[p]);
}

TEST_P(EventLogConformance, ReadHonoursMaxRecordsAndEnd) {
  const std::string t = NewTopic("bounds", 1);
  std::vector<Record> batch;
  for (int i = 0; i < 10; ++i) batch.push_back(Rec(t, "", absl::StrCat(i)));
  absl::StatusOr<std::vector<Position>> pos = log_->Append(batch);
  ASSERT_TRUE(pos.ok()) << pos.status();
  auto r = log_->Read(t, 0, (*pos)[3].offset, 4);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values(*r), (std::vector<std::string>{"3", "4", "5", "6"}));
  // Continuing where the last read stopped.
  r = log_->Read(t, 0, r->back().offset + 1, 100);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values(*r), (std::vector<std::string>{"7", "8", "9"}));
  // Going back.
  r = log_->Read(t, 0, 0, 2);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values(*r), (std::vector<std::string>{"0", "1"}));
  r = log_->Read(t, 0, 0, 0);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
  const int64_t end = End(t, 0);
  EXPECT_GT(end, pos->back().offset);
  if (Dense()) {
    EXPECT_EQ(end, 10);
  }
  r = log_->Read(t, 0, end, 4);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->empty());
  // Between the last record and the end (Kafka: its transaction marker).
  r = log_->Read(t, 0, pos->back().offset + 1, 4);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->empty());
  EXPECT_EQ(log_->Read(t, 0, end + 1, 4).status().code(),
            StatusCode::kOutOfRange);
}

TEST_P(EventLogConformance, ReadPartitionToEndVisitsInOrderAndStopsOnError) {
  const std::string t = NewTopic("to_end", 1);
  std::vector<Record> batch;
  for (int i = 0; i < 10; ++i) batch.push_back(Rec(t, "", absl::StrCat(i)));
  absl::StatusOr<std::vector<Position>> pos = log_->Append(batch);
  ASSERT_TRUE(pos.ok()) << pos.status();
  std::vector<std::string> seen;
  auto collect = [&](const StoredRecord& r) {
    seen.push_back(r.value);
    return absl::OkStatus();
  };
  // Small batches, from the middle: every record once, in order.
  absl::StatusOr<int64_t> next =
      ReadPartitionToEnd(*log_, t, 0, (*pos)[4].offset, collect, 3);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(seen, (std::vector<std::string>{"4", "5", "6", "7", "8", "9"}));
  EXPECT_EQ(*next, pos->back().offset + 1);
  // Going on from there finds nothing new.
  seen.clear();
  next = ReadPartitionToEnd(*log_, t, 0, *next, collect);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_TRUE(seen.empty());
  // The visitor's error stops the read and is returned as it is.
  seen.clear();
  next = ReadPartitionToEnd(*log_, t, 0, 0, [&](const StoredRecord& r) {
    seen.push_back(r.value);
    return r.value == "2" ? absl::DataLossError("bad record 2")
                          : absl::OkStatus();
  });
  EXPECT_EQ(next.status(), absl::DataLossError("bad record 2"));
  EXPECT_EQ(seen, (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(ReadPartitionToEnd(*log_, Topic("missing"), 0, 0, collect)
                .status()
                .code(),
            StatusCode::kNotFound);
}

TEST_P(EventLogConformance, EndOffsetFollowsAppends) {
  const std::string t = NewTopic("end", 2);
  EXPECT_EQ(End(t, 0), 0);
  EXPECT_EQ(End(t, 1), 0);
  int64_t prev = 0;
  for (int i = 0; i < 5; ++i) {
    absl::StatusOr<std::vector<Position>> p =
        log_->Append({Rec(t, "", absl::StrCat(i), 1)});
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_GE((*p)[0].offset, prev);
    const int64_t end = End(t, 1);
    // Visible as soon as the append is acknowledged.
    EXPECT_GT(end, (*p)[0].offset);
    if (Dense()) {
      EXPECT_EQ(end, i + 1);
    }
    prev = end;
  }
  EXPECT_EQ(End(t, 0), 0);
  EXPECT_EQ(ReadAll(t, 1).size(), 5u);
}

TEST_P(EventLogConformance, MultiPartitionBatchIsAtomic) {
  const std::string a = NewTopic("atomic-a", 2);
  const std::string b = NewTopic("atomic-b", 1);
  ASSERT_TRUE(log_->Append({Rec(a, "", "a0", 0), Rec(a, "", "a1", 1),
                            Rec(b, "", "b0", 0), Rec(a, "", "a0'", 0)})
                  .ok());
  const int64_t end_a0 = End(a, 0), end_a1 = End(a, 1), end_b0 = End(b, 0);
  // One bad record anywhere: nothing of the batch is stored.
  absl::StatusOr<std::vector<Position>> bad = log_->Append(
      {Rec(a, "", "x", 0), Rec(b, "", "y", 0), Rec(a, "", "z", 2)});
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  bad = log_->Append({Rec(a, "", "x", 0), Rec(b, "", "y", 0),
                      Rec(Topic("missing"), "", "z", 0)});
  EXPECT_EQ(bad.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(End(a, 0), end_a0);
  EXPECT_EQ(End(a, 1), end_a1);
  EXPECT_EQ(End(b, 0), end_b0);
  EXPECT_EQ(Values(ReadAll(a, 0)), (std::vector<std::string>{"a0", "a0'"}));
  EXPECT_EQ(Values(ReadAll(a, 1)), (std::vector<std::string>{"a1"}));
  EXPECT_EQ(Values(ReadAll(b, 0)), (std::vector<std::string>{"b0"}));
}

TEST_P(EventLogConformance, MultiPartitionBatchBecomesVisibleTogether) {
  // Each batch writes sequence number i to both a/0 and b/0. A reader that
  // sees i in b, then reads a, must find i in a: no half-visible batch.
  const std::string a = NewTopic("together-a", 1);
  const std::string b = NewTopic("together-b", 1);
  constexpr int kBatches = 40;
  std::atomic<bool> stop{false};
  std::atomic<int> checks{0};
  std::thread reader([&] {
    int64_t next_a = 0, next_b = 0;
    std::set<std::string> seen_a;
    while (!stop.load()) {
      std::vector<std::string> new_b;
      auto rb = log_->Read(b, 0, next_b, 1000);
      ASSERT_TRUE(rb.ok()) << rb.status();
      for (const StoredRecord& r : *rb) {
        new_b.push_back(r.value);
        next_b = r.offset + 1;
      }
      for (;;) {
        auto ra = log_->Read(a, 0, next_a, 1000);
        ASSERT_TRUE(ra.ok()) << ra.status();
        if (ra->empty()) break;
        for (const StoredRecord& r : *ra) {
          seen_a.insert(r.value);
          next_a = r.offset + 1;
        }
      }
      // Embedded: a batch becomes visible in one step. Kafka: the outcome
      // is atomic, but the coordinator writes each partition's commit
      // marker separately, so `a` may show the batch a moment after `b`.
      const auto deadline = absl::Now() + absl::Seconds(10);
      for (const std::string& v : new_b) {
        while (!seen_a.contains(v) && !Dense() && absl::Now() < deadline) {
          auto ra = log_->Read(a, 0, next_a, 1000);
          ASSERT_TRUE(ra.ok()) << ra.status();
          for (const StoredRecord& r : *ra) {
            seen_a.insert(r.value);
            next_a = r.offset + 1;
          }
          if (ra->empty()) absl::SleepFor(absl::Milliseconds(1));
        }
        ASSERT_TRUE(seen_a.contains(v)) << v << " visible in b, not in a";
      }
      ++checks;
    }
  });
  for (int i = 0; i < kBatches; ++i) {
    ASSERT_TRUE(log_->Append({Rec(a, "", absl::StrCat(i), 0),
                              Rec(b, "", absl::StrCat(i), 0)})
                    .ok());
  }
  // On a loaded machine the writer may finish before the reader's first
  // look: let it look at least once at the finished batches.
  const absl::Time look_by = absl::Now() + absl::Seconds(10);
  while (checks.load() == 0 && absl::Now() < look_by) {
    absl::SleepFor(absl::Milliseconds(1));
  }
  stop = true;
  reader.join();
  EXPECT_GT(checks.load(), 0);
  EXPECT_EQ(ReadAll(a, 0).size(), static_cast<size_t>(kBatches));
  EXPECT_EQ(ReadAll(b, 0).size(), static_cast<size_t>(kBatches));
}

TEST_P(EventLogConformance, ConsumerOffsetsCommitAndRead) {
  const std::string in = NewTopic("in", 2);
  const std::string out = NewTopic("out", 1);
  const std::string g = "g-" + RandomHex(), h = "h-" + RandomHex();
  EXPECT_EQ(Committed(g, in, 1), 0);
  ASSERT_TRUE(log_->CommitOffsets({{g, in, 0, 5}, {h, in, 0, 2}}).ok());
  EXPECT_EQ(Committed(g, in, 0), 5);
  EXPECT_EQ(Committed(h, in, 0), 2);
  EXPECT_EQ(Committed(g, in, 1), 0);
  ASSERT_TRUE(log_->CommitOffsets({{g, in, 0, 9}}).ok());
  EXPECT_EQ(Committed(g, in, 0), 9);
  EXPECT_EQ(log_->CommittedOffset(g, Topic("nope"), 0).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(log_->CommittedOffset(g, in, 2).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log_->CommittedOffset("", in, 0).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log_->CommitOffsets({{g, in, 5, 1}}).code(),
            StatusCode::kInvalidArgument);
  (void)out;
}

TEST_P(EventLogConformance, OffsetsCommitAtomicallyWithRecords) {
  const std::string in = NewTopic("ctp-in", 2);
  const std::string out = NewTopic("ctp-out", 1);
  const std::string g = "g-" + RandomHex();
  // Consume-transform-produce: output and the input offset in one batch.
  ASSERT_TRUE(log_->Append({Rec(out, "", "derived", 0)}, {{g, in, 1, 7}}).ok());
  EXPECT_EQ(Committed(g, in, 1), 7);
  const int64_t end = End(out, 0);
  // A bad commit fails the whole batch, records included, and a bad record
  // fails the commits.
  EXPECT_EQ(log_->Append({Rec(out, "", "lost", 0)}, {{g, Topic("nope"), 0, 9}})
                .status()
                .code(),
            StatusCode::kNotFound);
  EXPECT_EQ(
      log_->Append({Rec(out, "", "lost", 0)}, {{g, in, 2, 9}}).status().code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(
      log_->Append({Rec(out, "", "lost", 0)}, {{"", in, 0, 9}}).status().code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(
      log_->Append({Rec(out, "", "lost", 0)}, {{g, in, 0, -1}}).status().code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(
      log_->Append({Rec(out, std::string(kMaxKeyBytes + 1, 'k'), "lost", 0)},
                   {{g, in, 1, 99}})
          .status()
          .code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(End(out, 0), end);
  EXPECT_EQ(Committed(g, in, 1), 7);
  EXPECT_EQ(Committed(g, in, 0), 0);
  EXPECT_EQ(Values(ReadAll(out, 0)), (std::vector<std::string>{"derived"}));
  // A second step moves both together again.
  ASSERT_TRUE(log_->Append({Rec(out, "", "derived2", 0)},
                           {{g, in, 1, 8}, {g, in, 0, 3}})
                  .ok());
  EXPECT_EQ(Committed(g, in, 1), 8);
  EXPECT_EQ(Committed(g, in, 0), 3);
  EXPECT_EQ(Values(ReadAll(out, 0)),
            (std::vector<std::string>{"derived", "derived2"}));
}

// Consumer groups. Sessions are short so a silent member is presumed dead
// within seconds (tools/kafka-local lowers the broker's minimum to 500 ms).
constexpr int kGroupSessionMs = 1500;

std::unique_ptr<GroupMember> Join(EventLog& log, const std::string& group,
                                  const std::string& topic) {
  GroupOptions o;
  o.group = group;
  o.topic = topic;
  o.session_timeout_ms = kGroupSessionMs;
  absl::StatusOr<std::unique_ptr<GroupMember>> m = log.JoinGroup(o);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : nullptr;
}

// Polls every member (a silent one is left out) until `done` holds for their
// assignments, for up to 60 s (a Kafka rebalance waits for every member).
bool PollUntil(const std::vector<GroupMember*>& members,
               const std::function<bool(const std::vector<Assignment>&)>& done,
               std::vector<Assignment>* last = nullptr) {
  const absl::Time give_up = absl::Now() + absl::Seconds(60);
  std::vector<Assignment> got(members.size());
  while (absl::Now() < give_up) {
    for (size_t i = 0; i < members.size(); ++i) {
      absl::StatusOr<Assignment> a = members[i]->Poll();
      EXPECT_TRUE(a.ok()) << a.status();
      if (a.ok()) got[i] = *a;
    }
    if (done(got)) {
      if (last != nullptr) *last = got;
      return true;
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
  if (last != nullptr) *last = got;
  return false;
}

// The assignments split partitions 0..n-1 among all members, none empty.
bool Splits(const std::vector<Assignment>& as, int n) {
  std::set<int> seen;
  size_t total = 0;
  for (const Assignment& a : as) {
    if (a.partitions.empty()) return false;
    total += a.partitions.size();
    seen.insert(a.partitions.begin(), a.partitions.end());
  }
  return total == static_cast<size_t>(n) && seen.size() == total &&
         *seen.begin() == 0 && *seen.rbegin() == n - 1;
}

TEST_P(EventLogConformance, GroupMembersSplitPartitionsAndRebalanceOnLeave) {
  const std::string in = NewTopic("group-in", 4);
  const std::string g = "members-" + RandomHex();
  std::unique_ptr<GroupMember> a = Join(*log_, g, in);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->group(), g);
  EXPECT_EQ(a->topic(), in);
  std::vector<Assignment> got;
  ASSERT_TRUE(PollUntil({a.get()}, [](auto& as) { return Splits(as, 4); }));
  std::unique_ptr<GroupMember> b = Join(*log_, g, in);
  ASSERT_NE(b, nullptr);
  ASSERT_TRUE(PollUntil(
      {a.get(), b.get()}, [](auto& as) { return Splits(as, 4); }, &got))
      << "a has " << got[0].partitions.size() << ", b has "
      << got[1].partitions.size();
  EXPECT_EQ(got[0].partitions.size(), 2u);
  EXPECT_EQ(got[1].partitions.size(), 2u);
  // Leaving hands the partitions over without a session timeout.
  const absl::Time left = absl::Now();
  b.reset();
  ASSERT_TRUE(PollUntil({a.get()}, [](auto& as) { return Splits(as, 4); }));
  EXPECT_LT(absl::Now() - left, absl::Milliseconds(kGroupSessionMs) * 10);
}

// Kafka's eager protocol with KIP-447: a member that joins starts a
// rebalance, but the others' generation stands until each has taken part
// (polled), so their appends in between are not fenced. A wallet relies on
// it: it finishes its appends before it polls, and so is never fenced
// while alive.
TEST_P(EventLogConformance,
       GroupAppendsStandUntilTheMemberTakesPartInARebalance) {
  const std::string in = NewTopic("rejoin-in", 2);
  const std::string out = NewTopic("rejoin-out", 1);
  const std::string g = "rejoin-" + RandomHex();
  std::unique_ptr<GroupMember> a = Join(*log_, g, in);
  ASSERT_NE(a, nullptr);
  std::vector<Assignment> got;
  ASSERT_TRUE(PollUntil({a.get()}, [](auto& as) { return Splits(as, 2); }));
  std::unique_ptr<GroupMember> b = Join(*log_, g, in);
  ASSERT_NE(b, nullptr);
  for (int i = 0; i < 5; ++i) {
    absl::StatusOr<Assignment> waiting = b->Poll();
    ASSERT_TRUE(waiting.ok()) << waiting.status();
    EXPECT_TRUE(waiting->partitions.empty());
    absl::SleepFor(absl::Milliseconds(100));
  }
  ASSERT_TRUE(
      a->Append({Rec(out, "", "old-generation", 0)}, {{g, in, 1, 5}}).ok());
  ASSERT_TRUE(PollUntil(
      {a.get(), b.get()}, [](auto& as) { return Splits(as, 2); }, &got));
  GroupMember* owner1 = got[0].partitions[0] == 1 ? a.get() : b.get();
  ASSERT_TRUE(
      owner1->Append({Rec(out, "", "new-generation", 0)}, {{g, in, 1, 6}})
          .ok());
  EXPECT_EQ(Committed(g, in, 1), 6);
  EXPECT_EQ(Values(ReadAll(out, 0)),
            (std::vector<std::string>{"old-generation", "new-generation"}));
}

TEST_P(EventLogConformance,
       GroupMemberResumesExactlyWhereThePreviousOwnerStopped) {
  const std::string in = NewTopic("takeover-in", 2);
  const std::string out = NewTopic("takeover-out", 1);
  const std::string g = "takeover-" + RandomHex();
  std::unique_ptr<GroupMember> a = Join(*log_, g, in);
  std::unique_ptr<GroupMember> b = Join(*log_, g, in);
  ASSERT_TRUE(a != nullptr && b != nullptr);
  std::vector<Assignment> got;
  ASSERT_TRUE(PollUntil(
      {a.get(), b.get()}, [](auto& as) { return Splits(as, 2); }, &got));
  GroupMember* owner0 = got[0].partitions[0] == 0 ? a.get() : b.get();
  // The owner of partition 0 processes records up to 41: derived output and
  // the offset together.
  ASSERT_TRUE(
      owner0->Append({Rec(out, "", "from-0", 0)}, {{g, in, 0, 42}}).ok());
  // Taking over: the other member gets partition 0 and its committed offset.
  std::unique_ptr<GroupMember>& leaving = owner0 == a.get() ? a : b;
  std::unique_ptr<GroupMember>& staying = owner0 == a.get() ? b : a;
  leaving.reset();
  ASSERT_TRUE(
      PollUntil({staying.get()}, [](auto& as) { return Splits(as, 2); }));
  EXPECT_EQ(Committed(g, in, 0), 42);
  ASSERT_TRUE(
      staying->Append({Rec(out, "", "from-0-again", 0)}, {{g, in, 0, 43}})
          .ok());
  EXPECT_EQ(Committed(g, in, 0), 43);
  EXPECT_EQ(Values(ReadAll(out, 0)),
            (std::vector<std::string>{"from-0", "from-0-again"}));
}

TEST_P(EventLogConformance, SilentGroupMemberIsPresumedDeadAndFenced) {
  const std::string in = NewTopic("zombie-in", 4);
  const std::string out = NewTopic("zombie-out", 1);
  const std::string g = "zombie-" + RandomHex();
  std::unique_ptr<GroupMember> zombie = Join(*log_, g, in);
  std::unique_ptr<GroupMember> live = Join(*log_, g, in);
  ASSERT_TRUE(zombie != nullptr && live != nullptr);
  std::vector<Assignment> got;
  ASSERT_TRUE(PollUntil(
      {zombie.get(), live.get()}, [](auto& as) { return Splits(as, 4); },
      &got));
  const int zombies_partition = got[0].partitions[0];
  ASSERT_TRUE(zombie
                  ->Append({Rec(out, "", "before-pause", 0)},
                           {{g, in, zombies_partition, 10}})
                  .ok());
  // The zombie pauses (stops polling); the live member takes everything
  // once the session times out.
  ASSERT_TRUE(PollUntil({live.get()}, [](auto& as) { return Splits(as, 4); }));
  const int64_t end = End(out, 0);
  // Back from its pause, the zombie still believes it owns the partition:
  // its append is refused whole.
  absl::StatusOr<std::vector<Position>> late = zombie->Append(
      {Rec(out, "", "zombie-write", 0)}, {{g, in, zombies_partition, 11}});
  EXPECT_EQ(late.status().code(), StatusCode::kFailedPrecondition)
      << late.status();
  // (On Kafka the aborted transaction leaves its records and an abort
  // marker behind the end offset; no reader ever gets them.)
  if (Dense()) {
    EXPECT_EQ(End(out, 0), end);
  }
  EXPECT_EQ(Committed(g, in, zombies_partition), 10);
  EXPECT_EQ(Values(ReadAll(out, 0)),
            (std::vector<std::string>{"before-pause"}));
  // The live member carries on from the zombie's last commit.
  ASSERT_TRUE(live->Append({Rec(out, "", "live-write", 0)},
                           {{g, in, zombies_partition, 11}})
                  .ok());
  EXPECT_EQ(Committed(g, in, zombies_partition), 11);
}

TEST_P(EventLogConformance, GroupBadInputIsRefusedAndStoresNothing) {
  const std::string in = NewTopic("group-bad", 2);
  const std::string out = NewTopic("group-bad-out", 1);
  const std::string g = "bad-" + RandomHex();
  GroupOptions o;
  o.group = g;
  o.topic = Topic("missing");
  EXPECT_EQ(log_->JoinGroup(o).status().code(), StatusCode::kNotFound);
  o.topic = in;
  o.group = "";
  EXPECT_EQ(log_->JoinGroup(o).status().code(), StatusCode::kInvalidArgument);
  o.group = g;
  o.session_timeout_ms = 1;
  EXPECT_EQ(log_->JoinGroup(o).status().code(), StatusCode::kInvalidArgument);

  std::unique_ptr<GroupMember> m = Join(*log_, g, in);
  ASSERT_NE(m, nullptr);
  std::vector<Assignment> got;
  ASSERT_TRUE(PollUntil({m.get()}, [](auto& as) { return Splits(as, 2); }));
  auto code = [&](std::vector<OffsetCommit> commits) {
    return m->Append({Rec(out, "", "never", 0)}, std::move(commits))
        .status()
        .code();
  };
  EXPECT_EQ(code({}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({{"other-group", in, 0, 1}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({{g, out, 0, 1}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({{g, in, 2, 1}}), StatusCode::kFailedPrecondition);
  EXPECT_EQ(code({{g, in, 0, -1}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(End(out, 0), 0);
  EXPECT_EQ(Committed(g, in, 0), 0);
}

TEST_P(EventLogConformance, InvalidInputIsRejectedAndStoresNothing) {
  const std::string t = NewTopic("invalid", 2);
  ASSERT_TRUE(log_->Append({Rec(t, "", "ok", 0)}).ok());
  const int64_t end0 = End(t, 0), end1 = End(t, 1);

  auto code = [&](std::vector<Record> recs) {
    return log_->Append(std::move(recs)).status().code();
  };
  EXPECT_EQ(code({Rec(Topic("missing"), "", "v")}), StatusCode::kNotFound);
  EXPECT_EQ(code({Rec(t, "", "v", 2)}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({Rec(t, "", "v", -2)}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({Rec(t, std::string(kMaxKeyBytes + 1, 'k'), "v")}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code({Rec(t, "", std::string(kMaxRecordBytes + 1, 'v'))}),
            StatusCode::kInvalidArgument);
  {
    Record r = Rec(t, "", "v");
    r.headers.resize(kMaxHeaders + 1);
    EXPECT_EQ(code({r}), StatusCode::kInvalidArgument);
    r.headers = {{"h", std::string(kMaxRecordBytes, 'h')}};
    EXPECT_EQ(code({r}), StatusCode::kInvalidArgument);
    r.headers = {{std::string(kMaxKeyBytes + 1, 'h'), ""}};
    EXPECT_EQ(code({r}), StatusCode::kInvalidArgument);
    r.headers.clear();
    r.timestamp_micros = -5;
    EXPECT_EQ(code({r}), StatusCode::kInvalidArgument);
  }
  EXPECT_EQ(code({Rec("", "", "v")}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({Rec("bad/name", "", "v")}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({Rec(std::string(kMaxTopicNameBytes + 1, 'a'), "", "v")}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code({Rec("__consumer_offsets", "", "v", 0)}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code(std::vector<Record>(kMaxBatchRecords + 1, Rec(t, "", "v"))),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(
      code(std::vector<Record>(internal::kMaxBatchBytes / kMaxRecordBytes + 1,
                               Rec(t, "", std::string(kMaxRecordBytes, 'v')))),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(code({Rec(t, "", "a", 0), Rec(t, "", "b", 1),
                  Rec(t, std::string(kMaxKeyBytes + 1, 'k'), "c")}),
            StatusCode::kInvalidArgument);

  EXPECT_EQ(log_->EnsureTopic({"", 1}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(log_->EnsureTopic({Topic("x"), 0}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log_->EnsureTopic({Topic("x"), kMaxPartitions + 1}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log_->EnsureTopic({"__internal", 1}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log_->EnsureTopic({"bad/name", 1}).code(),
            StatusCode::kInvalidArgument);

  EXPECT_EQ(log_->Read(t, 0, -1, 10).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log_->Read(t, 2, 0, 10).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log_->Read(t, -1, 0, 10).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log_->EndOffset(t, 5).status().code(),
            StatusCode::kInvalidArgument);

  EXPECT_EQ(End(t, 0), end0);
  EXPECT_EQ(End(t, 1), end1);
  EXPECT_EQ(Values(ReadAll(t, 0)), (std::vector<std::string>{"ok"}));
  EXPECT_TRUE(ReadAll(t, 1).empty());
}

TEST_P(EventLogConformance, UnknownTopicIsNotFound) {
  const std::string t = Topic("unknown");
  EXPECT_EQ(log_->PartitionCount(t).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(log_->Read(t, 0, 0, 10).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(log_->EndOffset(t, 0).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(log_->Append({Rec(t, "", "v")}).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(log_->CommittedOffset("g", t, 0).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(log_->CommitOffsets({{"g", t, 0, 1}}).code(),
            StatusCode::kNotFound);
}

TEST_P(EventLogConformance, EnsureTopicIsIdempotentAndChecksPartitions) {
  const std::string t = NewTopic("ensure", 3);
  EXPECT_TRUE(log_->EnsureTopic({t, 3}).ok());
  EXPECT_EQ(log_->EnsureTopic({t, 2}).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(log_->EnsureTopic({t, 4}).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(*log_->PartitionCount(t), 3);

  // Many callers racing to create one topic all succeed.
  const std::string shared = Topic("shared");
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 6; ++i) {
    threads.emplace_back([&] {
      absl::Status s = log_->EnsureTopic({shared, 2});
      EXPECT_TRUE(s.ok()) << s;
      if (s.ok()) ++ok;
      if (log_->PartitionCount(shared).ok()) ++ok;
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(ok.load(), 12);

  // A second client of the same cluster sees the topic as it is (the
  // embedded log has one client per directory).
  if (GetParam() == Backend::kKafka) {
    std::unique_ptr<EventLog> other = Open();
    ASSERT_NE(other, nullptr);
    EXPECT_EQ(*other->PartitionCount(t), 3);
    EXPECT_TRUE(other->EnsureTopic({t, 3}).ok());
    EXPECT_EQ(other->EnsureTopic({t, 1}).code(),
              StatusCode::kFailedPrecondition);
  }
}

TEST_P(EventLogConformance, EmptyAppendSucceeds) {
  absl::StatusOr<std::vector<Position>> p = log_->Append({});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->empty());
}

TEST_P(EventLogConformance, ConcurrentAppendersAllPresentExactlyOnce) {
  constexpr int kThreads = 6;
  constexpr int kPerThread = 300;
  constexpr int kInFlight = 16;
  constexpr int kPartitions = 4;
  const std::string t = NewTopic("concurrent", kPartitions);

  std::atomic<bool> stop{false};
  std::atomic<int64_t> reader_checks{0};
  std::thread reader([&] {
    std::vector<int64_t> next(kPartitions, 0);
    while (!stop.load()) {
      for (int p = 0; p < kPartitions; ++p) {
        auto r = log_->Read(t, p, next[p], 500);
        ASSERT_TRUE(r.ok()) << r.status();
        for (const StoredRecord& s : *r) {
          ASSERT_GE(s.offset, next[p]);
          next[p] = s.offset + 1;
        }
        ++reader_checks;
      }
    }
  });
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int w = 0; w < kThreads; ++w) {
    writers.emplace_back([&, w] {
      std::mutex mu;
      std::condition_variable cv;
      int in_flight = 0;
      for (int i = 0; i < kPerThread; ++i) {
        {
          std::unique_lock l(mu);
          cv.wait(l, [&] { return in_flight < kInFlight; });
          ++in_flight;
        }
        // The key pins each writer to one partition, so the writer's order
        // must survive within it.
        log_->AppendAsync(
            {Rec(t, absl::StrCat("writer-", w), absl::StrCat(w, ":", i))}, {},
            [&](absl::Status s, std::vector<Position> p) {
              if (!s.ok() || p.size() != 1) ++failures;
              std::lock_guard l(mu);
              --in_flight;
              cv.notify_one();
            });
      }
      std::unique_lock l(mu);
      cv.wait(l, [&] { return in_flight == 0; });
    });
  }
  for (std::thread& w : writers) w.join();
  stop = true;
  reader.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GT(reader_checks.load(), 0);

  std::set<std::string> seen;
  std::vector<int> last(kThreads, -1);
  int64_t total = 0;
  for (int p = 0; p < kPartitions; ++p) {
    for (const StoredRecord& r : ReadAll(t, p)) {
      ++total;
      ASSERT_TRUE(seen.insert(r.value).second) << "twice: " << r.value;
      const size_t colon = r.value.find(':');
      const int w = std::stoi(r.value.substr(0, colon));
      const int n = std::stoi(r.value.substr(colon + 1));
      ASSERT_EQ(PartitionForKey(absl::StrCat("writer-", w), kPartitions), p);
      ASSERT_GT(n, last[w]) << "writer " << w << " out of order";
      last[w] = n;
    }
  }
  EXPECT_EQ(total, kThreads * kPerThread);
}

// One caller issues appends without waiting: single-partition batches,
// batches spanning partitions (on Kafka with several lanes, often partitions
// of different lanes), and batches carrying an offset commit. Within every
// partition records and commits must land in issue order, and so must the
// positions the callbacks report.
void CheckIssueOrder(
    EventLog& log, const std::string& t, const std::string& in,
    const std::function<std::vector<StoredRecord>(int)>& all,
    const std::function<int64_t(const std::string&, int)>& committed) {
  constexpr int kPartitions = 8;
  constexpr int kBatches = 600;
  constexpr int kInFlight = 200;
  const std::string g = "g-" + RandomHex();
  std::mt19937 rng(7);
  std::mutex mu;
  std::condition_variable cv;
  int in_flight = 0, failures = 0;
  // Per partition: the offsets the callbacks reported, by issue number.
  std::map<int, std::map<int, int64_t>> reported;
  std::vector<int64_t> last_commit(kPartitions, 0);
  for (int i = 0; i < kBatches; ++i) {
    {
      std::unique_lock l(mu);
      cv.wait(l, [&] { return in_flight < kInFlight; });
      ++in_flight;
    }
    const int p = static_cast<int>(rng() % kPartitions);
    std::vector<Record> records = {Rec(t, "", absl::StrCat(i), p)};
    std::vector<OffsetCommit> commits;
    const int kind = static_cast<int>(rng() % 4);
    if (kind == 1) {
      const int q =
          (p + 1 + static_cast<int>(rng() % (kPartitions - 1))) % kPartitions;
      records.push_back(Rec(t, "", absl::StrCat(i), q));
    } else if (kind == 2) {
      const int c = static_cast<int>(rng() % kPartitions);
      commits.push_back({g, in, c, i + 1});
      last_commit[c] = i + 1;
    }
    log.AppendAsync(std::move(records), std::move(commits),
                    [&, i](absl::Status s, std::vector<Position> pos) {
                      std::lock_guard l(mu);
                      if (!s.ok()) ++failures;
                      for (const Position& x : pos) {
                        reported[x.partition][i] = x.offset;
                      }
                      --in_flight;
                      cv.notify_one();
                    });
  }
  {
    std::unique_lock l(mu);
    cv.wait(l, [&] { return in_flight == 0; });
  }
  EXPECT_EQ(failures, 0);
  int64_t total = 0;
  for (int p = 0; p < kPartitions; ++p) {
    int last = -1;
    for (const StoredRecord& r : all(p)) {
      const int i = std::stoi(r.value);
      ASSERT_GT(i, last) << "partition " << p << " out of issue order";
      last = i;
      ++total;
      EXPECT_EQ(reported[p][i], r.offset);
    }
    int64_t prev = -1;
    for (const auto& [i, offset] : reported[p]) {
      ASSERT_GT(offset, prev) << "callback positions out of issue order";
      prev = offset;
    }
    EXPECT_EQ(committed(g, p), last_commit[p]) << "partition " << p;
  }
  int64_t expected = 0;
  for (const auto& [p, by_issue] : reported) {
    expected += static_cast<int64_t>(by_issue.size());
  }
  EXPECT_EQ(total, expected);
  EXPECT_GE(total, kBatches);
}

TEST_P(EventLogConformance, IssueOrderHoldsInEveryPartitionForMixedBatches) {
  auto check = [&](EventLog& log) {
    const std::string t = NewTopic("mixed-order", 8);
    const std::string in = NewTopic("mixed-order-in", 8);
    CheckIssueOrder(
        log, t, in, [&](int p) { return ReadAll(t, p, &log); },
        [&](const std::string& g, int p) {
          absl::StatusOr<int64_t> c = log.CommittedOffset(g, in, p);
          EXPECT_TRUE(c.ok()) << c.status();
          return c.ok() ? *c : -1;
        });
  };
  check(*log_);
  if (GetParam() == Backend::kKafka) {
    // The default is one lane; four lanes take turns and run in parallel,
    // with the batches that span them in between.
    KafkaLogOptions o;
    o.bootstrap_servers = bootstrap_;
    o.client_id = "banca-conformance";
    o.request_timeout_ms = 10'000;
    o.producers = 8;
    absl::StatusOr<std::unique_ptr<EventLog>> lanes = OpenKafkaLog(o);
    ASSERT_TRUE(lanes.ok()) << lanes.status();
    check(**lanes);
  }
}

TEST_P(EventLogConformance, RestartWithTheSameTransactionalIdFencesTheOld) {
  if (GetParam() == Backend::kEmbedded) {
    GTEST_SKIP() << "one process per directory (flock) is the embedded "
                    "log's fencing";
  }
  constexpr int kPartitions = 8;
  const std::string t = NewTopic("fence", kPartitions);
  KafkaLogOptions o;
  o.bootstrap_servers = bootstrap_;
  o.client_id = "banca-conformance";
  o.request_timeout_ms = 10'000;
  o.transactional_id = "fence-" + RandomHex();
  // Four lanes of two producers: a restart must fence every one of them,
  // whichever partitions (and so lanes) the old instance appends to.
  o.producers = 8;
  absl::StatusOr<std::unique_ptr<EventLog>> old_log = OpenKafkaLog(o);
  ASSERT_TRUE(old_log.ok()) << old_log.status();
  for (int p = 0; p < kPartitions; ++p) {
    ASSERT_TRUE((*old_log)->Append({Rec(t, "", "old", p)}).ok());
  }
  // The restarted instance: same id, so the old one is fenced, and stays
  // fenced (it must not fence the new one back by replacing its producer).
  absl::StatusOr<std::unique_ptr<EventLog>> new_log = OpenKafkaLog(o);
  ASSERT_TRUE(new_log.ok()) << new_log.status();
  for (int p = 0; p < kPartitions; ++p) {
    absl::StatusOr<std::vector<Position>> r =
        (*old_log)->Append({Rec(t, "", "zombie", p)});
    EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition)
        << "partition " << p << ": " << r.status();
  }
  for (int p = 0; p < kPartitions; ++p) {
    ASSERT_TRUE((*new_log)->Append({Rec(t, "", "new", p)}).ok());
    EXPECT_EQ(Values(ReadAll(t, p, new_log->get())),
              (std::vector<std::string>{"old", "new"}));
  }
}

TEST_P(EventLogConformance, OpeningFencesTheIdOfTheOneProducerVersion) {
  if (GetParam() == Backend::kEmbedded) {
    GTEST_SKIP() << "no transactional ids on the embedded log";
  }
  const std::string t = NewTopic("legacy-fence", 1);
  const std::string id = "legacy-" + RandomHex();
  // An instance of a version with one producer, which used the id itself,
  // in the middle of a transaction.
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  ASSERT_EQ(rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap_.c_str(),
                              err, sizeof(err)),
            RD_KAFKA_CONF_OK);
  ASSERT_EQ(
      rd_kafka_conf_set(conf, "transactional.id", id.c_str(), err, sizeof(err)),
      RD_KAFKA_CONF_OK);
  rd_kafka_t* old = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
  ASSERT_NE(old, nullptr) << err;
  ASSERT_EQ(rd_kafka_init_transactions(old, 10'000), nullptr);
  ASSERT_EQ(rd_kafka_begin_transaction(old), nullptr);
  char value[] = "zombie";
  ASSERT_EQ(rd_kafka_producev(
                old, RD_KAFKA_V_TOPIC(t.c_str()), RD_KAFKA_V_PARTITION(0),
                RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                RD_KAFKA_V_VALUE(value, sizeof(value) - 1), RD_KAFKA_V_END),
            RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(rd_kafka_flush(old, 10'000), RD_KAFKA_RESP_ERR_NO_ERROR);

  KafkaLogOptions o;
  o.bootstrap_servers = bootstrap_;
  o.client_id = "banca-conformance";
  o.request_timeout_ms = 10'000;
  o.transactional_id = id;
  absl::StatusOr<std::unique_ptr<EventLog>> log = OpenKafkaLog(o);
  ASSERT_TRUE(log.ok()) << log.status();
  rd_kafka_error_t* e = rd_kafka_commit_transaction(old, 10'000);
  EXPECT_NE(e, nullptr) << "the old instance was not fenced";
  if (e != nullptr) rd_kafka_error_destroy(e);
  rd_kafka_destroy(old);
  ASSERT_TRUE((*log)->Append({Rec(t, "", "new", 0)}).ok());
  EXPECT_EQ(Values(ReadAll(t, 0, log->get())),
            (std::vector<std::string>{"new"}));
}

TEST_P(EventLogConformance, ReopenKeepsEverything) {
  const std::string t = NewTopic("reopen", 2);
  const std::string g = "g-" + RandomHex();
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(log_->Append({Rec(t, "", absl::StrCat(i), i % 2)},
                             {{g, t, i % 2, i / 2 + 1}})
                    .ok());
  }
  log_.reset();
  log_ = Open();
  ASSERT_NE(log_, nullptr);
  EXPECT_EQ(*log_->PartitionCount(t), 2);
  EXPECT_EQ(Values(ReadAll(t, 0)), (std::vector<std::string>{"0", "2", "4"}));
  EXPECT_EQ(Values(ReadAll(t, 1)), (std::vector<std::string>{"1", "3", "5"}));
  EXPECT_EQ(Committed(g, t, 0), 3);
  EXPECT_EQ(Committed(g, t, 1), 3);
  absl::StatusOr<std::vector<Position>> p =
      log_->Append({Rec(t, "", "new", 1)});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(Values(ReadAll(t, 1)),
            (std::vector<std::string>{"1", "3", "5", "new"}));
}

INSTANTIATE_TEST_SUITE_P(Backends, EventLogConformance,
                         ::testing::Values(Backend::kEmbedded, Backend::kKafka),
                         BackendName);

TEST(KafkaSpec, Parses) {
  absl::StatusOr<KafkaLogOptions> o = ParseKafkaSpec(
      "kafka://a:9092,b:9093?replication_factor=3&min_insync_replicas=2&"
      "security.protocol=SASL_SSL&transactional_id=wallet-0");
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->bootstrap_servers, "a:9092,b:9093");
  EXPECT_EQ(o->replication_factor, 3);
  EXPECT_EQ(o->min_insync_replicas, 2);
  EXPECT_EQ(o->transactional_id, "wallet-0");
  EXPECT_EQ(o->producers, 2);
  EXPECT_EQ(ParseKafkaSpec("kafka://h:1?producers=4")->producers, 4);
  EXPECT_FALSE(ParseKafkaSpec("kafka://h:1?producers=x").ok());
  ASSERT_FALSE(o->properties.empty());
  EXPECT_EQ(o->properties[0], "security.protocol=SASL_SSL");
  EXPECT_FALSE(ParseKafkaSpec("kafka://").ok());
  EXPECT_FALSE(ParseKafkaSpec("kafka://host").ok());
  EXPECT_FALSE(ParseKafkaSpec("kafka://host:x").ok());
  EXPECT_FALSE(ParseKafkaSpec("kafka://h:1?bogus=1").ok());
  EXPECT_FALSE(ParseKafkaSpec("embedded").ok());
}

TEST(KafkaOptions, ReservedPropertiesAreRejected) {
  KafkaLogOptions o;
  o.bootstrap_servers = "127.0.0.1:1";
  o.properties = {"acks=1"};
  EXPECT_EQ(OpenKafkaLog(o).status().code(), StatusCode::kInvalidArgument);
  o.properties = {"isolation.level=read_uncommitted"};
  EXPECT_EQ(OpenKafkaLog(o).status().code(), StatusCode::kInvalidArgument);
  o.properties = {"no-equals"};
  EXPECT_EQ(OpenKafkaLog(o).status().code(), StatusCode::kInvalidArgument);
  o.properties = {};
  o.producers = 0;
  EXPECT_EQ(OpenKafkaLog(o).status().code(), StatusCode::kInvalidArgument);
  o.producers = 65;
  EXPECT_EQ(OpenKafkaLog(o).status().code(), StatusCode::kInvalidArgument);
}

TEST(KafkaOptions, NoBrokerIsUnavailable) {
  KafkaLogOptions o;
  // Nothing listens on port 1.
  o.bootstrap_servers = "127.0.0.1:1";
  o.request_timeout_ms = 1500;
  EXPECT_EQ(OpenKafkaLog(o).status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace banca::eventlog
