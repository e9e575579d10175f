#include "services/common/table_host_metrics.h"

#include "libs/common/string_view.h"

namespace banca::table {
namespace {

prometheus::Labels Of(const std::string& service, const std::string& game) {
  return {{"service", service}, {"game", game}};
}

prometheus::Labels With(prometheus::Labels labels, std::string name,
                        std::string value) {
  labels.emplace(std::move(name), std::move(value));
  return labels;
}

prometheus::Family<prometheus::Counter>& SagaOutcomes(
    prometheus::Registry& registry) {
  return prometheus::BuildCounter()
      .Name("banca_table_host_saga_outcomes_total")
      .Help(
          "Money sagas (buy-ins, stakes, tournament payments) ended, by "
          "outcome: completed, failed (the wallet refused), timed_out")
      .Register(registry);
}

prometheus::Family<prometheus::Counter>& SagaFailures(
    prometheus::Registry& registry) {
  return prometheus::BuildCounter()
      .Name("banca_saga_failures_total")
      .Help(
          "Money sagas that did not complete, by service and kind: "
          "failed (the wallet refused) or timed_out (it did not answer "
          "in time)")
      .Register(registry);
}

}  // namespace

TableHostMetrics::TableHostMetrics(prometheus::Registry& registry,
                                   std::string_view service,
                                   std::string_view game)
    : service_(service),
      game_(game),
      tables_open_(prometheus::BuildGauge()
                       .Name("banca_table_host_tables_open")
                       .Help("Tables (or tournaments) the process hosts")
                       .Register(registry)
                       .Add(Of(service_, game_))),
      rounds_finished_(prometheus::BuildCounter()
                           .Name("banca_table_host_rounds_finished_total")
                           .Help("Hands and rounds finished (settled or "
                                 "voided) since the process started")
                           .Register(registry)
                           .Add(Of(service_, game_))),
      saga_completed_(SagaOutcomes(registry).Add(
          With(Of(service_, game_), "outcome", "completed"))),
      saga_failed_(SagaOutcomes(registry).Add(
          With(Of(service_, game_), "outcome", "failed"))),
      saga_timed_out_(SagaOutcomes(registry).Add(
          With(Of(service_, game_), "outcome", "timed_out"))),
      failures_failed_(SagaFailures(registry).Add(
          {{"service", service_}, {"kind", "failed"}})),
      failures_timed_out_(SagaFailures(registry).Add(
          {{"service", service_}, {"kind", "timed_out"}})),
      answers_(prometheus::BuildHistogram()
                   .Name("banca_table_host_answer_duration_seconds")
                   .Help("Time a command took to answer, its outcome made "
                         "durable in the log")
                   .Register(registry)) {
  auto& decisions = prometheus::BuildCounter()
                        .Name("banca_table_host_decisions_total")
                        .Help(
                            "Events decided at a table: ok, or the "
                            "status code it was refused with")
                        .Register(registry);
  for (int c = 0; c < kCodes; ++c) {
    const auto code = static_cast<absl::StatusCode>(c);
    decisions_[c] = &decisions.Add(With(Of(service_, game_), "result",
                                        code == absl::StatusCode::kOk
                                            ? std::string("ok")
                                            : absl::StatusCodeToString(code)));
  }
}

void TableHostMetrics::CountDecision(const absl::Status& result) {
  const int c = static_cast<int>(result.code());
  decisions_[c >= 0 && c < kCodes
                 ? c
                 : static_cast<int>(absl::StatusCode::kUnknown)]
      ->Increment();
}

void TableHostMetrics::CountSagaEnd(SagaEnd end) {
  switch (end) {
    case SagaEnd::kNone:
      return;
    case SagaEnd::kCompleted:
      saga_completed_.Increment();
      return;
    case SagaEnd::kFailed:
      saga_failed_.Increment();
      failures_failed_.Increment();
      return;
    case SagaEnd::kTimedOut:
      saga_timed_out_.Increment();
      failures_timed_out_.Increment();
      return;
  }
}

void TableHostMetrics::ObserveAnswer(std::string_view method, double seconds) {
  prometheus::Histogram* histogram;
  {
    absl::MutexLock lock(&mu_);
    prometheus::Histogram*& h = answer_by_method_[ToAbsl(method)];
    if (h == nullptr) {
      h = &answers_.Add(
          With(Of(service_, game_), "method", std::string(method)),
          prometheus::Histogram::BucketBoundaries{
              0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1, 5});
    }
    histogram = h;
  }
  histogram->Observe(seconds);
}

}  // namespace banca::table
