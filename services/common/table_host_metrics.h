// Prometheus metrics of a table host (table_host.h), whatever its game:
//   banca_table_host_tables_open{service,game}
//   banca_table_host_rounds_finished_total{service,game}  hands and rounds
//   banca_table_host_decisions_total{service,game,result}  "ok" or the
//       refusal's status code
//   banca_table_host_saga_outcomes_total{service,game,outcome}
//       completed, failed (the wallet refused), timed_out
//   banca_saga_failures_total{service,kind}  failed or timed_out
//   banca_table_host_answer_duration_seconds{service,game,method}
// Labels are the code's names, never a client's input.
#ifndef BANCA_SERVICES_COMMON_TABLE_HOST_METRICS_H_
#define BANCA_SERVICES_COMMON_TABLE_HOST_METRICS_H_

#include <array>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace banca::table {

// How an event ends a saga (a game's SagaEndOf).
enum class SagaEnd { kNone, kCompleted, kFailed, kTimedOut };

class TableHostMetrics {
 public:
  // `service` as --services names it ("table", "tournament"); `game` the
  // host's ("poker", "banked", "tournament").
  TableHostMetrics(prometheus::Registry& registry, std::string_view service,
                   std::string_view game);

  void SetTablesOpen(size_t tables) {
    tables_open_.Set(static_cast<double>(tables));
  }
  void CountRoundFinished() { rounds_finished_.Increment(); }
  void CountDecision(const absl::Status& result);
  void CountSagaEnd(SagaEnd end);
  // The time a command took to answer (its durable outcome included).
  void ObserveAnswer(std::string_view method, double seconds);

 private:
  static constexpr int kCodes = 17;  // absl::StatusCode 0..16

  const std::string service_;
  const std::string game_;
  prometheus::Gauge& tables_open_;
  prometheus::Counter& rounds_finished_;
  std::array<prometheus::Counter*, kCodes> decisions_{};  // by code
  prometheus::Counter& saga_completed_;
  prometheus::Counter& saga_failed_;
  prometheus::Counter& saga_timed_out_;
  prometheus::Counter& failures_failed_;
  prometheus::Counter& failures_timed_out_;
  prometheus::Family<prometheus::Histogram>& answers_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, prometheus::Histogram*> answer_by_method_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_COMMON_TABLE_HOST_METRICS_H_
