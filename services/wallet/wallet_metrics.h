// Prometheus metrics of the wallet: banca_wallet_<thing>_<unit>.
#ifndef BANCA_SERVICES_WALLET_WALLET_METRICS_H_
#define BANCA_SERVICES_WALLET_WALLET_METRICS_H_

#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "libs/ledger/ledger.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace banca::wallet {

class WalletMetrics {
 public:
  explicit WalletMetrics(prometheus::Registry& registry);

  void ObserveRequest(std::string_view method, std::string_view code,
                      double seconds);
  void CountAppended() { appended_.Increment(); }
  void SetLedger(const ledger::LedgerSummary& summary);
  // Records of `topic` the wallet has yet to carry out.
  void SetRequestLag(std::string_view topic, int64_t records);
  // A record of `topic` quarantined (request_quarantine.h).
  void CountQuarantined(std::string_view topic);

 private:
  prometheus::Family<prometheus::Counter>& requests_;
  prometheus::Family<prometheus::Histogram>& latency_;
  prometheus::Family<prometheus::Gauge>& balances_;
  prometheus::Counter& appended_;
  prometheus::Gauge& ledger_sum_;
  prometheus::Gauge& deposits_;
  prometheus::Gauge& withdrawals_;
  prometheus::Gauge& open_holds_;
  prometheus::Gauge& players_;
  prometheus::Family<prometheus::Gauge>& request_lag_;
  prometheus::Family<prometheus::Counter>& quarantined_;
  absl::Mutex mu_;
  // Label lookups are not free; cache the children per method and code.
  absl::flat_hash_map<std::string, prometheus::Counter*> counters_;
  absl::flat_hash_map<std::string, prometheus::Histogram*> histograms_;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_WALLET_METRICS_H_
