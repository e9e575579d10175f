#include "libs/eventlog/event_log.h"

#include <condition_variable>
#include <mutex>
#include <utility>

namespace banca::eventlog {

absl::StatusOr<std::vector<Position>> EventLog::Append(
    std::vector<Record> records, std::vector<OffsetCommit> commits) {
  // std primitives (not absl::Notification) so ThreadSanitizer sees the
  // hand-off; Debian's Abseil carries no TSAN annotations.
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  absl::Status status;
  std::vector<Position> positions;
  AppendAsync(std::move(records), std::move(commits),
              [&](absl::Status s, std::vector<Position> p) {
                std::lock_guard l(mu);
                status = std::move(s);
                positions = std::move(p);
                done = true;
                cv.notify_one();
              });
  std::unique_lock l(mu);
  cv.wait(l, [&] { return done; });
  if (!status.ok()) return status;
  return positions;
}

}  // namespace banca::eventlog
