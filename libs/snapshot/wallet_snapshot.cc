#include "libs/snapshot/wallet_snapshot.h"

#include <algorithm>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/status_macros.h"
#include "libs/snapshot/snapshot_file.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"

namespace banca::snapshot {
namespace {

void SortRequests(v1::WalletState& state) {
  auto* requests = state.mutable_requests();
  std::sort(requests->pointer_begin(), requests->pointer_end(),
            [](const auto* a, const auto* b) {
              return a->request_id() < b->request_id();
            });
}

// SHA-256 of the record at `offset` (its key and value); NOT_FOUND when
// the log has no record there.
absl::StatusOr<std::string> RecordHash(eventlog::EventLog& log,
                                       const std::string& topic, int partition,
                                       int64_t offset) {
  ASSIGN_OR_RETURN(const std::vector<eventlog::StoredRecord> records,
                   log.Read(topic, partition, offset, 1));
  if (records.empty() || records[0].offset != offset) {
    return absl::NotFoundError(
        absl::StrCat("no record at ", topic, "/", partition, "@", offset));
  }
  return Sha256(absl::StrCat(records[0].key.size(), ":", records[0].key,
                             records[0].value));
}

// Every offset of the header within `log` and at the record it names.
absl::Status CheckOffsets(const v1::SnapshotHeader& header,
                          eventlog::EventLog& log) {
  const std::string topic(wire::kWalletTopic);
  ASSIGN_OR_RETURN(const int partitions, log.PartitionCount(topic));
  for (const v1::SnapshotOffset& o : header.offsets()) {
    if (o.topic() != topic || o.partition() < 0 ||
        o.partition() >= partitions || o.next_offset() < 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "offset of ", o.topic(), "/", o.partition(),
          " is not one of the log's ", partitions, " wallet partitions"));
    }
    ASSIGN_OR_RETURN(const int64_t end, log.EndOffset(topic, o.partition()));
    if (o.next_offset() > end) {
      return absl::FailedPreconditionError(
          absl::StrCat("covers ", topic, "/", o.partition(), " up to ",
                       o.next_offset(), ", past the log's end ", end));
    }
    if (o.next_offset() == 0) continue;
    absl::StatusOr<std::string> hash =
        RecordHash(log, topic, o.partition(), o.next_offset() - 1);
    if (!hash.ok() || *hash != o.last_record_sha256()) {
      return absl::FailedPreconditionError(
          absl::StrCat("its last record of ", topic, "/", o.partition(), "@",
                       o.next_offset() - 1, " is not the log's"));
    }
  }
  return absl::OkStatus();
}

// A snapshot whose answers are in a store is sound only beside that store
// (a store made anew, or another wallet's, lacks the answers before it),
// unless only its ledger is wanted.
absl::Status CheckAnswerStore(const v1::WalletState& state,
                              const ledger::IdempotencyIndex& idempotency,
                              bool ledger_only) {
  const ledger::AnswerStore* store = idempotency.store();
  if (state.answer_store_id().empty() || ledger_only ||
      (store != nullptr && store->id() == state.answer_store_id())) {
    return absl::OkStatus();
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "its answered requests are in answer store ",
      state.answer_store_id().substr(0, 32), ", not in this wallet's (",
      store == nullptr ? "none: answers in memory" : store->id(), ")"));
}

void RestoreAnswers(const v1::WalletState& state,
                    ledger::IdempotencyIndex& idempotency) {
  const int64_t now = absl::ToUnixMicros(absl::Now());
  for (const v1::IdempotencyEntryState& e : state.requests()) {
    // The fingerprint is hex (IdempotencyIndex::ExportAnswered); a
    // snapshot from before the window has no time: its load's is taken.
    idempotency.Restore(
        e.request_id(), absl::HexStringToBytes(e.fingerprint()), e.result(),
        e.answered_at_micros() != 0 ? e.answered_at_micros() : now);
  }
}

}  // namespace

WalletPoint CaptureWalletState(const ledger::Ledger& ledger,
                               const ledger::IdempotencyIndex& idempotency,
                               absl::FunctionRef<LogOffsets()> at_point) {
  WalletPoint point;
  point.paused = ledger.ExportState(point.state.mutable_ledger(), [&] {
    point.next = at_point();
    idempotency.ExportAnswered(point.state.mutable_requests());
  });
  if (const ledger::AnswerStore* store = idempotency.store()) {
    point.state.set_answer_store_id(store->id());
  }
  SortRequests(point.state);
  return point;
}

absl::StatusOr<std::string> WriteWalletSnapshot(const SnapshotDir& dir,
                                                eventlog::EventLog& log,
                                                const WalletPoint& point) {
  v1::SnapshotHeader header;
  header.set_kind(std::string(kWalletSnapshotKind));
  header.set_created_at_micros(absl::ToUnixMicros(absl::Now()));
  int64_t events = 0;
  for (const auto& [where, next] : point.next) {
    if (next <= 0) continue;
    v1::SnapshotOffset* o = header.add_offsets();
    o->set_topic(where.first);
    o->set_partition(where.second);
    o->set_next_offset(next);
    ASSIGN_OR_RETURN(*o->mutable_last_record_sha256(),
                     RecordHash(log, where.first, where.second, next - 1));
    events += next;
  }
  header.set_events(events);
  return dir.Write(header, point.state.SerializeAsString());
}

absl::StatusOr<WalletPoint> ReadWalletSnapshot(const std::string& path,
                                               eventlog::EventLog& log) {
  ASSIGN_OR_RETURN(const std::string bytes, ReadWholeFile(path));
  ASSIGN_OR_RETURN(const SnapshotFile file, DecodeSnapshot(bytes));
  if (file.header.kind() != kWalletSnapshotKind) {
    return absl::FailedPreconditionError(
        absl::StrCat("a ", file.header.kind(), " snapshot, not the wallet's"));
  }
  RETURN_IF_ERROR(CheckOffsets(file.header, log));
  WalletPoint point;
  if (!point.state.ParseFromString(file.payload)) {
    return absl::DataLossError("snapshot payload does not parse");
  }
  for (const v1::SnapshotOffset& o : file.header.offsets()) {
    point.next[{o.topic(), o.partition()}] = o.next_offset();
  }
  return point;
}

absl::StatusOr<WalletSnapshotLoad> LoadWalletSnapshot(
    const SnapshotDir& dir, eventlog::EventLog& log, ledger::Ledger& ledger,
    ledger::IdempotencyIndex& idempotency, bool ledger_only) {
  WalletSnapshotLoad load;
  ASSIGN_OR_RETURN(const std::vector<std::string> paths, dir.List());
  for (const std::string& path : paths) {
    absl::StatusOr<WalletPoint> point = ReadWalletSnapshot(path, log);
    if (!point.ok()) {
      load.refused.push_back(
          absl::StrCat(path, ": ", point.status().message()));
      continue;
    }
    if (absl::Status s =
            CheckAnswerStore(point->state, idempotency, ledger_only);
        !s.ok()) {
      load.refused.push_back(absl::StrCat(path, ": ", s.message()));
      continue;
    }
    RETURN_IF_ERROR(ledger.ImportState(point->state.ledger()));
    RestoreAnswers(point->state, idempotency);
    load.path = path;
    load.answer_store_id = point->state.answer_store_id();
    load.next = std::move(point->next);
    for (const auto& [where, next] : load.next) load.events += next;
    return load;
  }
  return load;
}

absl::StatusOr<bool> ApplyWalletRecord(const eventlog::StoredRecord& record,
                                       ledger::Ledger& ledger,
                                       ledger::IdempotencyIndex& idempotency,
                                       bool following) {
  ASSIGN_OR_RETURN(const wire::DecodedWalletEvent decoded,
                   wire::DecodeWalletRecord(record));
  const v1::WalletEvent& event = decoded.event;
  const std::string& stream = decoded.envelope.stream_id();
  const uint64_t sequence = decoded.envelope.sequence();
  absl::StatusOr<bool> applied = true;
  if (following) {
    applied = ledger.ApplyIfNext(stream, sequence, event);
  } else if (absl::Status s = ledger.Apply(stream, sequence, event); !s.ok()) {
    applied = s;
  }
  if (!applied.ok()) {
    return absl::Status(
        applied.status().code(),
        absl::StrCat(following ? "following " : "replaying ", record.topic, "/",
                     record.partition, "@", record.offset, ": ",
                     applied.status().message()));
  }
  if (*applied && !event.request_id().empty()) {
    idempotency.Restore(event.request_id(), event.request_fingerprint(),
                        decoded.envelope.payload(),
                        decoded.envelope.occurred_at_micros());
  }
  return applied;
}

absl::StatusOr<WalletReplayed> ReplayWalletLog(
    eventlog::EventLog& log, const LogOffsets& from, ledger::Ledger& ledger,
    ledger::IdempotencyIndex& idempotency) {
  const std::string topic(wire::kWalletTopic);
  ASSIGN_OR_RETURN(const int partitions, log.PartitionCount(topic));
  WalletReplayed replayed;
  for (int p = 0; p < partitions; ++p) {
    auto it = from.find({topic, p});
    const int64_t start = it == from.end() ? 0 : it->second;
    auto apply = [&](const eventlog::StoredRecord& record) -> absl::Status {
      RETURN_IF_ERROR(
          ApplyWalletRecord(record, ledger, idempotency, false).status());
      ++replayed.events;
      return absl::OkStatus();
    };
    ASSIGN_OR_RETURN(const int64_t next,
                     eventlog::ReadPartitionToEnd(log, topic, p, start, apply));
    if (next > 0) replayed.next[{topic, p}] = next;
  }
  // The partitions were read one after another, not in the order the
  // ledger decided: balances may pass int64 on the way (the ledger wraps
  // around), so only the end state says whether the history is sound.
  if (absl::Status s = ledger.CheckReplayedState(); !s.ok()) {
    return absl::Status(s.code(),
                        absl::StrCat("replaying ", topic, ": ", s.message()));
  }
  return replayed;
}

std::string WalletStateHash(const ledger::Ledger& ledger,
                            const ledger::IdempotencyIndex& idempotency) {
  const WalletPoint point =
      CaptureWalletState(ledger, idempotency, [] { return LogOffsets{}; });
  return absl::BytesToHexString(Sha256(point.state.SerializeAsString()));
}

}  // namespace banca::snapshot
