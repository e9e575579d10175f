#include "services/reporting/hosted_reporting.h"

#include <memory>
#include <string>
#include <utility>

#include "libs/common/status_macros.h"
#include "services/reporting/reporting_service.h"

namespace banca::reporting {
namespace {

class Hosted final : public edge::HostedService {
 public:
  explicit Hosted(std::unique_ptr<ReportingService> service)
      : service_(std::move(service)) {}
  grpc::Service* service() override { return service_.get(); }
  std::string health_name() const override {
    return v1::ReportingService::service_full_name();
  }
  int64_t replayed_events() const override {
    return service_->replayed_events();
  }
  absl::Status Stop() override { return service_->Stop(); }

 private:
  std::unique_ptr<ReportingService> service_;
};

absl::StatusOr<std::unique_ptr<edge::HostedService>> StartReporting(
    const edge::HostContext& context) {
  ReportingServiceOptions options;
  options.projection_dir = context.settings.data_dir + "/projections/reporting";
  options.verifier = context.keys.verifier;
  options.currency = context.settings.currency;
  options.metrics = context.metrics;
  ASSIGN_OR_RETURN(
      std::unique_ptr<ReportingService> service,
      ReportingService::Start(context.log, context.clock, std::move(options)));
  return std::make_unique<Hosted>(std::move(service));
}

}  // namespace

edge::HostedServiceSpec HostedReporting() {
  return {.name = "reporting",
          .start = StartReporting,
          .insecure_dev_allowed = false,
          .needs_deck_keys = false};
}

}  // namespace banca::reporting
