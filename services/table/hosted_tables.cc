#include "services/table/hosted_tables.h"

#include <memory>
#include <string>
#include <utility>

#include "libs/common/status_macros.h"
#include "services/common/host_options_from_context.h"
#include "services/table/banked_table_service.h"
#include "services/table/table_service.h"

namespace banca::table {

namespace {

absl::StatusOr<std::unique_ptr<edge::HostedService>> StartPokerTables(
    const edge::HostContext& context) {
  TableServiceOptions options;
  RETURN_IF_ERROR(SetHostOptions(context, options));
  ASSIGN_OR_RETURN(std::unique_ptr<TableService> tables,
                   TableService::Start(context.log, context.clock, options));
  return std::make_unique<edge::HostedHostService<TableService>>(
      std::move(tables), v1::TableService::service_full_name());
}

absl::StatusOr<std::unique_ptr<edge::HostedService>> StartBankedTables(
    const edge::HostContext& context) {
  BankedTableServiceOptions options;
  RETURN_IF_ERROR(SetHostOptions(context, options));
  ASSIGN_OR_RETURN(
      std::unique_ptr<BankedTableService> tables,
      BankedTableService::Start(context.log, context.clock, options));
  return std::make_unique<edge::HostedHostService<BankedTableService>>(
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
