#include "services/wallet/wallet_metrics.h"

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"

namespace banca::wallet {
namespace {

// Prometheus samples are IEEE doubles; whole cents below 2^53 (90 trillion
// euros) convert exactly. This is the only place a ledger amount becomes a
// floating sample, and only on its way out to the metrics endpoint.
double Exported(int64_t v) { return static_cast<double>(v); }

}  // namespace

WalletMetrics::WalletMetrics(prometheus::Registry& registry)
    : requests_(prometheus::BuildCounter()
                    .Name("banca_wallet_requests_total")
                    .Help("Wallet RPCs by method and gRPC status code")
                    .Register(registry)),
      latency_(prometheus::BuildHistogram()
                   .Name("banca_wallet_request_duration_seconds")
                   .Help("Wallet RPC latency, including the durable append")
                   .Register(registry)),
      balances_(prometheus::BuildGauge()
                    .Name("banca_wallet_ledger_balance_minor")
                    .Help("Sum of ledger balances per account class, cents")
                    .Register(registry)),
      appended_(prometheus::BuildCounter()
                    .Name("banca_wallet_events_appended_total")
                    .Help("Events the wallet appended to the log")
                    .Register(registry)
                    .Add({})),
      ledger_sum_(prometheus::BuildGauge()
                      .Name("banca_wallet_ledger_sum_minor")
                      .Help("Sum of every ledger balance; always 0")
                      .Register(registry)
                      .Add({})),
      deposits_(prometheus::BuildGauge()
                    .Name("banca_wallet_deposits_minor")
                    .Help("Total deposited since the log began, cents")
                    .Register(registry)
                    .Add({})),
      withdrawals_(prometheus::BuildGauge()
                       .Name("banca_wallet_withdrawals_minor")
                       .Help("Total withdrawn since the log began, cents")
                       .Register(registry)
                       .Add({})),
      open_holds_(prometheus::BuildGauge()
                      .Name("banca_wallet_open_holds")
                      .Help("Holds not yet captured or released")
                      .Register(registry)
                      .Add({})),
      players_(prometheus::BuildGauge()
                   .Name("banca_wallet_players")
                   .Help("Player accounts opened")
                   .Register(registry)
                   .Add({})),
      request_lag_(prometheus::BuildGauge()
                       .Name("banca_wallet_request_lag_records")
                       .Help("Table records (buy-ins, stakes, settlements, "
                             "cash-outs) the wallet has yet to carry out")
                       .Register(registry)),
      quarantined_(prometheus::BuildCounter()
                       .Name("banca_wallet_requests_quarantined_total")
                       .Help("Table records the wallet could never carry "
                             "out and quarantined (RequestQuarantined)")
                       .Register(registry)) {}

void WalletMetrics::CountQuarantined(std::string_view topic) {
  quarantined_.Add({{"topic", std::string(topic)}}).Increment();
}

void WalletMetrics::SetRequestLag(std::string_view topic, int64_t records) {
  request_lag_.Add({{"topic", std::string(topic)}})
      .Set(static_cast<double>(records));
}

void WalletMetrics::ObserveRequest(std::string_view method,
                                   std::string_view code, double seconds) {
  prometheus::Counter* counter;
  prometheus::Histogram* histogram;
  {
    absl::MutexLock lock(&mu_);
    const std::string key = absl::StrCat(ToAbsl(method), "/", ToAbsl(code));
    auto& c = counters_[key];
    if (c == nullptr) {
      c = &requests_.Add(
          {{"method", std::string(method)}, {"code", std::string(code)}});
    }
    counter = c;
    auto& h = histograms_[ToAbsl(method)];
    if (h == nullptr) {
      h = &latency_.Add(
          {{"method", std::string(method)}},
          prometheus::Histogram::BucketBoundaries{
              0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1});
    }
    histogram = h;
  }
  counter->Increment();
  histogram->Observe(seconds);
}

void WalletMetrics::SetLedger(const ledger::LedgerSummary& summary) {
  for (int c = 0; c < static_cast<int>(summary.classes.size()); ++c) {
    const auto name =
        ledger::AccountClassName(static_cast<ledger::AccountClass>(c));
    balances_.Add({{"class", std::string(name)}})
        .Set(Exported(summary.classes[c].balance));
  }
  ledger_sum_.Set(Exported(summary.sum));
  deposits_.Set(Exported(summary.deposits));
  withdrawals_.Set(Exported(summary.withdrawals));
  open_holds_.Set(Exported(summary.open_holds));
  players_.Set(Exported(summary.players));
}

}  // namespace banca::wallet
