#include "services/audit/audit_progress.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace banca::audit {

AuditProgress::AuditProgress(Sink sink, absl::Duration every,
                             std::function<absl::Time()> now)
    : sink_(std::move(sink)), every_(every), now_(std::move(now)) {
  last_ = now_();
}

void AuditProgress::StartPhase(std::string name, int64_t total) {
  std::lock_guard l(mu_);
  phase_ = std::move(name);
  read_ = 0;
  total_ = total;
}

void AuditProgress::Add(int64_t records) {
  if (!sink_) return;
  std::string line;
  {
    std::lock_guard l(mu_);
    read_ += records;
    const absl::Time now = now_();
    if (now - last_ < every_) return;
    last_ = now;
    line = Line(phase_, read_, total_);
  }
  sink_(line);
}

std::string AuditProgress::Line(const std::string& phase, int64_t read,
                                int64_t total) {
  return absl::StrCat("banca audit verify: ", phase, ": ", read, "/", total,
                      " records read");
}

}  // namespace banca::audit
