#include "services/wallet/wallet_group.h"

#include <future>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/common/log_line.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/fail_stop.h"
#include "libs/wire/ownership.h"
#include "libs/wire/topics.h"

namespace banca::wallet {
namespace {

constexpr size_t kFollowBatch = 512;

}  // namespace

WalletGroup::WalletGroup(eventlog::EventLog& log, WalletGroupOptions options,
                         PartitionOwnership& ownership, WalletReplay& replay,
                         AppendedOffsets& appended,
                         const absl::Notification& stopping)
    : log_(log),
      options_(std::move(options)),
      ownership_(ownership),
      replay_(replay),
      appended_(appended),
      stopping_(stopping) {}

WalletGroup::~WalletGroup() { Stop(); }

absl::Status WalletGroup::Join() {
  eventlog::GroupOptions group;
  group.group = options_.group;
  group.topic = std::string(wire::kWalletTopic);
  group.session_timeout_ms = options_.session_timeout_ms;
  ASSIGN_OR_RETURN(member_, log_.JoinGroup(group));
  {
    absl::MutexLock lock(&follow_mu_);
    followed_.assign(options_.partitions, 0);
    for (int p = 0; p < options_.partitions; ++p) {
      followed_[p] = appended_.Next(std::string(wire::kWalletTopic), p);
    }
  }
  // Nothing is decided here until the group assigns partitions.
  ownership_.Open({});
  thread_ = std::thread([this] { Loop(); });
  return absl::OkStatus();
}

void WalletGroup::Stop() {
  if (thread_.joinable()) thread_.join();
  // Leaving hands the partitions to the others at once.
  member_.reset();
}

void WalletGroup::AppendAsync(std::vector<eventlog::Record> records,
                              std::string_view stream,
                              eventlog::AppendCallback done) {
  if (member_ == nullptr) {
    log_.AppendAsync(std::move(records), {}, std::move(done));
    return;
  }
  member_->AppendAsync(std::move(records), {FenceFor(stream)}, std::move(done));
}

eventlog::OffsetCommit WalletGroup::FenceFor(std::string_view stream) const {
  std::string_view owner = stream;
  if (absl::StartsWith(ToAbsl(owner), "wallet/")) owner.remove_prefix(7);
  const int p = wire::OwnershipPartition(owner, options_.partitions);
  // What this process had seen of its partition when it decided: a record
  // of progress, and the carrier of the fence.
  const std::string topic(wire::kWalletTopic);
  return {options_.group, topic, p, appended_.Next(topic, p)};
}

absl::Status WalletGroup::Follow() {
  const std::string topic(wire::kWalletTopic);
  absl::MutexLock lock(&follow_mu_);
  bool moved = false;
  for (int p = 0; p < options_.partitions; ++p) {
    while (true) {
      ASSIGN_OR_RETURN(const std::vector<eventlog::StoredRecord> records,
                       log_.Read(topic, p, followed_[p], kFollowBatch));
      if (records.empty()) break;
      for (const eventlog::StoredRecord& record : records) {
        // This process's own events are applied already: skipped.
        RETURN_IF_ERROR(
            replay_.ApplyLogged(record, /*replaying=*/false).status());
        followed_[p] = record.offset + 1;
        moved = true;
      }
      if (records.size() < kFollowBatch) break;
    }
  }
  if (!moved) return absl::OkStatus();
  std::vector<eventlog::Position> positions;
  for (int p = 0; p < options_.partitions; ++p) {
    if (followed_[p] > 0) positions.push_back({topic, p, followed_[p] - 1});
  }
  appended_.Record(positions);
  return absl::OkStatus();
}

void WalletGroup::Poll() {
  ownership_.CloseAndDrain();
  absl::StatusOr<eventlog::Assignment> assignment = member_->Poll();
  if (!assignment.ok()) {
    Log(LogLevel::kWarning, "wallet", "group poll failed",
        {{"group", options_.group}, {"error", assignment.status().message()}});
    ownership_.Open({});
    assignment_epoch_ = -1;  // take everything over afresh
    return;
  }
  if (assignment->epoch == assignment_epoch_) {
    ownership_.Open(assignment->partitions);
    return;
  }
  // A new assignment: wait out every previous owner's last transaction
  // on these partitions (on Kafka up to transaction_timeout_ms after a
  // crash), then follow the log to its end. The wait runs beside this
  // thread, which keeps polling meanwhile: a member that stops polling
  // for a session is presumed dead (and then fenced) even if it is not.
  ownership_.Open({});
  const std::string topic(wire::kWalletTopic);
  const std::vector<int> gained = assignment->partitions;
  std::future<absl::Status> settled =
      std::async(std::launch::async, [this, topic, gained] {
        for (int p : gained) {
          absl::StatusOr<int64_t> offset =
              log_.CommittedOffset(options_.group, topic, p);
          if (!offset.ok()) {
            return absl::Status(
                offset.status().code(),
                absl::StrCat("partition ", p, ": ", offset.status().message()));
          }
        }
        return absl::OkStatus();
      });
  bool moved_on = false;
  while (settled.wait_for(absl::ToChronoMilliseconds(options_.poll_interval)) !=
         std::future_status::ready) {
    ownership_.CloseAndDrain();  // nothing owned: nothing in flight
    absl::StatusOr<eventlog::Assignment> again = member_->Poll();
    ownership_.Open({});
    if (!again.ok() || again->epoch != assignment->epoch) moved_on = true;
  }
  if (absl::Status s = settled.get(); !s.ok() || moved_on) {
    // Retried at the next poll; nothing is decided here meanwhile.
    if (!s.ok()) {
      Log(LogLevel::kWarning, "wallet", "partitions not settled yet",
          {{"group", options_.group}, {"error", s.message()}});
    }
    return;
  }
  ownership_.CloseAndDrain();
  if (absl::Status s = Follow(); !s.ok()) {
    eventlog::StopOnLogFailure("wallet", "following", s);
  }
  assignment_epoch_ = assignment->epoch;
  Log(LogLevel::kInfo, "wallet", "wallet partitions assigned",
      {{"group", options_.group}, {"partitions", assignment->partitions}});
  ownership_.Open(assignment->partitions);
}

void WalletGroup::Loop() {
  absl::Time next_poll = absl::InfinitePast();
  while (!stopping_.HasBeenNotified()) {
    // A follower that cannot apply the log has a ledger that differs from
    // it: only a restart (a full replay) is safe.
    if (absl::Status s = Follow(); !s.ok() && !absl::IsUnavailable(s)) {
      eventlog::StopOnLogFailure("wallet", "following", s);
    }
    if (absl::Now() >= next_poll) {
      Poll();
      next_poll = absl::Now() + options_.poll_interval;
    }
    stopping_.WaitForNotificationWithTimeout(options_.follow_interval);
  }
  // Stopping: decide nothing more (the member leaves in Stop).
  ownership_.CloseAndDrain();
}

}  // namespace banca::wallet
