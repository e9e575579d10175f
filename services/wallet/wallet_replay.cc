#include "services/wallet/wallet_replay.h"

#include "libs/common/status_macros.h"

namespace banca::wallet {

WalletReplay::WalletReplay(eventlog::EventLog& log, ledger::Ledger& ledger,
                           ledger::IdempotencyIndex& idempotency,
                           AppendedOffsets& appended)
    : log_(log),
      ledger_(ledger),
      idempotency_(idempotency),
      appended_(appended) {}

absl::StatusOr<int64_t> WalletReplay::Replay(const snapshot::LogOffsets& from) {
  ASSIGN_OR_RETURN(
      const snapshot::WalletReplayed replayed,
      snapshot::ReplayWalletLog(log_, from, ledger_, idempotency_));
  for (const auto& [where, next] : replayed.next) {
    appended_.Set(where.first, where.second, next);
  }
  return replayed.events;
}

absl::StatusOr<bool> WalletReplay::ApplyLogged(
    const eventlog::StoredRecord& record, bool replaying) {
  return snapshot::ApplyWalletRecord(record, ledger_, idempotency_,
                                     /*following=*/!replaying);
}

}  // namespace banca::wallet
