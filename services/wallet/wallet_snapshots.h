// The wallet's snapshots (libs/snapshot/wallet_snapshot.h): loaded at
// start, taken in the background every `every_events` events of the log
// and at a clean stop, the newest two kept in DATA_DIR/snapshots/wallet.
//
// A snapshot is one point of the wallet: the ledger's gates are closed
// (no command is decided meanwhile), the appends already decided are
// waited for (InFlightLog), and with them durable the ledger, the answered
// requests and the offsets recorded are one consistent cut of the log.
// The gates open again before the copy is sorted, encoded and written;
// the pause (a group commit plus the copy) is logged and measured by
// `banca bench startup`. In group mode the other processes' events are
// followed beside the decisions, so no snapshot is taken (one is loaded).
#ifndef BANCA_SERVICES_WALLET_WALLET_SNAPSHOTS_H_
#define BANCA_SERVICES_WALLET_WALLET_SNAPSHOTS_H_

#include <cstdint>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "libs/ledger/idempotency.h"
#include "libs/ledger/ledger.h"
#include "libs/snapshot/snapshot_dir.h"
#include "libs/snapshot/wallet_snapshot.h"
#include "services/wallet/appended_offsets.h"
#include "services/wallet/in_flight_log.h"

namespace banca::wallet {

struct WalletSnapshotOptions {
  // "": no snapshots (every start replays from offset 0).
  std::string dir;
  // A snapshot once the log has moved this many events past the last
  // one; 0: only at a clean stop.
  int64_t every_events = 1'000'000;
  // How often the schedule is checked.
  absl::Duration check_interval = absl::Milliseconds(100);
  int keep = snapshot::kDefaultKeep;
  // Group mode: snapshots are loaded, never taken.
  bool take = true;
};

class WalletSnapshots {
 public:
  // Everything outlives this; the schedule stops once `stopping` is
  // notified.
  WalletSnapshots(InFlightLog& log, ledger::Ledger& ledger,
                  ledger::IdempotencyIndex& idempotency,
                  AppendedOffsets& appended, WalletSnapshotOptions options,
                  const absl::Notification& stopping);
  ~WalletSnapshots();
  WalletSnapshots(const WalletSnapshots&) = delete;
  WalletSnapshots& operator=(const WalletSnapshots&) = delete;

  // At start, into the empty ledger and index: the newest sound snapshot
  // (each refused one logged with why). Returns the offsets to replay the
  // log from (empty: offset 0).
  absl::StatusOr<snapshot::LogOffsets> Load();
  // Once the wallet has started: arms Take (a wallet whose start failed
  // half-way never writes its half state) and starts the schedule (none
  // when every_events is 0 or not taking).
  void Start();
  // Once `stopping` is notified: waits for the schedule to end.
  void Join();
  // Takes a snapshot now, unless nothing moved since the last one.
  // Returns its path ("" none taken).
  absl::StatusOr<std::string> Take();

 private:
  void Loop();
  int64_t AppendedEvents() const;

  InFlightLog& log_;
  ledger::Ledger& ledger_;
  ledger::IdempotencyIndex& idempotency_;
  AppendedOffsets& appended_;
  const WalletSnapshotOptions options_;
  const snapshot::SnapshotDir dir_;
  const absl::Notification& stopping_;
  std::thread thread_;
  absl::Mutex take_mu_;
  // Events the last snapshot (taken or loaded) covers.
  int64_t covered_ ABSL_GUARDED_BY(take_mu_) = -1;
  bool started_ ABSL_GUARDED_BY(take_mu_) = false;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_WALLET_SNAPSHOTS_H_
