#include "services/reporting/reporting_metrics.h"

#include <algorithm>

namespace banca::reporting {

MeteredProjector::MeteredProjector(
    std::unique_ptr<projection::Projector> projector,
    prometheus::Registry& registry)
    : projector_(std::move(projector)),
      last_applied_(prometheus::BuildGauge()
                        .Name("banca_reporting_last_applied_timestamp_seconds")
                        .Help("When the projections last applied a record "
                              "(Unix time)")
                        .Register(registry)
                        .Add({})) {
  auto& applied = prometheus::BuildCounter()
                      .Name("banca_reporting_records_applied_total")
                      .Help(
                          "Log records the projections applied since the "
                          "process started")
                      .Register(registry);
  auto& refused = prometheus::BuildCounter()
                      .Name("banca_reporting_records_refused_total")
                      .Help(
                          "Log records the projections refused (they stop "
                          "there)")
                      .Register(registry);
  auto& lag = prometheus::BuildGauge()
                  .Name("banca_reporting_lag_records")
                  .Help("Log records the projections have yet to apply")
                  .Register(registry);
  for (const std::string& topic : projector_->Topics()) {
    topics_[topic] = {&applied.Add({{"topic", topic}}),
                      &refused.Add({{"topic", topic}}),
                      &lag.Add({{"topic", topic}})};
  }
}

absl::Status MeteredProjector::Apply(const eventlog::StoredRecord& record,
                                     projection::Txn& txn) {
  absl::Status s = projector_->Apply(record, txn);
  auto it = topics_.find(record.topic);
  if (it != topics_.end()) {
    (s.ok() ? it->second.applied : it->second.refused)->Increment();
  }
  if (s.ok()) last_applied_.SetToCurrentTime();
  return s;
}

absl::Status MeteredProjector::ApplyLanes(
    const std::vector<eventlog::StoredRecord>& records,
    const std::vector<projection::Txn*>& txns) {
  absl::Status s = projector_->ApplyLanes(records, txns);
  if (records.empty()) return s;
  // A catch-up reads one partition at a time: one topic.
  auto it = topics_.find(records.front().topic);
  if (it != topics_.end()) {
    if (s.ok()) {
      it->second.applied->Increment(static_cast<double>(records.size()));
    } else {
      it->second.refused->Increment();
    }
  }
  if (s.ok()) last_applied_.SetToCurrentTime();
  return s;
}

void MeteredProjector::MeasureLag(eventlog::EventLog& log,
                                  const projection::ProjectionStore& store) {
  for (const auto& [topic, metrics] : topics_) {
    absl::StatusOr<int> partitions = log.PartitionCount(topic);
    if (!partitions.ok()) continue;  // not made yet, or the log is away
    int64_t lag = 0;
    for (int p = 0; p < *partitions; ++p) {
      absl::StatusOr<int64_t> end = log.EndOffset(topic, p);
      if (!end.ok()) continue;
      lag += std::max<int64_t>(0, *end - store.Offset(topic, p));
    }
    metrics.lag->Set(static_cast<double>(lag));
  }
}

}  // namespace banca::reporting
