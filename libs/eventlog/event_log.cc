#include "libs/eventlog/event_log.h"

#include <condition_variable>
#include <mutex>
#include <utility>

#include "libs/common/status_macros.h"
#include "libs/eventlog/group_member.h"

namespace banca::eventlog {

absl::StatusOr<std::vector<Position>> AwaitAppend(
    absl::FunctionRef<void(AppendCallback)> start) {
  // std primitives (not absl::Notification) so ThreadSanitizer sees the
  // hand-off; Debian's Abseil carries no TSAN annotations.
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  absl::Status status;
  std::vector<Position> positions;
  start([&](absl::Status s, std::vector<Position> p) {
    std::lock_guard l(mu);
    status = std::move(s);
    positions = std::move(p);
    done = true;
    cv.notify_one();
  });
  std::unique_lock l(mu);
  cv.wait(l, [&] { return done; });
  RETURN_IF_ERROR(status);
  return positions;
}

absl::StatusOr<std::vector<Position>> EventLog::Append(
    std::vector<Record> records, std::vector<OffsetCommit> commits) {
  return AwaitAppend([&](AppendCallback done) {
    AppendAsync(std::move(records), std::move(commits), std::move(done));
  });
}

absl::StatusOr<std::unique_ptr<GroupMember>> EventLog::JoinGroup(
    const GroupOptions&) {
  return absl::UnimplementedError("this event log has no consumer groups");
}

absl::StatusOr<int64_t> ReadPartitionToEnd(EventLog& log,
                                           std::string_view topic,
                                           int partition, int64_t from,
                                           RecordVisitor visit, size_t batch) {
  ASSIGN_OR_RETURN(int64_t end, log.EndOffset(topic, partition));
  int64_t next = from;
  while (next < end) {
    ASSIGN_OR_RETURN(std::vector<StoredRecord> records,
                     log.Read(topic, partition, next, batch));
    // Kafka's offsets have gaps (transaction markers): an empty read before
    // the end means only markers remain.
    if (records.empty()) break;
    for (const StoredRecord& record : records) {
      RETURN_IF_ERROR(visit(record));
      next = record.offset + 1;
    }
  }
  return next;
}

}  // namespace banca::eventlog
