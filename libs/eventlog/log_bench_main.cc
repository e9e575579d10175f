// eventlog_bench [dir] [writers] [events] [fsync 0|1] [segment_mb]:
// appends, reopens (timing the journal scan), then replays.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/time/clock.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/log_bench.h"

int main(int argc, char** argv) {
  using namespace banca::eventlog;
  LogBenchOptions o;
  o.dir = argc > 1 ? argv[1] : "/tmp/eventlog_bench";
  int fsync = 1;
  int64_t segment_mb = 64;
  if ((argc > 2 && !absl::SimpleAtoi(argv[2], &o.writers)) ||
      (argc > 3 && !absl::SimpleAtoi(argv[3], &o.events)) ||
      (argc > 4 && !absl::SimpleAtoi(argv[4], &fsync)) ||
      (argc > 5 && !absl::SimpleAtoi(argv[5], &segment_mb))) {
    std::fprintf(stderr, "bad arguments\n");
    return 2;
  }
  o.fsync = fsync != 0;
  EmbeddedLogOptions lo;
  lo.fsync = o.fsync;
  lo.segment_bytes = segment_mb << 20;
  {
    auto log = OpenEmbeddedLog(o.dir, lo);
    if (!log.ok()) {
      std::fprintf(stderr, "%s\n", log.status().ToString().c_str());
      return 1;
    }
    auto r = RunLogBench(**log, o);
    if (!r.ok()) {
      std::fprintf(stderr, "%s\n", r.status().ToString().c_str());
      return 1;
    }
    std::printf(
        "append: %lld events in %.3f s = %.0f events/s, %.1f MB/s, "
        "p50 %.2f ms, p99 %.2f ms\n",
        static_cast<long long>(r->events), r->seconds, r->events_per_sec,
        r->mb_per_sec, r->p50_ms, r->p99_ms);
  }
  const absl::Time t0 = absl::Now();
  auto log = OpenEmbeddedLog(o.dir, lo);
  if (!log.ok()) {
    std::fprintf(stderr, "%s\n", log.status().ToString().c_str());
    return 1;
  }
  std::printf("reopen (scan + index): %.3f s\n",
              absl::ToDoubleSeconds(absl::Now() - t0));
  auto r = RunReadBench(**log, o);
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", r.status().ToString().c_str());
    return 1;
  }
  std::printf("read: %lld events in %.3f s = %.0f events/s, %.1f MB/s\n",
              static_cast<long long>(r->events), r->seconds, r->events_per_sec,
              r->mb_per_sec);
  return 0;
}
