// How the wallet runs a mutating command end to end: validated by the
// caller, claimed in the idempotency index, decided by the ledger, appended
// to the log while the ledger's locks are held (so the log's order is the
// ledger's; in group mode fenced by the group, wallet_group.h), and
// answered only once the append is durable. A retry with the same request
// id gets the first answer back, rebuilt from the event, even after a
// restart. If the log ever fails to make an event durable, the process
// stops: its memory then holds a decision the log does not, and only a
// restart (which replays the log) is safe.
#ifndef BANCA_SERVICES_WALLET_WALLET_COMMANDS_H_
#define BANCA_SERVICES_WALLET_WALLET_COMMANDS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "banca/v1/ledger.pb.h"
#include "google/protobuf/message.h"
#include "grpcpp/server_context.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/idempotency.h"
#include "libs/ledger/ledger.h"
#include "libs/wire/wallet_codec.h"
#include "services/wallet/appended_offsets.h"
#include "services/wallet/partition_ownership.h"
#include "services/wallet/wallet_metrics.h"

namespace banca::wallet {

class WalletGroup;

class WalletCommands {
 public:
  // A command's decision: the ledger call, given the command's meta and
  // the commit function that appends its event.
  using Decide =
      std::function<absl::Status(const ledger::CommandMeta&, ledger::CommitFn)>;
  using Done = std::function<void(absl::StatusOr<v1::WalletEvent>)>;

  // `ownership` and `group` are null unless the wallet runs in a group;
  // `metrics` is null when metrics are off. Everything outlives this.
  WalletCommands(eventlog::EventLog& log, const Clock& clock,
                 std::string producer, ledger::IdempotencyIndex& idempotency,
                 PartitionOwnership* ownership, WalletGroup* group,
                 AppendedOffsets& appended, WalletMetrics* metrics);

  // Runs one command. `done` runs exactly once: at once for an error or a
  // repeat, else on the log's completion thread when the event is durable.
  // `decided`, if given, receives the event as decided (or, for a repeat,
  // as recorded) before ExecuteAsync returns. `request_id` is the
  // idempotency key (a client's is namespaced by Caller::ClientKey);
  // `actor` is recorded on the event; `context`, if given, may carry the
  // caller's x-correlation-id.
  void ExecuteAsync(std::string_view method, std::string_view request_id,
                    std::string_view actor,
                    const google::protobuf::Message& body,
                    const grpc::ServerContextBase* context,
                    const Decide& decide, Done done,
                    v1::WalletEvent* decided = nullptr);

  // For the request readers: decides now (the ledger's order is the log's)
  // and returns the decision, or its error, without waiting for the event
  // to be durable; WaitQueued waits until every queued event is. A step
  // then costs no fsync wait of its own: they share the log's group commit.
  // A later step may use what an earlier one decided (a buy-in's capture,
  // the hold's id): both are on the player's stream, durable in order.
  absl::StatusOr<v1::WalletEvent> ExecuteQueued(
      std::string_view method, std::string_view request_id,
      const google::protobuf::Message& body, const Decide& decide);
  void WaitQueued();

  // Blocking form, for the service's own threads (hold expiry).
  absl::StatusOr<v1::WalletEvent> Execute(std::string_view method,
                                          std::string_view request_id,
                                          const google::protobuf::Message& body,
                                          const Decide& decide);

 private:
  // Who writes the event and why: the producer, the request id as its
  // cause, and the caller's x-correlation-id (at most 128 bytes) if any.
  wire::WalletEventContext EventContext(
      std::string_view request_id,
      const grpc::ServerContextBase* context) const;
  eventlog::EventLog& log_;
  const Clock& clock_;
  const std::string producer_;
  ledger::IdempotencyIndex& idempotency_;
  PartitionOwnership* const ownership_;
  WalletGroup* const group_;
  AppendedOffsets& appended_;
  WalletMetrics* const metrics_;

  // What the request readers queued on the log and is not durable yet.
  absl::Mutex queued_mu_;
  absl::CondVar queued_cv_;
  int64_t queued_ ABSL_GUARDED_BY(queued_mu_) = 0;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_WALLET_COMMANDS_H_
