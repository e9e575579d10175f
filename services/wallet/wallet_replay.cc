#include "services/wallet/wallet_replay.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"

namespace banca::wallet {

WalletReplay::WalletReplay(eventlog::EventLog& log, ledger::Ledger& ledger,
                           ledger::IdempotencyIndex& idempotency,
                           AppendedOffsets& appended)
    : log_(log),
      ledger_(ledger),
      idempotency_(idempotency),
      appended_(appended) {}

absl::StatusOr<int64_t> WalletReplay::Replay() {
  const std::string topic(wire::kWalletTopic);
  ASSIGN_OR_RETURN(const int partitions, log_.PartitionCount(topic));
  int64_t events = 0;
  for (int p = 0; p < partitions; ++p) {
    auto apply = [&](const eventlog::StoredRecord& record) -> absl::Status {
      RETURN_IF_ERROR(ApplyLogged(record, /*replaying=*/true).status());
      ++events;
      return absl::OkStatus();
    };
    ASSIGN_OR_RETURN(const int64_t next,
                     eventlog::ReadPartitionToEnd(log_, topic, p, 0, apply));
    if (next > 0) appended_.Set(topic, p, next);
  }
  // The partitions were read one after another, not in the order the ledger
  // decided: balances may pass int64 on the way (the ledger wraps around),
  // so only the end state says whether the history is sound.
  if (absl::Status s = ledger_.CheckReplayedState(); !s.ok()) {
    return absl::Status(s.code(),
                        absl::StrCat("replaying ", topic, ": ", s.message()));
  }
  return events;
}

absl::StatusOr<bool> WalletReplay::ApplyLogged(
    const eventlog::StoredRecord& record, bool replaying) {
  ASSIGN_OR_RETURN(const wire::DecodedWalletEvent decoded,
                   wire::DecodeWalletRecord(record));
  const v1::WalletEvent& event = decoded.event;
  const std::string& stream = decoded.envelope.stream_id();
  const uint64_t sequence = decoded.envelope.sequence();
  absl::StatusOr<bool> applied = true;
  if (replaying) {
    if (absl::Status s = ledger_.Apply(stream, sequence, event); !s.ok()) {
      applied = s;
    }
  } else {
    applied = ledger_.ApplyIfNext(stream, sequence, event);
  }
  if (!applied.ok()) {
    return absl::Status(
        applied.status().code(),
        absl::StrCat(replaying ? "replaying " : "following ", record.topic, "/",
                     record.partition, "@", record.offset, ": ",
                     applied.status().message()));
  }
  if (*applied && !event.request_id().empty()) {
    idempotency_.Restore(event.request_id(), event.request_fingerprint(),
                         decoded.envelope.payload());
  }
  return applied;
}

}  // namespace banca::wallet
