#include "services/wallet/request_reader.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/wire/ownership.h"

namespace banca::wallet {
namespace {

constexpr size_t kReadBatch = 256;

}  // namespace

bool DecidedOn(std::string_view owner, int wallet_partition, int partitions) {
  return wallet_partition < 0 ||
         wire::OwnershipPartition(owner, partitions) == wallet_partition;
}

RequestReader::RequestReader(eventlog::EventLog& log,
                             const PartitionOwnership* ownership,
                             WalletCommands& commands, std::string topic,
                             std::string group, CarryOut carry_out)
    : log_(log),
      ownership_(ownership),
      commands_(commands),
      topic_(std::move(topic)),
      group_(std::move(group)),
      carry_out_(std::move(carry_out)) {}

absl::StatusOr<int> RequestReader::Poll() {
  if (ownership_ == nullptr) {
    absl::MutexLock lock(&mu_);
    return PollCursor(group_, single_, -1);
  }
  const std::vector<int> partitions = ownership_->Owned();
  {
    // A partition given up: its cursor restarts from the committed
    // position if it comes back (another process may have moved it).
    absl::MutexLock lock(&mu_);
    std::erase_if(owned_, [&](const auto& cursor) {
      return !std::binary_search(partitions.begin(), partitions.end(),
                                 cursor.first);
    });
  }
  int handled = 0;
  for (int p : partitions) {
    absl::MutexLock lock(&mu_);
    ASSIGN_OR_RETURN(const int n,
                     PollCursor(absl::StrCat(group_, ".", p), owned_[p], p));
    handled += n;
  }
  return handled;
}

absl::StatusOr<int> RequestReader::PollCursor(const std::string& group,
                                              std::vector<int64_t>& offsets,
                                              int wallet_partition) {
  if (offsets.empty()) {
    ASSIGN_OR_RETURN(const int partitions, log_.PartitionCount(topic_));
    std::vector<int64_t> start(partitions, 0);
    for (int p = 0; p < partitions; ++p) {
      ASSIGN_OR_RETURN(start[p], log_.CommittedOffset(group, topic_, p));
    }
    offsets = std::move(start);
  }
  int handled = 0;
  absl::Status failed;
  std::vector<eventlog::OffsetCommit> commits;
  // A failure stops its own partition only; the first is returned.
  for (int p = 0; p < static_cast<int>(offsets.size()); ++p) {
    absl::StatusOr<std::vector<eventlog::StoredRecord>> records =
        log_.Read(topic_, p, offsets[p], kReadBatch);
    if (!records.ok()) {
      if (failed.ok()) failed = records.status();
      continue;
    }
    if (records->empty()) continue;
    const int64_t before = offsets[p];
    for (const eventlog::StoredRecord& record : *records) {
      // OK for a request carried out, and for one that never can be
      // (quarantined: request_quarantine.h); an error is transient, and
      // this partition stops here until the next poll: a money request is
      // never skipped.
      if (absl::Status s = carry_out_(record, wallet_partition); !s.ok()) {
        if (failed.ok()) {
          failed = absl::Status(
              s.code(), absl::StrCat(record.topic, "/", record.partition, "@",
                                     record.offset, ": ", s.message()));
        }
        break;
      }
      offsets[p] = record.offset + 1;
      ++handled;
    }
    if (offsets[p] != before) {
      commits.push_back({group, topic_, p, offsets[p]});
    }
  }
  // Every settlement queued so far is durable before the positions move
  // past it (a crash in between repeats it; the index makes that a no-op).
  commands_.WaitQueued();
  if (!commits.empty()) {
    RETURN_IF_ERROR(log_.CommitOffsets(std::move(commits)));
  }
  if (!failed.ok()) return failed;
  return handled;
}

absl::StatusOr<int64_t> RequestReader::Lag() {
  absl::MutexLock lock(&mu_);
  int64_t lag = 0;
  auto add = [&](const std::vector<int64_t>& offsets) -> absl::Status {
    for (int p = 0; p < static_cast<int>(offsets.size()); ++p) {
      ASSIGN_OR_RETURN(const int64_t end, log_.EndOffset(topic_, p));
      lag += std::max<int64_t>(0, end - offsets[p]);
    }
    return absl::OkStatus();
  };
  if (ownership_ == nullptr) {
    RETURN_IF_ERROR(add(single_));
  } else {
    for (const auto& [partition, offsets] : owned_) {
      RETURN_IF_ERROR(add(offsets));
    }
  }
  return lag;
}

}  // namespace banca::wallet
