// A reader of one topic of money requests (banca.table.requests,
// banca.banked.requests): it reads from its consumer group's committed
// position and hands each record, in log order, to the consumer's
// CarryOut (table_requests.h, banked_requests.h); it moves the position
// past a record only once the steps the record queued are durable. A crash
// in between repeats steps, and the idempotency index makes the repeat a
// no-op: exactly once by deduplication.
//
// In group mode there is one cursor (group "<group>.<p>") per owned wallet
// partition p, and each carries out only the requests decided on p; else
// one cursor carries out everything.
#ifndef BANCA_SERVICES_WALLET_REQUEST_READER_H_
#define BANCA_SERVICES_WALLET_REQUEST_READER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "libs/eventlog/event_log.h"
#include "services/wallet/partition_ownership.h"
#include "services/wallet/wallet_commands.h"

namespace banca::wallet {

// Whether a request whose deciding owner is `owner` is carried out by the
// cursor of `wallet_partition` (-1: the one cursor, which does all).
bool DecidedOn(std::string_view owner, int wallet_partition, int partitions);

class RequestReader {
 public:
  // Carries out one record whose deciding owner is on `wallet_partition`
  // (-1: any) and skips the others'. OK for a request carried out, and for
  // one that never can be (quarantined: request_quarantine.h); an error is
  // transient: the record's partition stops there until the next poll, so
  // a money request is never skipped.
  using CarryOut = std::function<absl::Status(
      const eventlog::StoredRecord& record, int wallet_partition)>;

  // `ownership` is null unless the wallet runs in a group. Everything
  // outlives this.
  RequestReader(eventlog::EventLog& log, const PartitionOwnership* ownership,
                WalletCommands& commands, std::string topic, std::string group,
                CarryOut carry_out);

  const std::string& topic() const { return topic_; }

  // Carries out what was logged since the last call; returns how many
  // records. A failure stops its own partition only; the first is
  // returned, once every other partition has been read.
  absl::StatusOr<int> Poll();

  // Records this process has yet to carry out: the log's end less each
  // cursor's position, summed over its cursors. Near 0 when the wallet
  // keeps up.
  absl::StatusOr<int64_t> Lag();

 private:
  // Reads from `group`'s position with `offsets` (empty: start from the
  // committed position) and carries out each record in order.
  absl::StatusOr<int> PollCursor(const std::string& group,
                                 std::vector<int64_t>& offsets,
                                 int wallet_partition)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  eventlog::EventLog& log_;
  const PartitionOwnership* const ownership_;
  WalletCommands& commands_;
  const std::string topic_;
  const std::string group_;
  const CarryOut carry_out_;

  absl::Mutex mu_;
  // The one cursor, outside group mode.
  std::vector<int64_t> single_ ABSL_GUARDED_BY(mu_);
  // One per owned wallet partition, in group mode.
  std::map<int, std::vector<int64_t>> owned_ ABSL_GUARDED_BY(mu_);
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_REQUEST_READER_H_
