// Group mode: several wallet processes share banca.wallet.events
// (docs/architecture.md, "Several wallet processes").
//
// Each process decides only for the owners of the partitions the group
// assigns it (partition_ownership.h) and follows every partition, so its
// ledger holds every balance. A credit decided elsewhere shows up here a
// follow interval later: until then an owner sees a lower balance, never a
// higher one, and debits are decided only by their owner's process.
//
// Taking partitions over (after a rebalance) waits until the previous
// owner's appends are settled: its last transaction is committed or
// aborted (CommittedOffset is stable) and followed to the end of the log.
// Only then does this process decide there, so every stream keeps a single
// writer and gapless sequences.
#include <cstdio>
#include <future>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/fail_stop.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "services/wallet/wallet_service.h"

namespace banca::wallet {
namespace {

constexpr size_t kFollowBatch = 512;

}  // namespace

std::vector<int> WalletService::OwnedPartitions() const {
  if (ownership_ == nullptr) {
    std::vector<int> all(options_.partitions);
    for (int p = 0; p < options_.partitions; ++p) all[p] = p;
    return all;
  }
  return ownership_->Owned();
}

absl::Status WalletService::JoinGroup() {
  eventlog::GroupOptions group;
  group.group = options_.group;
  group.topic = std::string(wire::kWalletTopic);
  group.session_timeout_ms = options_.group_session_timeout_ms;
  absl::StatusOr<std::unique_ptr<eventlog::GroupMember>> member =
      log_.JoinGroup(group);
  if (!member.ok()) return member.status();
  member_ = *std::move(member);
  {
    absl::MutexLock lock(&follow_mu_);
    absl::MutexLock appended(&appended_mu_);
    followed_.assign(options_.partitions, 0);
    for (int p = 0; p < options_.partitions; ++p) {
      auto it = appended_.find({std::string(wire::kWalletTopic), p});
      if (it != appended_.end()) followed_[p] = it->second;
    }
  }
  // Nothing is decided here until the group assigns partitions.
  ownership_->Open({});
  group_thread_ = std::thread([this] { GroupLoop(); });
  return absl::OkStatus();
}

eventlog::OffsetCommit WalletService::FenceFor(std::string_view stream) {
  std::string_view owner = stream;
  if (absl::StartsWith(ToAbsl(owner), "wallet/")) owner.remove_prefix(7);
  const int p = wire::OwnershipPartition(owner, options_.partitions);
  // What this process had seen of its partition when it decided: a record
  // of progress, and the carrier of the fence.
  int64_t offset = 0;
  {
    absl::MutexLock lock(&appended_mu_);
    auto it = appended_.find({std::string(wire::kWalletTopic), p});
    if (it != appended_.end()) offset = it->second;
  }
  return {options_.group, std::string(wire::kWalletTopic), p, offset};
}

absl::Status WalletService::Follow() {
  const std::string topic(wire::kWalletTopic);
  absl::MutexLock lock(&follow_mu_);
  bool moved = false;
  for (int p = 0; p < options_.partitions; ++p) {
    while (true) {
      absl::StatusOr<std::vector<eventlog::StoredRecord>> records =
          log_.Read(topic, p, followed_[p], kFollowBatch);
      if (!records.ok()) return records.status();
      if (records->empty()) break;
      for (const eventlog::StoredRecord& record : *records) {
        // This process's own events are applied already: skipped.
        absl::StatusOr<bool> applied = ApplyLogged(record, /*replaying=*/false);
        if (!applied.ok()) return applied.status();
        followed_[p] = record.offset + 1;
        moved = true;
      }
      if (records->size() < kFollowBatch) break;
    }
  }
  if (!moved) return absl::OkStatus();
  std::vector<eventlog::Position> positions;
  for (int p = 0; p < options_.partitions; ++p) {
    if (followed_[p] > 0) positions.push_back({topic, p, followed_[p] - 1});
  }
  RecordAppended(positions);
  return absl::OkStatus();
}

void WalletService::PollGroup() {
  ownership_->CloseAndDrain();
  absl::StatusOr<eventlog::Assignment> assignment = member_->Poll();
  if (!assignment.ok()) {
    std::fprintf(stderr, "banca wallet: group poll: %s\n",
                 std::string(assignment.status().message()).c_str());
    ownership_->Open({});
    assignment_epoch_ = -1;  // take everything over afresh
    return;
  }
  if (assignment->epoch == assignment_epoch_) {
    ownership_->Open(assignment->partitions);
    return;
  }
  // A new assignment: wait out every previous owner's last transaction
  // on these partitions (on Kafka up to transaction_timeout_ms after a
  // crash), then follow the log to its end. The wait runs beside this
  // thread, which keeps polling meanwhile: a member that stops polling
  // for a session is presumed dead (and then fenced) even if it is not.
  ownership_->Open({});
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
  while (settled.wait_for(absl::ToChronoMilliseconds(
             options_.group_poll_interval)) != std::future_status::ready) {
    ownership_->CloseAndDrain();  // nothing owned: nothing in flight
    absl::StatusOr<eventlog::Assignment> again = member_->Poll();
    ownership_->Open({});
    if (!again.ok() || again->epoch != assignment->epoch) moved_on = true;
  }
  if (absl::Status s = settled.get(); !s.ok() || moved_on) {
    // Retried at the next poll; nothing is decided here meanwhile.
    if (!s.ok()) {
      std::fprintf(stderr, "banca wallet: partitions not settled yet: %s\n",
                   std::string(s.message()).c_str());
    }
    return;
  }
  ownership_->CloseAndDrain();
  if (absl::Status s = Follow(); !s.ok())
    eventlog::StopOnLogFailure("wallet", "following", s);
  assignment_epoch_ = assignment->epoch;
  std::fprintf(stderr,
               "{\"level\":\"info\",\"msg\":\"wallet partitions assigned\","
               "\"group\":\"%s\",\"partitions\":[%s]}\n",
               options_.group.c_str(),
               absl::StrJoin(assignment->partitions, ",").c_str());
  std::fflush(stderr);
  ownership_->Open(assignment->partitions);
}

void WalletService::GroupLoop() {
  absl::Time next_poll = absl::InfinitePast();
  while (true) {
    {
      absl::MutexLock lock(&stop_mu_);
      if (stopping_) break;
    }
    // A follower that cannot apply the log has a ledger that differs from
    // it: only a restart (a full replay) is safe.
    if (absl::Status s = Follow(); !s.ok() && !absl::IsUnavailable(s)) {
      eventlog::StopOnLogFailure("wallet", "following", s);
    }
    if (absl::Now() >= next_poll) {
      PollGroup();
      next_poll = absl::Now() + options_.group_poll_interval;
    }
    absl::MutexLock lock(&stop_mu_);
    stop_cv_.WaitWithTimeout(&stop_mu_, options_.follow_interval);
  }
  // Stopping: decide nothing more (the member leaves in Stop).
  ownership_->CloseAndDrain();
}

}  // namespace banca::wallet
