#include "services/tournament/hosted_tournaments.h"

#include <memory>
#include <string>
#include <utility>

#include "libs/common/status_macros.h"
#include "services/common/host_options_from_context.h"
#include "services/tournament/tournament_service.h"

namespace banca::tournament {
namespace {

absl::StatusOr<std::unique_ptr<edge::HostedService>> StartTournaments(
    const edge::HostContext& context) {
  TournamentServiceOptions options;
  RETURN_IF_ERROR(table::SetHostOptions(context, options));
  ASSIGN_OR_RETURN(
      std::unique_ptr<TournamentService> service,
      TournamentService::Start(context.log, context.clock, options));
  return std::make_unique<edge::HostedHostService<TournamentService>>(
      std::move(service), v1::TournamentService::service_full_name());
}

}  // namespace

edge::HostedServiceSpec HostedTournaments() {
  return {.name = "tournament",
          .start = StartTournaments,
          .insecure_dev_allowed = false,
          .needs_deck_keys = true};
}

}  // namespace banca::tournament
