// The wallet's snapshot: its ledger and its answered requests (the
// idempotency index, or the id of the answer store that keeps them) at one
// point of banca.wallet.events, with the offsets
// of that point (docs/architecture.md, "Snapshots"). A start loads the
// newest snapshot that is sound and matches the log, and replays the log
// after it; one that is damaged, of another version, past the log's end or
// of another log is refused (and the reason logged), and the previous one,
// or a replay from offset 0, is used instead: never a wrong state.
#ifndef BANCA_LIBS_SNAPSHOT_WALLET_SNAPSHOT_H_
#define BANCA_LIBS_SNAPSHOT_WALLET_SNAPSHOT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "banca/v1/snapshot.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/idempotency.h"
#include "libs/ledger/ledger.h"
#include "libs/snapshot/snapshot_dir.h"

namespace banca::snapshot {

inline constexpr std::string_view kWalletSnapshotKind = "wallet";

// The next offset of each (topic, partition) (projection::OffsetMap's
// type).
using LogOffsets = std::map<std::pair<std::string, int>, int64_t>;

// The wallet's state at one point.
struct WalletPoint {
  v1::WalletState state;
  LogOffsets next;
  // How long the ledger's gates were closed (no command was decided).
  absl::Duration paused;
};

// `at_point` runs with the ledger's gates closed and returns how far the
// log is applied there (the wallet waits for its appends in flight first,
// so the ledger holds exactly the log's events before those offsets).
// With an answer store the answers are not copied, only the store's id is
// recorded: the caller syncs the store before the snapshot is written.
WalletPoint CaptureWalletState(const ledger::Ledger& ledger,
                               const ledger::IdempotencyIndex& idempotency,
                               absl::FunctionRef<LogOffsets()> at_point);

// Writes `point` in `dir` with each partition's last record's SHA-256 read
// from `log`; returns the file's path.
absl::StatusOr<std::string> WriteWalletSnapshot(const SnapshotDir& dir,
                                                eventlog::EventLog& log,
                                                const WalletPoint& point);

// A snapshot file decoded and checked against `log`: the format, the
// checksum, its kind, every partition within the log's end and its last
// record the one the snapshot saw. DATA_LOSS or FAILED_PRECONDITION (a
// format version, a log that does not match) saying why.
absl::StatusOr<WalletPoint> ReadWalletSnapshot(const std::string& path,
                                               eventlog::EventLog& log);

struct WalletSnapshotLoad {
  // The snapshot loaded ("" none: replay from offset 0).
  std::string path;
  LogOffsets next;
  int64_t events = 0;
  // Set when the snapshot's answered requests are in that answer store,
  // not in the snapshot (WalletState::answer_store_id).
  std::string answer_store_id;
  // Each snapshot refused, newest first: "<path>: <why>".
  std::vector<std::string> refused;
};

// Loads the newest snapshot of `dir` that ReadWalletSnapshot accepts into
// `ledger` and `idempotency` (both empty); none loaded when there is none.
// One whose answers are in an answer store is refused unless
// `idempotency` has that store, or `ledger_only` (the audit, which checks
// the ledger alone) says its answers are not wanted. An error only when a
// checked snapshot cannot be loaded (the ledger refuses it: another
// currency or striping).
absl::StatusOr<WalletSnapshotLoad> LoadWalletSnapshot(
    const SnapshotDir& dir, eventlog::EventLog& log, ledger::Ledger& ledger,
    ledger::IdempotencyIndex& idempotency, bool ledger_only = false);

// Applies one record of banca.wallet.events to the ledger and the index.
// `following`: an event already applied (decided here) is skipped (false)
// instead of refused. Errors name the record.
absl::StatusOr<bool> ApplyWalletRecord(const eventlog::StoredRecord& record,
                                       ledger::Ledger& ledger,
                                       ledger::IdempotencyIndex& idempotency,
                                       bool following);

struct WalletReplayed {
  int64_t events = 0;
  LogOffsets next;
};
// Applies banca.wallet.events from `from` (absent partitions: offset 0) to
// each partition's end, then checks the ledger's end state
// (Ledger::CheckReplayedState).
absl::StatusOr<WalletReplayed> ReplayWalletLog(
    eventlog::EventLog& log, const LogOffsets& from, ledger::Ledger& ledger,
    ledger::IdempotencyIndex& idempotency);

// SHA-256 (hex) of the wallet's state: the ledger and the answered
// requests (with a store: its id), sorted, as a snapshot holds them. Equal for
// a wallet started from a snapshot and its tail and one replayed from offset 0.
std::string WalletStateHash(const ledger::Ledger& ledger,
                            const ledger::IdempotencyIndex& idempotency);

}  // namespace banca::snapshot

#endif  // BANCA_LIBS_SNAPSHOT_WALLET_SNAPSHOT_H_
