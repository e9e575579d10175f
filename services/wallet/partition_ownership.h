// Which owners a wallet process decides for when several wallet processes
// share banca.wallet.events in one consumer group (docs/architecture.md,
// "Several wallet processes").
//
// An owner belongs to the wallet partition of its ownership key: a
// player's "player/<id>", and a whole table's, game's or tournament's
// "<class>/<id>" (so that one settlement, which debits a table's seats and
// pot, has a single deciding owner). The process assigned that partition
// decides for the owner; the others only follow its events.
//
// Decisions also pass a gate. Before the process polls the group (where it
// takes part in a rebalance and may lose partitions), it closes the gate
// and waits until every decision let through has been appended: so an
// append is never in flight under an old generation, and a live process is
// never fenced (group_member.h). Limits: a decision waits at most
// `kMaxGateWait` for the gate, then is refused as UNAVAILABLE.
#ifndef BANCA_SERVICES_WALLET_PARTITION_OWNERSHIP_H_
#define BANCA_SERVICES_WALLET_PARTITION_OWNERSHIP_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "libs/wire/ownership.h"

namespace banca::wallet {

inline constexpr absl::Duration kMaxGateWait = absl::Seconds(5);

class PartitionOwnership {
 public:
  explicit PartitionOwnership(int partitions);

  int partitions() const { return partitions_; }

  // OK when this process decides for `owner`; UNAVAILABLE naming the
  // owner's partition otherwise (the client goes to the process that owns
  // it, or retries after a rebalance).
  absl::Status Decides(std::string_view owner) const;
  bool Owns(int partition) const;
  std::vector<int> Owned() const;

  // A decision starts: waits while the gate is closed (UNAVAILABLE after
  // kMaxGateWait). Each successful call is paired with EndDecision once
  // the decision is appended or refused.
  absl::Status BeginDecision();
  void EndDecision();

  // Closes the gate, waits for every decision in flight, and forgets the
  // owned partitions; Open sets the new ones and reopens.
  void CloseAndDrain();
  void Open(std::vector<int> owned);

 private:
  const int partitions_;
  mutable absl::Mutex mu_;
  absl::CondVar changed_;
  bool closed_ ABSL_GUARDED_BY(mu_) = true;
  int64_t in_flight_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<bool> owned_ ABSL_GUARDED_BY(mu_);
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_PARTITION_OWNERSHIP_H_
