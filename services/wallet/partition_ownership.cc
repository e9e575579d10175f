#include "services/wallet/partition_ownership.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/ledger.h"

namespace banca::wallet {

PartitionOwnership::PartitionOwnership(int partitions)
    : partitions_(partitions), owned_(partitions, false) {}

absl::Status PartitionOwnership::Decides(std::string_view owner) const {
  const int p = wire::OwnershipPartition(owner, partitions_);
  absl::MutexLock lock(&mu_);
  if (owned_[p]) return absl::OkStatus();
  std::vector<int> owned;
  for (int i = 0; i < partitions_; ++i) {
    if (owned_[i]) owned.push_back(i);
  }
  return absl::UnavailableError(absl::StrCat(
      ToAbsl(wire::OwnershipKey(owner)), " belongs to wallet partition ", p,
      ", which another wallet process decides for (this one has [",
      absl::StrJoin(owned, ","), "]); retry there, or here after a rebalance"));
}

bool PartitionOwnership::Owns(int partition) const {
  absl::MutexLock lock(&mu_);
  return partition >= 0 && partition < partitions_ && owned_[partition];
}

std::vector<int> PartitionOwnership::Owned() const {
  absl::MutexLock lock(&mu_);
  std::vector<int> owned;
  for (int i = 0; i < partitions_; ++i) {
    if (owned_[i]) owned.push_back(i);
  }
  return owned;
}

absl::Status PartitionOwnership::BeginDecision() {
  absl::MutexLock lock(&mu_);
  const absl::Time give_up = absl::Now() + kMaxGateWait;
  while (closed_) {
    if (changed_.WaitWithDeadline(&mu_, give_up) && closed_) {
      return absl::UnavailableError(
          "this wallet process is taking part in a rebalance of its "
          "partitions; retry");
    }
  }
  ++in_flight_;
  return absl::OkStatus();
}

void PartitionOwnership::EndDecision() {
  absl::MutexLock lock(&mu_);
  if (--in_flight_ == 0) changed_.SignalAll();
}

void PartitionOwnership::CloseAndDrain() {
  absl::MutexLock lock(&mu_);
  closed_ = true;
  while (in_flight_ > 0) changed_.Wait(&mu_);
  owned_.assign(partitions_, false);
}

void PartitionOwnership::Open(std::vector<int> owned) {
  absl::MutexLock lock(&mu_);
  owned_.assign(partitions_, false);
  for (int p : owned) {
    if (p >= 0 && p < partitions_) owned_[p] = true;
  }
  closed_ = false;
  changed_.SignalAll();
}

}  // namespace banca::wallet
