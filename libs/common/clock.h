// Time comes from a clock the service owns, so tests control it and game
// engines never read time themselves.
#ifndef BANCA_LIBS_COMMON_CLOCK_H_
#define BANCA_LIBS_COMMON_CLOCK_H_

#include <atomic>
#include <cstdint>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace banca {

class Clock {
 public:
  virtual ~Clock() = default;
  // Microseconds since the Unix epoch.
  virtual int64_t NowMicros() const = 0;
};

class SystemClock final : public Clock {
 public:
  int64_t NowMicros() const override { return absl::ToUnixMicros(absl::Now()); }
};

class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_micros = 1'700'000'000'000'000)
      : now_(start_micros) {}
  int64_t NowMicros() const override { return now_.load(); }
  void Advance(absl::Duration d) { now_ += absl::ToInt64Microseconds(d); }

 private:
  std::atomic<int64_t> now_;
};

}  // namespace banca

#endif  // BANCA_LIBS_COMMON_CLOCK_H_
