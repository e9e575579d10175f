// The wallet's log applied to its ledger and idempotency index: at start
// every event of banca.wallet.events after the newest sound snapshot, or
// from offset 0 without one (Replay; libs/snapshot/wallet_snapshot.h),
// and in group mode the events the other wallet processes append
// (ApplyLogged, from wallet_group.h).
#ifndef BANCA_SERVICES_WALLET_WALLET_REPLAY_H_
#define BANCA_SERVICES_WALLET_WALLET_REPLAY_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/idempotency.h"
#include "libs/ledger/ledger.h"
#include "libs/snapshot/wallet_snapshot.h"
#include "services/wallet/appended_offsets.h"

namespace banca::wallet {

class WalletReplay {
 public:
  WalletReplay(eventlog::EventLog& log, ledger::Ledger& ledger,
               ledger::IdempotencyIndex& idempotency,
               AppendedOffsets& appended);

  // Applies the topic from `from` (a loaded snapshot's offsets; empty:
  // offset 0), partition after partition, records how far each was read
  // in `appended`, then checks the ledger's end state
  // (Ledger::CheckReplayedState). Returns the events applied; DATA_LOSS
  // naming the record for a log the ledger refuses.
  absl::StatusOr<int64_t> Replay(const snapshot::LogOffsets& from = {});

  // Applies one logged event to the ledger and the idempotency index.
  // Replaying, a repeat is DATA_LOSS; following, an event this process
  // decided itself is skipped (false).
  absl::StatusOr<bool> ApplyLogged(const eventlog::StoredRecord& record,
                                   bool replaying);

 private:
  eventlog::EventLog& log_;
  ledger::Ledger& ledger_;
  ledger::IdempotencyIndex& idempotency_;
  AppendedOffsets& appended_;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_WALLET_REPLAY_H_
