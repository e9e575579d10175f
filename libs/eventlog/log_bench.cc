#include "libs/eventlog/log_bench.h"

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "libs/common/status_macros.h"

namespace banca::eventlog {
namespace {

constexpr int kMaxWriters = 1024;
constexpr int64_t kMaxEvents = 100'000'000;
constexpr int kMaxInFlight = 100'000;
constexpr size_t kReadBatch = 1000;

struct Writer {
  std::mutex mu;
  std::condition_variable cv;
  int in_flight = 0;
  absl::Status error;
  // Start times by sequence number, then latencies (written by callbacks).
  std::vector<int64_t> start_ns;
  std::vector<int64_t> latency_ns;
};

double Percentile(std::vector<int64_t>& v, double q) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * v.size()));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return static_cast<double>(v[k]) / 1e6;
}

}  // namespace

absl::StatusOr<LogBenchResult> RunLogBench(EventLog& log,
                                           const LogBenchOptions& o) {
  if (o.writers <= 0 || o.writers > kMaxWriters || o.events <= 0 ||
      o.events > kMaxEvents || o.value_bytes > kMaxRecordBytes ||
      o.in_flight_per_writer <= 0 || o.in_flight_per_writer > kMaxInFlight) {
    return absl::InvalidArgumentError("bad log bench options");
  }
  RETURN_IF_ERROR(log.EnsureTopic({o.topic, o.partitions}));
  const std::string value(o.value_bytes, 'v');
  std::vector<std::unique_ptr<Writer>> writers;
  for (int w = 0; w < o.writers; ++w) {
    auto wr = std::make_unique<Writer>();
    const int64_t n = o.events / o.writers + (w < o.events % o.writers);
    wr->start_ns.resize(n);
    wr->latency_ns.resize(n);
    writers.push_back(std::move(wr));
  }
  const absl::Time start = absl::Now();
  std::vector<std::thread> threads;
  for (int w = 0; w < o.writers; ++w) {
    threads.emplace_back([&, w] {
      Writer* wr = writers[w].get();
      const int64_t n = static_cast<int64_t>(wr->start_ns.size());
      const int half = o.in_flight_per_writer / 2;
      for (int64_t i = 0; i < n; ++i) {
        {
          std::unique_lock l(wr->mu);
          wr->cv.wait(
              l, [wr, &o] { return wr->in_flight < o.in_flight_per_writer; });
          if (!wr->error.ok()) return;
          ++wr->in_flight;
        }
        std::vector<Record> batch(1);
        batch[0].topic = o.topic;
        batch[0].key = absl::StrCat("w", w, "-", i);
        batch[0].value = value;
        wr->start_ns[i] = absl::GetCurrentTimeNanos();
        log.AppendAsync(std::move(batch), {},
                        [wr, i, half](absl::Status s, std::vector<Position>) {
                          wr->latency_ns[i] =
                              absl::GetCurrentTimeNanos() - wr->start_ns[i];
                          std::lock_guard l(wr->mu);
                          --wr->in_flight;
                          if (!s.ok() && wr->error.ok()) wr->error = s;
                          // Wake the writer only at half the window (and
                          // at zero for the final drain): a wake-up per
                          // event would cost more than the append.
                          if (wr->in_flight == half || wr->in_flight == 0) {
                            wr->cv.notify_one();
                          }
                        });
      }
      std::unique_lock l(wr->mu);
      wr->cv.wait(l, [wr] { return wr->in_flight == 0; });
    });
  }
  for (std::thread& t : threads) t.join();
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  std::vector<int64_t> all;
  all.reserve(static_cast<size_t>(o.events));
  for (auto& wr : writers) {
    std::lock_guard l(wr->mu);
    if (!wr->error.ok()) return wr->error;
    all.insert(all.end(), wr->latency_ns.begin(), wr->latency_ns.end());
  }
  LogBenchResult r;
  r.events = o.events;
  r.seconds = seconds;
  r.events_per_sec = static_cast<double>(o.events) / seconds;
  r.mb_per_sec = r.events_per_sec * static_cast<double>(o.value_bytes) / 1e6;
  r.p50_ms = Percentile(all, 0.50);
  r.p99_ms = Percentile(all, 0.99);
  return r;
}

absl::StatusOr<LogBenchResult> RunReadBench(EventLog& log,
                                            const LogBenchOptions& o) {
  ASSIGN_OR_RETURN(int partitions, log.PartitionCount(o.topic));
  LogBenchResult r;
  int64_t bytes = 0;
  const absl::Time start = absl::Now();
  for (int p = 0; p < partitions; ++p) {
    ASSIGN_OR_RETURN(int64_t end, log.EndOffset(o.topic, p));
    for (int64_t off = 0; off < end;) {
      ASSIGN_OR_RETURN(std::vector<StoredRecord> recs,
                       log.Read(o.topic, p, off, kReadBatch));
      if (recs.empty()) break;
      for (const StoredRecord& rec : recs) {
        bytes += static_cast<int64_t>(rec.value.size());
      }
      off += static_cast<int64_t>(recs.size());
      r.events += static_cast<int64_t>(recs.size());
    }
  }
  r.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  r.events_per_sec = static_cast<double>(r.events) / r.seconds;
  r.mb_per_sec = static_cast<double>(bytes) / r.seconds / 1e6;
  return r;
}

}  // namespace banca::eventlog
