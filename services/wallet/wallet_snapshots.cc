#include "services/wallet/wallet_snapshots.h"

#include <utility>

#include "absl/strings/str_join.h"
#include "libs/common/log_line.h"
#include "libs/common/status_macros.h"
#include "libs/wire/topics.h"

namespace banca::wallet {

WalletSnapshots::WalletSnapshots(InFlightLog& log, ledger::Ledger& ledger,
                                 ledger::IdempotencyIndex& idempotency,
                                 AppendedOffsets& appended,
                                 WalletSnapshotOptions options,
                                 const absl::Notification& stopping)
    : log_(log),
      ledger_(ledger),
      idempotency_(idempotency),
      appended_(appended),
      options_(std::move(options)),
      dir_(options_.dir, std::string(snapshot::kWalletSnapshotKind),
           options_.keep),
      stopping_(stopping) {}

WalletSnapshots::~WalletSnapshots() { Join(); }

absl::StatusOr<snapshot::LogOffsets> WalletSnapshots::Load() {
  if (options_.dir.empty()) return snapshot::LogOffsets{};
  const absl::Time start = absl::Now();
  ASSIGN_OR_RETURN(
      const snapshot::WalletSnapshotLoad load,
      snapshot::LoadWalletSnapshot(dir_, log_, ledger_, idempotency_));
  for (const std::string& refused : load.refused) {
    Log(LogLevel::kWarning, "wallet", "snapshot refused", {{"why", refused}});
  }
  if (load.path.empty()) {
    Log(LogLevel::kInfo, "wallet",
        "no snapshot loaded: replaying from offset 0",
        {{"dir", options_.dir},
         {"refused", static_cast<int64_t>(load.refused.size())}});
  } else {
    Log(LogLevel::kInfo, "wallet", "snapshot loaded: replaying the tail",
        {{"path", load.path},
         {"events", load.events},
         {"load_ms", absl::ToInt64Milliseconds(absl::Now() - start)},
         {"fell_back", !load.refused.empty()}});
  }
  absl::MutexLock lock(&take_mu_);
  covered_ = load.path.empty() ? -1 : load.events;
  return load.next;
}

void WalletSnapshots::Start() {
  {
    absl::MutexLock lock(&take_mu_);
    started_ = true;
  }
  if (options_.dir.empty() || !options_.take || options_.every_events <= 0) {
    return;
  }
  thread_ = std::thread([this] { Loop(); });
}

void WalletSnapshots::Join() {
  if (thread_.joinable()) thread_.join();
}

int64_t WalletSnapshots::AppendedEvents() const {
  int64_t events = 0;
  for (const auto& [where, next] : appended_.Snapshot()) {
    if (where.first == wire::kWalletTopic) events += next;
  }
  return events;
}

void WalletSnapshots::Loop() {
  while (!stopping_.WaitForNotificationWithTimeout(options_.check_interval)) {
    int64_t covered;
    {
      absl::MutexLock lock(&take_mu_);
      covered = covered_;
    }
    if (AppendedEvents() - std::max<int64_t>(covered, 0) <
        options_.every_events) {
      continue;
    }
    // A failed snapshot costs only a longer start: logged, and retried.
    if (absl::StatusOr<std::string> taken = Take(); !taken.ok()) {
      Log(LogLevel::kWarning, "wallet", "snapshot failed",
          {{"error", taken.status().message()}});
    }
  }
}

absl::StatusOr<std::string> WalletSnapshots::Take() {
  if (options_.dir.empty() || !options_.take) return std::string();
  absl::MutexLock lock(&take_mu_);
  if (!started_ || AppendedEvents() == covered_) return std::string();
  const absl::Time start = absl::Now();
  const snapshot::WalletPoint point =
      snapshot::CaptureWalletState(ledger_, idempotency_, [&] {
        log_.WaitIdle();
        snapshot::LogOffsets next;
        for (const auto& [where, offset] : appended_.Snapshot()) {
          if (where.first == wire::kWalletTopic) next[where] = offset;
        }
        return next;
      });
  // The answers of the requests before the point are in the store (each
  // Complete ran before its append left the in-flight count): made
  // durable before the snapshot that relies on them exists.
  if (ledger::AnswerStore* store = idempotency_.store()) store->Sync();
  ASSIGN_OR_RETURN(const std::string path,
                   snapshot::WriteWalletSnapshot(dir_, log_, point));
  int64_t events = 0;
  for (const auto& [where, next] : point.next) events += next;
  covered_ = events;
  Log(LogLevel::kInfo, "wallet", "snapshot written",
      {{"path", path},
       {"events", events},
       {"pause_ms", absl::ToInt64Milliseconds(point.paused)},
       {"pause_us", absl::ToInt64Microseconds(point.paused)},
       {"total_ms", absl::ToInt64Milliseconds(absl::Now() - start)}});
  return path;
}

}  // namespace banca::wallet
