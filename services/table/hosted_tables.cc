#include "services/table/hosted_tables.h"

#include <memory>
#include <string>
#include <utility>

#include "libs/common/status_macros.h"
#include "services/table/banked_table_service.h"
#include "services/table/table_service.h"

namespace banca::table {

namespace {

// A table service (TableService or BankedTableService) behind the
// server's interface. Their Stop returns nothing: a table's decisions are
// durable once appended.
template <typename Service>
class HostedTableService final : public edge::HostedService {
 public:
  HostedTableService(std::unique_ptr<Service> service, std::string health_name)
      : service_(std::move(service)), health_name_(std::move(health_name)) {}

  grpc::Service* service() override { return service_.get(); }
  std::string health_name() const override { return health_name_; }
  int64_t replayed_events() const override {
    return service_->replayed_events();
  }
  void BeginShutdown() override { service_->BeginShutdown(); }
  absl::Status Stop() override {
    service_->Stop();
    return absl::OkStatus();
  }

 private:
  std::unique_ptr<Service> service_;
  std::string health_name_;
};

// The settings every table host takes from the server; FAILED_PRECONDITION
// without the keys the tables need.
absl::Status SetHostOptions(const edge::HostContext& context,
                            TableHostOptions& options) {
  if (!context.keys.verifier || !context.keys.deck_keys) {
    return absl::FailedPreconditionError(
        "the tables need a token verifier and deck keys");
  }
  options.verifier = *context.keys.verifier;
  options.deck_keys = *context.keys.deck_keys;
  options.partitions = context.settings.partitions;
  options.wallet_partitions = context.settings.partitions;
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<edge::HostedService>> StartPokerTables(
    const edge::HostContext& context) {
  TableServiceOptions options;
  RETURN_IF_ERROR(SetHostOptions(context, options));
  ASSIGN_OR_RETURN(std::unique_ptr<TableService> tables,
                   TableService::Start(context.log, context.clock, options));
  return std::make_unique<HostedTableService<TableService>>(
      std::move(tables), v1::TableService::service_full_name());
}

absl::StatusOr<std::unique_ptr<edge::HostedService>> StartBankedTables(
    const edge::HostContext& context) {
  BankedTableServiceOptions options;
  RETURN_IF_ERROR(SetHostOptions(context, options));
  ASSIGN_OR_RETURN(
      std::unique_ptr<BankedTableService> tables,
      BankedTableService::Start(context.log, context.clock, options));
  return std::make_unique<HostedTableService<BankedTableService>>(
      std::move(tables), v1::BankedTableService::service_full_name());
}

}  // namespace

edge::HostedServiceSpec HostedPokerTables() {
  return {.name = "table",
          .start = StartPokerTables,
          .insecure_dev_allowed = false,
          .needs_deck_keys = true};
}

edge::HostedServiceSpec HostedBankedTables() {
  return {.name = "banked tables",
          .start = StartBankedTables,
          .insecure_dev_allowed = false,
          .needs_deck_keys = true};
}

std::vector<edge::HostedServiceSpec> HostedTables() {
  return {HostedPokerTables(), HostedBankedTables()};
}

}  // namespace banca::table
