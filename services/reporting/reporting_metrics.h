// Prometheus metrics of the reporting service's projections:
//   banca_reporting_lag_records{topic}  records of the log not yet
//       applied (on Kafka transaction markers count too), every second
//   banca_reporting_records_applied_total{topic}  since the process began,
//       its catch-up at start included
//   banca_reporting_last_applied_timestamp_seconds  when it last applied one
//   banca_reporting_records_refused_total{topic}  records the projection
//       refused (it then stops: the service answers DATA_LOSS)
// MeteredProjector counts what the projector applies; ProjectionLag
// measures what is left.
#ifndef BANCA_SERVICES_REPORTING_REPORTING_METRICS_H_
#define BANCA_SERVICES_REPORTING_REPORTING_METRICS_H_

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libs/eventlog/event_log.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"

namespace banca::reporting {

// `projector`, with what it applies and refuses counted.
class MeteredProjector final : public projection::Projector {
 public:
  MeteredProjector(std::unique_ptr<projection::Projector> projector,
                   prometheus::Registry& registry);

  std::vector<std::string> Topics() const override {
    return projector_->Topics();
  }
  absl::Status Apply(const eventlog::StoredRecord& record,
                     projection::Txn& txn) override;
  // The projector's lanes, its records counted as Apply's (a failed read
  // counts one refused: the catch-up stops at it).
  int Lanes() const override { return projector_->Lanes(); }
  absl::Status ApplyLanes(const std::vector<eventlog::StoredRecord>& records,
                          const std::vector<projection::Txn*>& txns) override;

  // Sets the lag of every topic from the log's ends and the store's
  // offsets (a topic not made yet has none).
  void MeasureLag(eventlog::EventLog& log,
                  const projection::ProjectionStore& store);

 private:
  struct TopicMetrics {
    prometheus::Counter* applied = nullptr;
    prometheus::Counter* refused = nullptr;
    prometheus::Gauge* lag = nullptr;
  };

  std::unique_ptr<projection::Projector> projector_;
  std::map<std::string, TopicMetrics> topics_;  // fixed after construction
  prometheus::Gauge& last_applied_;
};

}  // namespace banca::reporting

#endif  // BANCA_SERVICES_REPORTING_REPORTING_METRICS_H_
