// The thread that drives the wallet's request readers (request_reader.h):
// every interval it polls each reader in turn, and once a second exports
// each one's lag as banca_wallet_request_lag_records{topic} (a wallet
// falling behind delays every buy-in and settlement).
#ifndef BANCA_SERVICES_WALLET_REQUEST_LOOP_H_
#define BANCA_SERVICES_WALLET_REQUEST_LOOP_H_

#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "services/wallet/request_reader.h"
#include "services/wallet/wallet_metrics.h"

namespace banca::wallet {

class RequestLoop {
 public:
  // `metrics` is null when metrics are off. Everything outlives this; the
  // loop stops once `stopping` is notified.
  RequestLoop(std::vector<RequestReader*> readers, WalletMetrics* metrics,
              absl::Duration interval, const absl::Notification& stopping);
  ~RequestLoop();
  RequestLoop(const RequestLoop&) = delete;
  RequestLoop& operator=(const RequestLoop&) = delete;

  void Start();
  // Once `stopping` is notified: waits for the loop to end.
  void Join();

 private:
  void Loop();

  const std::vector<RequestReader*> readers_;
  WalletMetrics* const metrics_;
  const absl::Duration interval_;
  const absl::Notification& stopping_;
  std::thread thread_;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_REQUEST_LOOP_H_
