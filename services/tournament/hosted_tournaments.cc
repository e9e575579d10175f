#include "services/tournament/hosted_tournaments.h"

#include <memory>
#include <string>
#include <utility>

#include "libs/common/status_macros.h"
#include "services/tournament/tournament_service.h"

namespace banca::tournament {
namespace {

class HostedTournamentService final : public edge::HostedService {
 public:
  explicit HostedTournamentService(std::unique_ptr<TournamentService> service)
      : service_(std::move(service)) {}

  grpc::Service* service() override { return service_.get(); }
  std::string health_name() const override {
    return v1::TournamentService::service_full_name();
  }
  int64_t replayed_events() const override {
    return service_->replayed_events();
  }
  void BeginShutdown() override { service_->BeginShutdown(); }
  absl::Status Stop() override {
    service_->Stop();
    return absl::OkStatus();
  }

 private:
  std::unique_ptr<TournamentService> service_;
};

absl::StatusOr<std::unique_ptr<edge::HostedService>> StartTournaments(
    const edge::HostContext& context) {
  if (!context.keys.verifier || !context.keys.deck_keys) {
    return absl::FailedPreconditionError(
        "the tournaments need a token verifier and deck keys");
  }
  TournamentServiceOptions options;
  options.verifier = *context.keys.verifier;
  options.deck_keys = *context.keys.deck_keys;
  options.partitions = context.settings.partitions;
  options.wallet_partitions = context.settings.partitions;
  ASSIGN_OR_RETURN(
      std::unique_ptr<TournamentService> service,
      TournamentService::Start(context.log, context.clock, options));
  return std::make_unique<HostedTournamentService>(std::move(service));
}

}  // namespace

edge::HostedServiceSpec HostedTournaments() {
  return {.name = "tournament",
          .start = StartTournaments,
          .insecure_dev_allowed = false,
          .needs_deck_keys = true};
}

}  // namespace banca::tournament
