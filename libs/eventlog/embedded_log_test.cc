#include "libs/eventlog/embedded_log.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "libs/eventlog/journal_format.h"
#include "libs/eventlog/journal_scan.h"
#include "libs/eventlog/log_bench.h"

namespace banca::eventlog {
namespace {

namespace fs = std::filesystem;
using ::absl::StatusCode;

std::string NewDir() {
  std::string tmpl = ::testing::TempDir() + "/eventlog_XXXXXX";
  char* d = mkdtemp(tmpl.data());
  EXPECT_NE(d, nullptr);
  return std::string(d) + "/log";
}

std::unique_ptr<EventLog> MustOpen(const std::string& dir,
                                   EmbeddedLogOptions options = {}) {
  absl::StatusOr<std::unique_ptr<EventLog>> log = OpenEmbeddedLog(dir, options);
  EXPECT_TRUE(log.ok()) << log.status();
  return log.ok() ? std::move(*log) : nullptr;
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

std::vector<StoredRecord> ReadAll(EventLog& log, const std::string& topic,
                                  int partition) {
  std::vector<StoredRecord> out;
  for (;;) {
    absl::StatusOr<std::vector<StoredRecord>> r =
        log.Read(topic, partition, static_cast<int64_t>(out.size()), 97);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok() || r->empty()) return out;
    for (StoredRecord& s : *r) out.push_back(std::move(s));
  }
}

std::vector<std::string> Values(const std::vector<StoredRecord>& rs) {
  std::vector<std::string> v;
  for (const StoredRecord& r : rs) v.push_back(r.value);
  return v;
}

std::vector<internal::SegmentFile> Segments(const std::string& dir) {
  absl::StatusOr<std::vector<internal::SegmentFile>> s =
      internal::ListSegments(dir);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : std::vector<internal::SegmentFile>{};
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, std::string_view data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

// A directory holding one segment with exactly `data`.
std::string DirWithSegment(std::string_view data) {
  const std::string dir = NewDir();
  fs::create_directories(dir);
  WriteFile(dir + "/" + internal::SegmentFileName(0), data);
  return dir;
}

int64_t End(EventLog& log, const std::string& topic, int partition) {
  absl::StatusOr<int64_t> e = log.EndOffset(topic, partition);
  EXPECT_TRUE(e.ok()) << e.status();
  return e.ok() ? *e : -1;
}

TEST(EmbeddedLog, RoundTripAcrossTopicsAndPartitions) {
  const std::string dir = NewDir();
  auto log = MustOpen(dir);
  ASSERT_TRUE(log->EnsureTopic({"wallet", 3}).ok());
  ASSERT_TRUE(log->EnsureTopic({"table.events", 2}).ok());
  EXPECT_EQ(*log->PartitionCount("wallet"), 3);

  Record a = Rec("wallet", "player-1", "deposit", 2);
  a.headers = {{"type", "Deposited"}, {"schema", "1"}};
  a.timestamp_micros = 1234;
  Record b = Rec("table.events", "table-9", std::string("\0bin\xff", 5), 1);
  Record c = Rec("wallet", "player-2", "", 0);
  absl::StatusOr<std::vector<Position>> pos = log->Append({a, b, c});
  ASSERT_TRUE(pos.ok()) << pos.status();
  ASSERT_EQ(pos->size(), 3u);
  EXPECT_EQ((*pos)[0], (Position{"wallet", 2, 0}));
  EXPECT_EQ((*pos)[1], (Position{"table.events", 1, 0}));
  EXPECT_EQ((*pos)[2], (Position{"wallet", 0, 0}));

  auto got = ReadAll(*log, "wallet", 2);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].topic, "wallet");
  EXPECT_EQ(got[0].partition, 2);
  EXPECT_EQ(got[0].offset, 0);
  EXPECT_EQ(got[0].timestamp_micros, 1234);
  EXPECT_EQ(got[0].key, "player-1");
  EXPECT_EQ(got[0].headers, a.headers);
  EXPECT_EQ(got[0].value, "deposit");
  got = ReadAll(*log, "table.events", 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].value, b.value);
  // The log stamps records that carry no timestamp.
  got = ReadAll(*log, "wallet", 0);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_GT(got[0].timestamp_micros, 1'600'000'000'000'000);
  EXPECT_EQ(End(*log, "wallet", 1), 0);
  EXPECT_TRUE(ReadAll(*log, "table.events", 0).empty());

  absl::StatusOr<std::vector<TopicConfig>> topics = log->ListTopics();
  ASSERT_TRUE(topics.ok());
  ASSERT_EQ(topics->size(), 2u);
  EXPECT_EQ((*topics)[0].name, "table.events");
  EXPECT_EQ((*topics)[1].name, "wallet");
  EXPECT_EQ((*topics)[1].partitions, 3);
}

TEST(EmbeddedLog, KeyedRecordsGoToPartitionForKeyDenseAndInOrder) {
  auto log = MustOpen(NewDir());
  ASSERT_TRUE(log->EnsureTopic({"t", 4}).ok());
  std::map<int, std::vector<std::string>> expected;
  for (int i = 0; i < 200; ++i) {
    const std::string key = absl::StrCat("k", i % 13);
    const std::string value = absl::StrCat("v", i);
    absl::StatusOr<std::vector<Position>> p =
        log->Append({Rec("t", key, value)});
    ASSERT_TRUE(p.ok()) << p.status();
    const int part = PartitionForKey(key, 4);
    EXPECT_EQ((*p)[0].partition, part);
    EXPECT_EQ((*p)[0].offset, static_cast<int64_t>(expected[part].size()));
    expected[part].push_back(value);
  }
  for (int p = 0; p < 4; ++p) {
    auto got = ReadAll(*log, "t", p);
    EXPECT_EQ(Values(got), expected[p]);
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].offset, static_cast<int64_t>(i));
    }
  }
}

TEST(EmbeddedLog, ReadHonoursMaxRecordsAndEnd) {
  auto log = MustOpen(NewDir());
  ASSERT_TRUE(log->EnsureTopic({"t", 1}).ok());
  std::vector<Record> batch;
  for (int i = 0; i < 10; ++i) batch.push_back(Rec("t", "", absl::StrCat(i)));
  ASSERT_TRUE(log->Append(batch).ok());
  auto r = log->Read("t", 0, 3, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Values(*r), (std::vector<std::string>{"3", "4", "5", "6"}));
  r = log->Read("t", 0, 10, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
  r = log->Read("t", 0, 0, 0);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
}

TEST(EmbeddedLog, MultiPartitionBatchIsAtomic) {
  const std::string dir = NewDir();
  auto log = MustOpen(dir);
  ASSERT_TRUE(log->EnsureTopic({"a", 2}).ok());
  ASSERT_TRUE(log->EnsureTopic({"b", 1}).ok());
  ASSERT_TRUE(log->Append({Rec("a", "", "a0", 0), Rec("a", "", "a1", 1),
                           Rec("b", "", "b0", 0), Rec("a", "", "a0'", 0)})
                  .ok());
  // One bad record anywhere: nothing of the batch is stored.
  absl::StatusOr<std::vector<Position>> bad = log->Append(
      {Rec("a", "", "x", 0), Rec("b", "", "y", 0), Rec("a", "", "z", 2)});
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(End(*log, "a", 0), 2);
  EXPECT_EQ(End(*log, "a", 1), 1);
  EXPECT_EQ(End(*log, "b", 0), 1);
  EXPECT_EQ(Values(ReadAll(*log, "a", 0)),
            (std::vector<std::string>{"a0", "a0'"}));
  log.reset();
  // The journal holds exactly one batch of 4 records besides topics.
  absl::StatusOr<JournalScanReport> rep = ScanJournal(dir);
  ASSERT_TRUE(rep.ok());
  EXPECT_TRUE(rep->ok);
  EXPECT_EQ(rep->batches, 3);  // two topic records, one batch
  EXPECT_EQ(rep->records, 6);
  EXPECT_EQ(rep->torn_tail_bytes, 0);
}

TEST(EmbeddedLog, ReopenKeepsEverythingAndContinuesOffsets) {
  const std::string dir = NewDir();
  {
    auto log = MustOpen(dir);
    ASSERT_TRUE(log->EnsureTopic({"t", 2}).ok());
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(log->Append({Rec("t", "", absl::StrCat(i), i % 2)},
                              {{"g", "t", i % 2, i / 2 + 1}})
                      .ok());
    }
  }
  auto log = MustOpen(dir);
  EXPECT_EQ(*log->PartitionCount("t"), 2);
  EXPECT_EQ(End(*log, "t", 0), 10);
  EXPECT_EQ(End(*log, "t", 1), 10);
  EXPECT_EQ(*log->CommittedOffset("g", "t", 0), 10);
  EXPECT_EQ(*log->CommittedOffset("g", "t", 1), 10);
  EXPECT_TRUE(log->EnsureTopic({"t", 2}).ok());
  EXPECT_EQ(log->EnsureTopic({"t", 3}).code(), StatusCode::kFailedPrecondition);
  absl::StatusOr<std::vector<Position>> p =
      log->Append({Rec("t", "", "new", 1)});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ((*p)[0].offset, 10);
  auto got = ReadAll(*log, "t", 1);
  ASSERT_EQ(got.size(), 11u);
  EXPECT_EQ(got[0].value, "1");
  EXPECT_EQ(got[10].value, "new");
}

TEST(EmbeddedLog, SecondOpenOfSameDirectoryIsRefused) {
  const std::string dir = NewDir();
  auto log = MustOpen(dir);
  EXPECT_EQ(OpenEmbeddedLog(dir).status().code(),
            StatusCode::kFailedPrecondition);
}

TEST(EmbeddedLog, SegmentsRollAndReadsCrossThem) {
  const std::string dir = NewDir();
  EmbeddedLogOptions opt;
  opt.segment_bytes = 1000;
  std::vector<std::string> expected;
  {
    auto log = MustOpen(dir, opt);
    ASSERT_TRUE(log->EnsureTopic({"t", 2}).ok());
    for (int i = 0; i < 120; ++i) {
      std::vector<Record> batch;
      for (int k = 0; k < 1 + i % 3; ++k) {
        batch.push_back(Rec(
            "t", "",
            absl::StrCat("value-", i, "-", k, std::string(i % 50, 'x')), 0));
        expected.push_back(batch.back().value);
      }
      ASSERT_TRUE(log->Append(batch).ok());
    }
    EXPECT_EQ(Values(ReadAll(*log, "t", 0)), expected);
  }
  std::vector<internal::SegmentFile> segs = Segments(dir);
  ASSERT_GT(segs.size(), 10u);
  int64_t base = 0;
  for (const internal::SegmentFile& s : segs) {
    EXPECT_EQ(s.base, base);
    EXPECT_EQ(fs::path(s.path).filename().string(),
              absl::StrFormat("%020d.seg", base));
    const auto size = static_cast<int64_t>(fs::file_size(s.path));
    EXPECT_GT(size, 0);
    // A batch never spans segments; sizes stay near the limit.
    EXPECT_LE(size, 1000);
    base += size;
  }
  auto log = MustOpen(dir, opt);
  EXPECT_EQ(Values(ReadAll(*log, "t", 0)), expected);
  auto r = log->Read("t", 0, 50, 1000);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->size(), expected.size() - 50);
  EXPECT_EQ(r->front().value, expected[50]);
}

TEST(EmbeddedLog, OversizedBatchGetsItsOwnSegment) {
  const std::string dir = NewDir();
  EmbeddedLogOptions opt;
  opt.segment_bytes = 4096;
  auto log = MustOpen(dir, opt);
  ASSERT_TRUE(log->EnsureTopic({"t", 1}).ok());
  ASSERT_TRUE(log->Append({Rec("t", "", "small")}).ok());
  ASSERT_TRUE(log->Append({Rec("t", "", std::string(10000, 'b'))}).ok());
  ASSERT_TRUE(log->Append({Rec("t", "", "after")}).ok());
  EXPECT_EQ(
      Values(ReadAll(*log, "t", 0)),
      (std::vector<std::string>{"small", std::string(10000, 'b'), "after"}));
  log.reset();
  EXPECT_EQ(Segments(dir).size(), 3u);
  log = MustOpen(dir, opt);
  EXPECT_EQ(End(*log, "t", 0), 3);
}

// Appends `batches` (each a list of values) to topic "t" partition 0.
void AppendBatches(const std::string& dir,
                   const std::vector<std::vector<std::string>>& batches) {
  auto log = MustOpen(dir);
  ASSERT_TRUE(log->EnsureTopic({"t", 1}).ok());
  for (const auto& b : batches) {
    std::vector<Record> recs;
    for (const std::string& v : b) recs.push_back(Rec("t", "key", v, 0));
    ASSERT_TRUE(log->Append(recs).ok());
  }
}

TEST(EmbeddedLog, TornTailAtEveryByteKeepsExactlyTheCompleteBatches) {
  const std::string dir = NewDir();
  const std::vector<std::vector<std::string>> first = {
      {"b0-r0"}, {"b1-r0", "b1-r1"}, {"b2-r0", "b2-r1", "b2-r2"}};
  const std::vector<std::vector<std::string>> last = {
      {"last-r0", std::string(300, 'L'), "last-r2"}};
  AppendBatches(dir, first);
  const std::string seg = Segments(dir).at(0).path;
  const int64_t complete = static_cast<int64_t>(fs::file_size(seg));
  AppendBatches(dir, last);
  ASSERT_EQ(Segments(dir).size(), 1u);
  const std::string full = ReadFile(seg);
  ASSERT_GT(static_cast<int64_t>(full.size()), complete);

  std::vector<std::string> old_values;
  for (const auto& b : first)
    old_values.insert(old_values.end(), b.begin(), b.end());
  std::vector<std::string> all_values = old_values;
  all_values.insert(all_values.end(), last[0].begin(), last[0].end());

  for (int64_t len = complete; len <= static_cast<int64_t>(full.size());
       ++len) {
    SCOPED_TRACE(absl::StrCat("length ", len));
    const std::string copy =
        DirWithSegment(std::string_view(full).substr(0, len));
    absl::StatusOr<JournalScanReport> rep = ScanJournal(copy);
    ASSERT_TRUE(rep.ok());
    ASSERT_TRUE(rep->ok) << rep->error;
    const bool whole = len == static_cast<int64_t>(full.size());
    EXPECT_EQ(rep->torn_tail_bytes, whole ? 0 : len - complete);
    {
      auto log = MustOpen(copy);
      ASSERT_NE(log, nullptr);
      EXPECT_EQ(Values(ReadAll(*log, "t", 0)), whole ? all_values : old_values);
      // The tail was cut: new appends follow the last complete batch.
      ASSERT_TRUE(log->Append({Rec("t", "", "again", 0)}).ok());
    }
    auto log = MustOpen(copy);
    std::vector<std::string> want = whole ? all_values : old_values;
    want.push_back("again");
    EXPECT_EQ(Values(ReadAll(*log, "t", 0)), want);
  }
}

TEST(EmbeddedLog, BatchCutAfterItsFirstRecordIsDroppedWhole) {
  const std::string dir = NewDir();
  AppendBatches(dir, {{"keep"}});
  const std::string seg = Segments(dir).at(0).path;
  const int64_t complete = static_cast<int64_t>(fs::file_size(seg));
  AppendBatches(dir, {{"r0", "r1", "r2"}});
  const std::string full = ReadFile(seg);
  const uint32_t first_len = internal::LoadU32(full.data() + complete);
  const size_t cut = complete + internal::kFrameHeaderBytes + first_len;
  ASSERT_LT(cut, full.size());
  const std::string copy =
      DirWithSegment(std::string_view(full).substr(0, cut));
  auto log = MustOpen(copy);
  EXPECT_EQ(Values(ReadAll(*log, "t", 0)), (std::vector<std::string>{"keep"}));
  log.reset();
  // The cut was made durable: the file now ends at the complete batch.
  EXPECT_EQ(static_cast<int64_t>(
                fs::file_size(copy + "/" + internal::SegmentFileName(0))),
            complete);
}

TEST(EmbeddedLog, ZeroFilledTailFromACrashIsTorn) {
  const std::string dir = NewDir();
  AppendBatches(dir, {{"a"}, {"b", "c"}});
  const std::string full = ReadFile(Segments(dir).at(0).path);
  // Blocks allocated but never written, after a complete batch and after a
  // partial record.
  for (size_t cut : {full.size(), full.size() - 3}) {
    const std::string copy =
        DirWithSegment(full.substr(0, cut) + std::string(100000, '\0'));
    auto log = MustOpen(copy);
    const std::vector<std::string> want =
        cut == full.size() ? std::vector<std::string>{"a", "b", "c"}
                           : std::vector<std::string>{"a"};
    EXPECT_EQ(Values(ReadAll(*log, "t", 0)), want);
  }
}

TEST(EmbeddedLog, CopyOfALiveLogOpens) {
  // A live log's active segment carries preallocated zeros; a copy taken
  // mid-flight is what a crash leaves behind.
  const std::string dir = NewDir();
  auto log = MustOpen(dir);
  ASSERT_TRUE(log->EnsureTopic({"t", 1}).ok());
  ASSERT_TRUE(log->Append({Rec("t", "", "x", 0), Rec("t", "", "y", 0)}).ok());
  const std::string live = ReadFile(Segments(dir).at(0).path);
  EXPECT_GT(live.size(), 1000u);
  auto copy = MustOpen(DirWithSegment(live));
  EXPECT_EQ(Values(ReadAll(*copy, "t", 0)),
            (std::vector<std::string>{"x", "y"}));
}

// An auditor reads a stopped server's log, or a snapshot of it, without
// changing a byte: the torn tail stays on disk (and is not served), no lock
// file or segment is created, and nothing can be appended.
TEST(EmbeddedLog, ReadOnlyOpenChangesNothing) {
  const std::string dir = NewDir();
  AppendBatches(dir, {{"a"}, {"b", "c"}});
  const std::string full = ReadFile(Segments(dir).at(0).path);
  const std::string torn = full + std::string(1000, '\0');
  const std::string copy = DirWithSegment(torn);
  const std::string seg = copy + "/" + internal::SegmentFileName(0);
  const auto mtime = fs::last_write_time(seg);
  {
    auto log = MustOpen(copy, {.read_only = true});
    ASSERT_NE(log, nullptr);
    EXPECT_EQ(Values(ReadAll(*log, "t", 0)),
              (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(log->Append({Rec("t", "", "d", 0)}).status().code(),
              StatusCode::kFailedPrecondition);
    EXPECT_EQ(log->EnsureTopic({"u", 1}).code(),
              StatusCode::kFailedPrecondition);
    EXPECT_EQ(log->CommitOffsets({{"g", "t", 0, 1}}).code(),
              StatusCode::kFailedPrecondition);
  }
  EXPECT_EQ(ReadFile(seg), torn);
  EXPECT_EQ(fs::last_write_time(seg), mtime);
  EXPECT_FALSE(fs::exists(copy + "/LOCK"));
  EXPECT_EQ(std::distance(fs::directory_iterator(copy), {}), 1);
  // A missing directory is not created.
  EXPECT_FALSE(OpenEmbeddedLog(copy + "/none", {.read_only = true}).ok());
  EXPECT_FALSE(fs::exists(copy + "/none"));
  // A writer keeps a reader out, and the reverse.
  auto writer = MustOpen(dir);
  EXPECT_EQ(OpenEmbeddedLog(dir, {.read_only = true}).status().code(),
            StatusCode::kFailedPrecondition);
  writer.reset();
  auto reader = MustOpen(dir, {.read_only = true});
  EXPECT_EQ(OpenEmbeddedLog(dir).status().code(),
            StatusCode::kFailedPrecondition);
}

// Flips one byte at `at` of segment `index` of a copy of `dir`.
std::string CopyWithFlip(const std::string& dir, size_t index, size_t at) {
  const std::string copy = NewDir();
  fs::create_directories(copy);
  std::vector<internal::SegmentFile> segs = Segments(dir);
  for (size_t i = 0; i < segs.size(); ++i) {
    std::string data = ReadFile(segs[i].path);
    if (i == index) {
      EXPECT_LT(at, data.size());
      data[at] ^= 0x20;
    }
    WriteFile(copy + "/" + fs::path(segs[i].path).filename().string(), data);
  }
  return copy;
}

TEST(EmbeddedLog, CorruptionBeforeTheTailIsDataLoss) {
  const std::string dir = NewDir();
  std::vector<std::vector<std::string>> batches;
  for (int i = 0; i < 10; ++i) batches.push_back({absl::StrCat("value-", i)});
  AppendBatches(dir, batches);
  const std::string full = ReadFile(Segments(dir).at(0).path);
  // Frame starts: the topic record, then one record per batch.
  std::vector<size_t> starts;
  for (size_t p = 0; p < full.size();) {
    starts.push_back(p);
    p += internal::kFrameHeaderBytes + internal::LoadU32(full.data() + p);
  }
  ASSERT_EQ(starts.size(), 11u);
  // A body byte, a CRC byte and a length byte of an early record, and a
  // body byte of a record in the middle.
  for (size_t at :
       {starts[2] + 12, starts[2] + 5, starts[2] + 0, starts[6] + 15}) {
    SCOPED_TRACE(at);
    const std::string copy = CopyWithFlip(dir, 0, at);
    absl::StatusOr<JournalScanReport> rep = ScanJournal(copy);
    ASSERT_TRUE(rep.ok());
    EXPECT_FALSE(rep->ok);
    EXPECT_FALSE(rep->error.empty());
    EXPECT_EQ(OpenEmbeddedLog(copy).status().code(), StatusCode::kDataLoss);
    // Refusing to open changes nothing.
    EXPECT_EQ(ReadFile(copy + "/" + internal::SegmentFileName(0)).size(),
              full.size());
  }
  // Damage to the very last record is indistinguishable from a torn write
  // of it: that batch is dropped, everything before it is served.
  auto log = MustOpen(CopyWithFlip(dir, 0, starts[10] + 12));
  EXPECT_EQ(End(*log, "t", 0), 9);
}

// Issue 20, the live audit: a reader beside a running writer takes no
// lock and serves the prefix of complete batches there was when it opened;
// a later reader sees more. The writer keeps writing meanwhile.
TEST(EmbeddedLog, AReaderBesideTheWriterReadsTheCompletePrefix) {
  const std::string dir = NewDir();
  auto writer = MustOpen(dir);
  ASSERT_TRUE(writer->EnsureTopic({"t", 2}).ok());
  ASSERT_TRUE(
      writer->Append({Rec("t", "", "a", 0), Rec("t", "", "b", 1)}).ok());
  const EmbeddedLogOptions beside = {.read_only = true, .beside_writer = true};
  JournalScanReport scan;
  absl::StatusOr<std::unique_ptr<EventLog>> first =
      OpenEmbeddedLog(dir, beside, &scan);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(scan.ok);
  EXPECT_EQ(scan.batches, 2);  // the topic, then a and b
  // The writer's preallocated room is a tail the reader leaves alone.
  EXPECT_GT(scan.torn_tail_bytes, 0);
  ASSERT_TRUE(writer->Append({Rec("t", "", "c", 0)}).ok());
  EXPECT_EQ(Values(ReadAll(**first, "t", 0)), std::vector<std::string>{"a"});
  EXPECT_EQ(End(**first, "t", 0), 1);
  EXPECT_EQ((*first)->Append({Rec("t", "", "d", 0)}).status().code(),
            StatusCode::kFailedPrecondition);
  auto second = MustOpen(dir, beside);
  EXPECT_EQ(Values(ReadAll(*second, "t", 0)),
            (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(Values(ReadAll(*second, "t", 1)), std::vector<std::string>{"b"});
  // beside_writer is a reader's option only.
  EXPECT_EQ(OpenEmbeddedLog(dir, {.beside_writer = true}).status().code(),
            StatusCode::kInvalidArgument);
  // The writer still appends, and its lock still keeps a writer out.
  ASSERT_TRUE(writer->Append({Rec("t", "", "e", 1)}).ok());
  EXPECT_EQ(OpenEmbeddedLog(dir).status().code(),
            StatusCode::kFailedPrecondition);
}

// Beside a writer, a partial frame at the end is a write in progress and
// is not served; damage followed by valid records is still corruption
// (after the reader has looked again).
TEST(EmbeddedLog, BesideTheWriterATornTailIsNotCorruptionButDamageIs) {
  const std::string dir = NewDir();
  std::vector<std::vector<std::string>> batches;
  for (int i = 0; i < 4; ++i) batches.push_back({absl::StrCat("value-", i)});
  AppendBatches(dir, batches);
  const std::string full = ReadFile(Segments(dir).at(0).path);
  const EmbeddedLogOptions beside = {.read_only = true, .beside_writer = true};
  // Half of a last frame written, then the preallocated zeros.
  const std::string half =
      full + full.substr(full.size() - 20, 11) + std::string(4096, '\0');
  JournalScanReport scan;
  auto torn = OpenEmbeddedLog(DirWithSegment(half), beside, &scan);
  ASSERT_TRUE(torn.ok()) << torn.status();
  EXPECT_EQ(End(**torn, "t", 0), 4);
  EXPECT_EQ(scan.torn_tail_bytes, 11 + 4096);
  // A flipped byte in the second record, valid records after it.
  const size_t second =
      internal::kFrameHeaderBytes + internal::LoadU32(full.data()) +
      internal::kFrameHeaderBytes +
      internal::LoadU32(full.data() + internal::kFrameHeaderBytes +
                        internal::LoadU32(full.data()));
  const std::string copy = CopyWithFlip(dir, 0, second + 12);
  const absl::Time start = absl::Now();
  scan = {};
  EXPECT_EQ(OpenEmbeddedLog(copy, beside, &scan).status().code(),
            StatusCode::kDataLoss);
  EXPECT_FALSE(scan.ok);
  EXPECT_GE(absl::Now() - start,
            absl::Milliseconds(kLiveRescanMillis * (kMaxLiveScans - 1)));
}

TEST(EmbeddedLog, CorruptionInAnEarlierSegmentIsDataLoss) {
  const std::string dir = NewDir();
  EmbeddedLogOptions opt;
  opt.segment_bytes = 200;
  {
    auto log = MustOpen(dir, opt);
    ASSERT_TRUE(log->EnsureTopic({"t", 1}).ok());
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(log->Append({Rec("t", "", absl::StrCat("v", i), 0)}).ok());
    }
  }
  std::vector<internal::SegmentFile> segs = Segments(dir);
  ASSERT_GE(segs.size(), 3u);
  const size_t last_of_earlier = fs::file_size(segs[1].path) - 1;
  for (size_t at : {size_t{10}, last_of_earlier}) {
    const std::string copy = CopyWithFlip(dir, 1, at);
    EXPECT_EQ(OpenEmbeddedLog(copy, opt).status().code(),
              StatusCode::kDataLoss);
  }
  // A truncated earlier segment and a missing segment are data loss too.
  {
    const std::string copy = CopyWithFlip(dir, 0, 10);
    fs::copy_file(segs[1].path,
                  copy + "/" + fs::path(segs[1].path).filename().string(),
                  fs::copy_options::overwrite_existing);
    fs::resize_file(copy + "/" + fs::path(segs[1].path).filename().string(),
                    fs::file_size(segs[1].path) - 1);
    EXPECT_EQ(OpenEmbeddedLog(copy, opt).status().code(),
              StatusCode::kDataLoss);
  }
  {
    const std::string copy = CopyWithFlip(dir, 0, 10);
    const std::string first = copy + "/" + internal::SegmentFileName(0);
    WriteFile(first, ReadFile(segs[0].path));  // undo the flip
    fs::remove(copy + "/" + fs::path(segs[1].path).filename().string());
    EXPECT_EQ(OpenEmbeddedLog(copy, opt).status().code(),
              StatusCode::kDataLoss);
  }
}

TEST(EmbeddedLog, ConcurrentAppendersAndReaders) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 2000;
  constexpr int kInFlight = 32;
  constexpr int kPartitions = 4;
  const std::string dir = NewDir();
  auto log = MustOpen(dir);
  ASSERT_TRUE(log->EnsureTopic({"t", kPartitions}).ok());

  std::atomic<bool> stop{false};
  std::atomic<int64_t> reader_checks{0};
  std::thread reader([&] {
    std::vector<int64_t> seen(kPartitions, 0);
    while (!stop.load()) {
      for (int p = 0; p < kPartitions; ++p) {
        absl::StatusOr<int64_t> end = log->EndOffset("t", p);
        ASSERT_TRUE(end.ok());
        ASSERT_GE(*end, seen[p]);
        auto r = log->Read("t", p, seen[p], 500);
        ASSERT_TRUE(r.ok()) << r.status();
        for (const StoredRecord& s : *r) ASSERT_EQ(s.offset, seen[p]++);
        ++reader_checks;
      }
    }
  });
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&, t] {
      std::mutex mu;
      std::condition_variable cv;
      int in_flight = 0;
      for (int i = 0; i < kPerThread; ++i) {
        {
          std::unique_lock l(mu);
          cv.wait(l, [&] { return in_flight < kInFlight; });
          ++in_flight;
        }
        // The key pins each thread to one partition, so the thread's order
        // must survive within it.
        log->AppendAsync(
            {Rec("t", absl::StrCat("thread-", t), absl::StrCat(t, ":", i))}, {},
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

  auto check = [&](EventLog& l) {
    std::set<std::string> seen;
    std::vector<int> last(kThreads, -1);
    int64_t total = 0;
    for (int p = 0; p < kPartitions; ++p) {
      auto recs = ReadAll(l, "t", p);
      total += static_cast<int64_t>(recs.size());
      for (size_t i = 0; i < recs.size(); ++i) {
        ASSERT_EQ(recs[i].offset, static_cast<int64_t>(i));
        ASSERT_TRUE(seen.insert(recs[i].value).second) << recs[i].value;
        const size_t colon = recs[i].value.find(':');
        const int t = std::stoi(recs[i].value.substr(0, colon));
        const int n = std::stoi(recs[i].value.substr(colon + 1));
        ASSERT_EQ(PartitionForKey(absl::StrCat("thread-", t), kPartitions), p);
        ASSERT_GT(n, last[t]);
        last[t] = n;
      }
    }
    EXPECT_EQ(total, kThreads * kPerThread);
  };
  check(*log);
  log.reset();
  log = MustOpen(dir);
  check(*log);
}

TEST(EmbeddedLog, ConcurrentEnsureTopicOfTheSameTopic) {
  auto log = MustOpen(NewDir());
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      if (log->EnsureTopic({"shared", 3}).ok()) ++ok;
      if (log->PartitionCount("shared").ok()) ++ok;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(ok.load(), 16);
}

TEST(EmbeddedLog, ConsumerOffsetsAreDurableAndAtomicWithRecords) {
  const std::string dir = NewDir();
  {
    auto log = MustOpen(dir);
    ASSERT_TRUE(log->EnsureTopic({"in", 2}).ok());
    ASSERT_TRUE(log->EnsureTopic({"out", 1}).ok());
    EXPECT_EQ(*log->CommittedOffset("g", "in", 1), 0);
    ASSERT_TRUE(
        log->CommitOffsets({{"g", "in", 0, 5}, {"h", "in", 0, 2}}).ok());
    EXPECT_EQ(*log->CommittedOffset("g", "in", 0), 5);
    EXPECT_EQ(*log->CommittedOffset("h", "in", 0), 2);
    // Consume-transform-produce: output and the input offset in one batch.
    ASSERT_TRUE(
        log->Append({Rec("out", "", "derived", 0)}, {{"g", "in", 1, 7}}).ok());
    EXPECT_EQ(*log->CommittedOffset("g", "in", 1), 7);
    // A bad commit fails the whole batch, records included.
    EXPECT_EQ(log->Append({Rec("out", "", "lost", 0)}, {{"g", "nope", 0, 9}})
                  .status()
                  .code(),
              StatusCode::kNotFound);
    EXPECT_EQ(log->Append({Rec("out", "", "lost", 0)}, {{"g", "in", 2, 9}})
                  .status()
                  .code(),
              StatusCode::kInvalidArgument);
    EXPECT_EQ(log->Append({Rec("out", "", "lost", 0)}, {{"", "in", 0, 9}})
                  .status()
                  .code(),
              StatusCode::kInvalidArgument);
    EXPECT_EQ(log->Append({Rec("out", "", "lost", 0)}, {{"g", "in", 0, -1}})
                  .status()
                  .code(),
              StatusCode::kInvalidArgument);
    EXPECT_EQ(End(*log, "out", 0), 1);
    EXPECT_EQ(*log->CommittedOffset("g", "in", 0), 5);
    EXPECT_EQ(log->CommittedOffset("g", "nope", 0).status().code(),
              StatusCode::kNotFound);
    EXPECT_EQ(log->CommittedOffset("g", "in", 2).status().code(),
              StatusCode::kInvalidArgument);
  }
  auto log = MustOpen(dir);
  EXPECT_EQ(*log->CommittedOffset("g", "in", 0), 5);
  EXPECT_EQ(*log->CommittedOffset("g", "in", 1), 7);
  EXPECT_EQ(*log->CommittedOffset("h", "in", 0), 2);
  EXPECT_EQ(Values(ReadAll(*log, "out", 0)),
            (std::vector<std::string>{"derived"}));

  // Torn in the middle of the record+commit batch: neither survives.
  log->Append({Rec("out", "", "second", 0)}, {{"g", "in", 1, 8}}).IgnoreError();
  log.reset();
  const std::string seg = Segments(dir).at(0).path;
  const std::string full = ReadFile(seg);
  // Find the start of the last batch: walk the frames.
  std::vector<size_t> starts;
  for (size_t p = 0; p < full.size();) {
    starts.push_back(p);
    p += internal::kFrameHeaderBytes + internal::LoadU32(full.data() + p);
  }
  // Last batch = record frame + commit frame; cut inside the commit frame.
  const std::string copy =
      DirWithSegment(std::string_view(full).substr(0, starts.back() + 10));
  auto torn = MustOpen(copy);
  EXPECT_EQ(Values(ReadAll(*torn, "out", 0)),
            (std::vector<std::string>{"derived"}));
  EXPECT_EQ(*torn->CommittedOffset("g", "in", 1), 7);
}

TEST(EmbeddedLog, InvalidInputIsRejectedAndStoresNothing) {
  const std::string dir = NewDir();
  auto log = MustOpen(dir);
  ASSERT_TRUE(log->EnsureTopic({"t", 2}).ok());
  ASSERT_TRUE(log->Append({Rec("t", "", "ok", 0)}).ok());

  auto code = [&](std::vector<Record> recs) {
    return log->Append(std::move(recs)).status().code();
  };
  EXPECT_EQ(code({Rec("missing", "", "v")}), StatusCode::kNotFound);
  EXPECT_EQ(code({Rec("t", "", "v", 2)}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({Rec("t", "", "v", -2)}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({Rec("t", std::string(kMaxKeyBytes + 1, 'k'), "v")}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code({Rec("t", "", std::string(kMaxRecordBytes + 1, 'v'))}),
            StatusCode::kInvalidArgument);
  {
    Record r = Rec("t", "", "v");
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
  EXPECT_EQ(code(std::vector<Record>(kMaxBatchRecords + 1, Rec("t", "", "v"))),
            StatusCode::kInvalidArgument);
  // Within the per-record and per-count limits but over the batch bytes.
  EXPECT_EQ(code(std::vector<Record>(
                internal::kMaxBatchBytes / kMaxRecordBytes + 1,
                Rec("t", "", std::string(kMaxRecordBytes, 'v')))),
            StatusCode::kInvalidArgument);
  // A bad record after good ones.
  EXPECT_EQ(code({Rec("t", "", "a", 0), Rec("t", "", "b", 1),
                  Rec("t", std::string(kMaxKeyBytes + 1, 'k'), "c")}),
            StatusCode::kInvalidArgument);

  EXPECT_EQ(log->EnsureTopic({"", 1}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(log->EnsureTopic({"x", 0}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(log->EnsureTopic({"x", kMaxPartitions + 1}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log->EnsureTopic({"__internal", 1}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log->EnsureTopic({"t", 3}).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(log->PartitionCount("x").status().code(), StatusCode::kNotFound);

  EXPECT_EQ(log->Read("t", 0, -1, 10).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log->Read("t", 0, 2, 10).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(log->Read("missing", 0, 0, 10).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(log->Read("t", 2, 0, 10).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log->Read("t", -1, 0, 10).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log->EndOffset("missing", 0).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(log->EndOffset("t", 5).status().code(),
            StatusCode::kInvalidArgument);

  EXPECT_EQ(End(*log, "t", 0), 1);
  EXPECT_EQ(End(*log, "t", 1), 0);
  log.reset();
  absl::StatusOr<JournalScanReport> rep = ScanJournal(dir);
  ASSERT_TRUE(rep.ok());
  EXPECT_EQ(rep->records, 2);  // the topic record and "ok"
}

TEST(EmbeddedLog, WriteFailureIsFailStop) {
  const std::string dir = NewDir();
  EmbeddedLogOptions opt;
  opt.segment_bytes = 64 << 10;
  auto log = MustOpen(dir, opt);
  ASSERT_TRUE(log->EnsureTopic({"t", 1}).ok());
  ASSERT_TRUE(log->Append({Rec("t", "", "before", 0)}).ok());

  // Make the next segment impossible to fill: writes past the limit fail
  // with EFBIG (SIGXFSZ ignored), like a full disk.
  struct rlimit old;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  struct sigaction ignore = {}, old_action;
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(sigaction(SIGXFSZ, &ignore, &old_action), 0);
  struct rlimit limited = old;
  limited.rlim_cur = 70 << 10;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);

  std::vector<Record> big;
  for (int i = 0; i < 3; ++i)
    big.push_back(Rec("t", "", std::string(50000, 'b'), 0));
  absl::StatusOr<std::vector<Position>> failed = log->Append(big);
  absl::Status later = log->Append({Rec("t", "", "later", 0)}).status();
  absl::Status topic = log->EnsureTopic({"other", 1});

  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &old), 0);
  ASSERT_EQ(sigaction(SIGXFSZ, &old_action, nullptr), 0);

  EXPECT_FALSE(failed.ok());
  // Fail-stop: nothing is written after a failure, even once it could be.
  EXPECT_FALSE(later.ok());
  EXPECT_FALSE(topic.ok());
  EXPECT_FALSE(log->Append({Rec("t", "", "after-limit", 0)}).ok());
  EXPECT_FALSE(log->CommitOffsets({{"g", "t", 0, 1}}).ok());
  // Durable data stays readable.
  EXPECT_EQ(Values(ReadAll(*log, "t", 0)),
            (std::vector<std::string>{"before"}));
  log.reset();
  log = MustOpen(dir, opt);
  EXPECT_EQ(Values(ReadAll(*log, "t", 0)),
            (std::vector<std::string>{"before"}));
  ASSERT_TRUE(log->Append({Rec("t", "", "reopened", 0)}).ok());
  EXPECT_EQ(End(*log, "t", 0), 2);
}

TEST(EmbeddedLog, EmptyAppendSucceedsWithoutWriting) {
  auto log = MustOpen(NewDir());
  absl::StatusOr<std::vector<Position>> p = log->Append({});
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->empty());
}

TEST(EmbeddedLog, BadOptionsAreRejected) {
  EmbeddedLogOptions opt;
  opt.segment_bytes = 0;
  EXPECT_EQ(OpenEmbeddedLog(NewDir(), opt).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(LogBench, RunsAndCountsEveryEvent) {
  LogBenchOptions o;
  o.dir = NewDir();
  o.writers = 4;
  o.events = 5000;
  o.value_bytes = 100;
  o.partitions = 3;
  auto log = MustOpen(o.dir);
  absl::StatusOr<LogBenchResult> w = RunLogBench(*log, o);
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(w->events, 5000);
  EXPECT_GT(w->events_per_sec, 0);
  EXPECT_LE(w->p50_ms, w->p99_ms);
  absl::StatusOr<LogBenchResult> r = RunReadBench(*log, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->events, 5000);
}

}  // namespace
}  // namespace banca::eventlog
