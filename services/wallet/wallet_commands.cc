#include "services/wallet/wallet_commands.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/synchronization/notification.h"
#include "libs/common/request_fingerprint.h"
#include "libs/eventlog/fail_stop.h"
#include "libs/wire/wallet_codec.h"
#include "services/wallet/wallet_group.h"

namespace banca::wallet {
namespace {

// An idempotency key: a client's request id (1..128) under
// "client/<subject>/", or an internal step's id.
constexpr size_t kMaxKeyBytes = 320;

bool IsValidKey(std::string_view key) {
  if (key.empty() || key.size() > kMaxKeyBytes) return false;
  for (char c : key) {
    if (c <= ' ' || c > '~') return false;
  }
  return true;
}

}  // namespace

WalletCommands::WalletCommands(eventlog::EventLog& log, const Clock& clock,
                               std::string producer,
                               ledger::IdempotencyIndex& idempotency,
                               PartitionOwnership* ownership,
                               WalletGroup* group, AppendedOffsets& appended,
                               WalletMetrics* metrics)
    : log_(log),
      clock_(clock),
      producer_(std::move(producer)),
      idempotency_(idempotency),
      ownership_(ownership),
      group_(group),
      appended_(appended),
      metrics_(metrics) {}

wire::WalletEventContext WalletCommands::EventContext(
    std::string_view request_id, const grpc::ServerContextBase* context) const {
  wire::WalletEventContext event_context;
  event_context.producer = producer_;
  event_context.correlation_id = std::string(request_id);
  event_context.causation_id = std::string(request_id);
  event_context.occurred_at_micros = clock_.NowMicros();
  if (context != nullptr) {
    auto it = context->client_metadata().find("x-correlation-id");
    if (it != context->client_metadata().end() && it->second.size() <= 128) {
      event_context.correlation_id.assign(it->second.data(), it->second.size());
    }
  }
  return event_context;
}

void WalletCommands::ExecuteAsync(std::string_view method,
                                  std::string_view request_id,
                                  std::string_view actor,
                                  const google::protobuf::Message& body,
                                  const grpc::ServerContextBase* context,
                                  const Decide& decide, Done done,
                                  v1::WalletEvent* decided) {
  if (!IsValidKey(request_id)) {
    done(absl::InvalidArgumentError(
        "request_id must be 1-128 printable ASCII characters without spaces"));
    return;
  }
  // Group mode: a decision passes the gate and is appended before the
  // process next polls its group (partition_ownership.h).
  if (ownership_ != nullptr) {
    if (absl::Status s = ownership_->BeginDecision(); !s.ok()) {
      done(s);
      return;
    }
    done = [this, done = std::move(done)](absl::StatusOr<v1::WalletEvent> e) {
      ownership_->EndDecision();
      done(std::move(e));
    };
  }
  const std::string fingerprint = RequestFingerprint(method, body);
  auto claim = idempotency_.Begin(request_id, fingerprint);
  if (!claim.ok()) {
    done(claim.status());
    return;
  }
  if (claim->outcome == ledger::IdempotencyIndex::Outcome::kRepeat) {
    v1::WalletEvent event;
    if (!event.ParseFromString(claim->result)) {
      done(absl::InternalError("stored result does not parse"));
      return;
    }
    if (decided != nullptr) *decided = event;
    done(std::move(event));
    return;
  }

  const wire::WalletEventContext event_context =
      EventContext(request_id, context);

  // Lives until the append completes, on whichever thread that happens.
  struct Pending {
    std::string request_id;
    int64_t at_micros = 0;  // the event's time: a replay restores it alike
    v1::WalletEvent event;
    Done done;
  };
  auto pending = std::make_shared<Pending>();
  pending->request_id = std::string(request_id);
  pending->at_micros = event_context.occurred_at_micros;
  pending->done = std::move(done);
  bool committed = false;
  auto commit = [&](const ledger::Committed& c) {
    committed = true;
    pending->event = c.event;
    if (decided != nullptr) *decided = c.event;
    std::vector<eventlog::Record> records;
    records.push_back(wire::EncodeWalletRecord(c, event_context));
    // Runs on the log's completion thread once the event is durable; the
    // caller's thread has long moved on.
    auto appended = [this, pending](absl::Status status,
                                    std::vector<eventlog::Position> positions) {
      if (!status.ok()) {
        eventlog::StopOnLogFailure("wallet", "append", status);
      }
      appended_.Record(positions);
      if (metrics_) metrics_->CountAppended();
      idempotency_.Complete(pending->request_id,
                            pending->event.SerializeAsString(),
                            pending->at_micros);
      pending->done(pending->event);
    };
    if (group_ != nullptr) {
      group_->AppendAsync(std::move(records), c.stream, std::move(appended));
    } else {
      log_.AppendAsync(std::move(records), {}, std::move(appended));
    }
  };
  const ledger::CommandMeta meta{std::string(request_id), fingerprint,
                                 std::string(actor)};
  absl::Status decision = decide(meta, commit);
  if (!decision.ok()) {
    idempotency_.Abandon(request_id);
    pending->done(decision);
    return;
  }
  if (!committed) {
    idempotency_.Abandon(request_id);
    pending->done(
        absl::InternalError("ledger accepted a command without an event"));
  }
}

absl::StatusOr<v1::WalletEvent> WalletCommands::ExecuteQueued(
    std::string_view method, std::string_view request_id,
    const google::protobuf::Message& body, const Decide& decide) {
  {
    absl::MutexLock lock(&queued_mu_);
    ++queued_;
  }
  // A refused decision calls back at once, on this thread, before
  // ExecuteAsync returns; a failed append stops the process. So an error
  // is this request's own, whichever reader queued what else meanwhile.
  auto refused = std::make_shared<absl::Status>();
  v1::WalletEvent decided;
  ExecuteAsync(
      method, request_id, wire::kWalletActor, body, nullptr, decide,
      [this, refused](absl::StatusOr<v1::WalletEvent> event) {
        absl::MutexLock lock(&queued_mu_);
        if (!event.ok()) *refused = event.status();
        --queued_;
        queued_cv_.SignalAll();
      },
      &decided);
  absl::MutexLock lock(&queued_mu_);
  if (!refused->ok()) return *refused;
  return decided;
}

void WalletCommands::WaitQueued() {
  absl::MutexLock lock(&queued_mu_);
  while (queued_ > 0) queued_cv_.Wait(&queued_mu_);
}

absl::StatusOr<v1::WalletEvent> WalletCommands::Execute(
    std::string_view method, std::string_view request_id,
    const google::protobuf::Message& body, const Decide& decide) {
  absl::Notification finished;
  absl::StatusOr<v1::WalletEvent> result;
  ExecuteAsync(method, request_id, wire::kWalletActor, body, nullptr, decide,
               [&](absl::StatusOr<v1::WalletEvent> event) {
                 result = std::move(event);
                 finished.Notify();
               });
  finished.WaitForNotification();
  return result;
}

}  // namespace banca::wallet
