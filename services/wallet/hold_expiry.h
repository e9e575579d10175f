// The wallet's hold sweeper: every interval it releases the open holds
// whose expiry has passed (of the owners this process decides for), one
// request id per hold ("expire/<hold id>") so two sweeps never release one
// twice; and, every fifth round, refreshes the ledger gauges (a full scan
// of the ledger, Ledger::Summarize).
#ifndef BANCA_SERVICES_WALLET_HOLD_EXPIRY_H_
#define BANCA_SERVICES_WALLET_HOLD_EXPIRY_H_

#include <thread>

#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "libs/common/clock.h"
#include "libs/ledger/ledger.h"
#include "services/wallet/partition_ownership.h"
#include "services/wallet/wallet_commands.h"
#include "services/wallet/wallet_metrics.h"

namespace banca::wallet {

class HoldExpiry {
 public:
  // `ownership` is null unless the wallet runs in a group, `metrics` when
  // metrics are off. Everything outlives this; the sweeper stops once
  // `stopping` is notified.
  HoldExpiry(ledger::Ledger& ledger, WalletCommands& commands,
             const Clock& clock, const PartitionOwnership* ownership,
             WalletMetrics* metrics, absl::Duration interval,
             const absl::Notification& stopping);
  ~HoldExpiry();
  HoldExpiry(const HoldExpiry&) = delete;
  HoldExpiry& operator=(const HoldExpiry&) = delete;

  void Start();
  // Once `stopping` is notified: waits for the sweeper to end.
  void Join();

 private:
  void Loop();
  void Sweep();

  ledger::Ledger& ledger_;
  WalletCommands& commands_;
  const Clock& clock_;
  const PartitionOwnership* const ownership_;
  WalletMetrics* const metrics_;
  const absl::Duration interval_;
  const absl::Notification& stopping_;
  std::thread thread_;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_HOLD_EXPIRY_H_
