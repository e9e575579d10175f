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
#ifndef BANCA_SERVICES_WALLET_WALLET_GROUP_H_
#define BANCA_SERVICES_WALLET_WALLET_GROUP_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "libs/eventlog/event_log.h"
#include "libs/eventlog/group_member.h"
#include "services/wallet/appended_offsets.h"
#include "services/wallet/partition_ownership.h"
#include "services/wallet/wallet_replay.h"

namespace banca::wallet {

struct WalletGroupOptions {
  // The consumer group on banca.wallet.events.
  std::string group;
  int partitions = 8;
  int session_timeout_ms = 10'000;
  // How often the group is polled (each poll briefly holds decisions back
  // until the ones in flight are appended).
  absl::Duration poll_interval = absl::Milliseconds(200);
  // How often the other processes' events are followed.
  absl::Duration follow_interval = absl::Milliseconds(2);
};

class WalletGroup {
 public:
  // Everything outlives this; the loop ends once `stopping` is notified.
  WalletGroup(eventlog::EventLog& log, WalletGroupOptions options,
              PartitionOwnership& ownership, WalletReplay& replay,
              AppendedOffsets& appended, const absl::Notification& stopping);
  ~WalletGroup();
  WalletGroup(const WalletGroup&) = delete;
  WalletGroup& operator=(const WalletGroup&) = delete;

  // Joins the group and starts following it and the log. Nothing is
  // decided here until the group assigns partitions.
  absl::Status Join();
  // Once `stopping` is notified: waits for the loop to end and leaves the
  // group, which hands the partitions to the others at once.
  void Stop();

  // EventLog::AppendAsync for an event of `stream`, fenced by this
  // membership: refused whole if the group has moved on without this
  // process (then it stops, like any failed append, and replays).
  void AppendAsync(std::vector<eventlog::Record> records,
                   std::string_view stream, eventlog::AppendCallback done);

 private:
  void Loop();
  // Applies the events other processes appended since the last call, up to
  // the end of every partition.
  absl::Status Follow();
  // Drains decisions, polls the group and, on a new assignment, takes the
  // partitions over only once their previous owner's appends are settled
  // and followed.
  void Poll();
  // The offset commit that fences an append on `stream`.
  eventlog::OffsetCommit FenceFor(std::string_view stream) const;

  eventlog::EventLog& log_;
  const WalletGroupOptions options_;
  PartitionOwnership& ownership_;
  WalletReplay& replay_;
  AppendedOffsets& appended_;
  const absl::Notification& stopping_;

  std::unique_ptr<eventlog::GroupMember> member_;
  std::thread thread_;
  int64_t assignment_epoch_ = -1;  // the loop's thread only
  absl::Mutex follow_mu_;
  std::vector<int64_t> followed_ ABSL_GUARDED_BY(follow_mu_);
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_WALLET_GROUP_H_
