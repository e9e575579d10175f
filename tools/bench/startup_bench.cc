#include "tools/bench/startup_bench.h"

#include <filesystem>
#include <memory>

#include "absl/time/clock.h"
#include "libs/common/clock.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/snapshot/snapshot_dir.h"
#include "libs/snapshot/wallet_snapshot.h"
#include "libs/wire/topics.h"
#include "services/wallet/wallet_service.h"
#include "tools/bench/wallet_history.h"

namespace banca::bench {
namespace {

wallet::WalletOptions Options(const std::string& dir, bool snapshots,
                              bool answers_on_disk) {
  wallet::WalletOptions options;
  if (answers_on_disk) options.answer_store_dir = dir + "/answers/wallet";
  options.insecure_dev = true;
  options.projection_dir = dir + "/projections/wallet";
  options.snapshot_dir = snapshots ? dir + "/snapshots/wallet" : "";
  options.snapshot_every_events = 0;  // at the stop only
  options.expiry_interval = absl::ZeroDuration();
  options.table_requests_interval = absl::ZeroDuration();
  return options;
}

struct Started {
  std::unique_ptr<wallet::WalletService> wallet;
  double seconds = 0;
};

absl::StatusOr<Started> StartWallet(eventlog::EventLog& log, const Clock& clock,
                                    wallet::WalletOptions options) {
  const absl::Time start = absl::Now();
  Started started;
  ASSIGN_OR_RETURN(started.wallet, wallet::WalletService::Start(
                                       log, clock, std::move(options)));
  started.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  return started;
}

// The snapshot's pause and write, measured on a started wallet into a
// scratch directory.
absl::Status MeasureSnapshot(eventlog::EventLog& log,
                             const wallet::WalletService& wallet,
                             const std::string& dir, StartupResult& result) {
  const snapshot::WalletPoint point =
      snapshot::CaptureWalletState(wallet.ledger(), wallet.idempotency(),
                                   [] { return snapshot::LogOffsets{}; });
  result.snapshot_pause_ms = absl::ToDoubleMilliseconds(point.paused);
  result.answered_requests = point.state.requests_size();
  const snapshot::SnapshotDir scratch(dir + "/measured", "wallet");
  const absl::Time start = absl::Now();
  ASSIGN_OR_RETURN(const std::string path,
                   snapshot::WriteWalletSnapshot(scratch, log, point));
  result.snapshot_write_seconds = absl::ToDoubleSeconds(absl::Now() - start);
  result.snapshot_bytes =
      static_cast<int64_t>(std::filesystem::file_size(path));
  std::filesystem::remove_all(dir + "/measured");
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<StartupResult> RunStartupBench(
    const StartupBenchOptions& options) {
  ASSIGN_OR_RETURN(auto log, eventlog::OpenEmbeddedLog(options.dir + "/log"));
  RETURN_IF_ERROR(log->EnsureTopic(
      {std::string(wire::kWalletTopic), wire::kDefaultWalletPartitions}));
  std::filesystem::create_directories(options.dir + "/projections/wallet");
  // The history's events are timed from this clock's start on (one
  // microsecond apart): every answer is within the idempotency window.
  ManualClock clock;
  WalletHistory history(*log, options.players);
  RETURN_IF_ERROR(history.WriteUntil(
      std::max<int64_t>(options.events - options.tail_events, 1)));
  StartupResult result;
  {
    // Builds the projection and, at its stop, the snapshot.
    ASSIGN_OR_RETURN(
        Started first,
        StartWallet(*log, clock,
                    Options(options.dir, true, options.answers_on_disk)));
    RETURN_IF_ERROR(first.wallet->Stop());
    result.snapshot_events = history.events();
  }
  RETURN_IF_ERROR(history.WriteUntil(options.events));
  result.events = history.events();
  {
    ASSIGN_OR_RETURN(
        Started timed,
        StartWallet(*log, clock,
                    Options(options.dir, true, options.answers_on_disk)));
    result.start_seconds = timed.seconds;
    result.tail_events = timed.wallet->replayed_events();
    RETURN_IF_ERROR(MeasureSnapshot(*log, *timed.wallet, options.dir, result));
    RETURN_IF_ERROR(timed.wallet->Stop());
  }
  {
    ASSIGN_OR_RETURN(
        Started full,
        StartWallet(*log, clock,
                    Options(options.dir, false, options.answers_on_disk)));
    result.full_replay_start_seconds = full.seconds;
    result.full_replay_events = full.wallet->replayed_events();
    RETURN_IF_ERROR(full.wallet->Stop());
  }
  return result;
}

}  // namespace banca::bench
