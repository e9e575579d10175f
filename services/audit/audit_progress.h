// The progress line of a long `banca audit verify`: per phase, the records
// read of those the phase reads in the audited range, at most once every
// `every` (2 s) and never before `every` has passed, so a short audit
// prints none. The sink decides where it goes (stderr, never stdout).
#ifndef BANCA_SERVICES_AUDIT_AUDIT_PROGRESS_H_
#define BANCA_SERVICES_AUDIT_AUDIT_PROGRESS_H_

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace banca::audit {

inline constexpr absl::Duration kProgressInterval = absl::Seconds(2);

class AuditProgress {
 public:
  // One line, without its newline.
  using Sink = std::function<void(const std::string& line)>;
  // A null sink reports nothing.
  explicit AuditProgress(Sink sink, absl::Duration every = kProgressInterval,
                         std::function<absl::Time()> now = absl::Now);

  // A new phase, which reads about `total` records.
  void StartPhase(std::string name, int64_t total);
  // `records` more read; a line when `every` has passed since the last.
  void Add(int64_t records);

  // "banca audit verify: <phase>: <read>/<total> records read".
  static std::string Line(const std::string& phase, int64_t read,
                          int64_t total);

 private:
  const Sink sink_;
  const absl::Duration every_;
  const std::function<absl::Time()> now_;
  std::mutex mu_;
  std::string phase_ ABSL_GUARDED_BY(mu_);
  int64_t read_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t total_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Time last_ ABSL_GUARDED_BY(mu_);
};

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_AUDIT_PROGRESS_H_
