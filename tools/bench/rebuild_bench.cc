#include "tools/bench/rebuild_bench.h"

#include "absl/time/clock.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "libs/projection/wallet_projection.h"
#include "libs/wire/topics.h"
#include "tools/bench/wallet_history.h"

namespace banca::bench {
namespace {

// At least `target` wallet events (or one account per player, if fewer).
absl::Status WriteWalletEvents(eventlog::EventLog& log, int64_t target,
                               int players) {
  return WalletHistory(log, players).WriteUntil(target);
}

}  // namespace

absl::StatusOr<RebuildResult> TimeRebuild(eventlog::EventLog& log,
                                          const std::string& store_dir) {
  ASSIGN_OR_RETURN(auto store, projection::ProjectionStore::Open(store_dir));
  projection::WalletProjector projector;
  const absl::Time start = absl::Now();
  ASSIGN_OR_RETURN(const int64_t events,
                   projection::CatchUp(log, *store, projector));
  return RebuildResult{events, absl::ToDoubleSeconds(absl::Now() - start)};
}

absl::StatusOr<RebuildResult> RunRebuildBench(
    const RebuildBenchOptions& options) {
  ASSIGN_OR_RETURN(auto log, eventlog::OpenEmbeddedLog(options.dir + "/log"));
  RETURN_IF_ERROR(log->EnsureTopic(
      {std::string(wire::kWalletTopic), wire::kDefaultWalletPartitions}));
  RETURN_IF_ERROR(WriteWalletEvents(*log, options.events, options.players));
  return TimeRebuild(*log, options.dir + "/projection");
}

}  // namespace banca::bench
