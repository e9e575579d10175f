#include "services/wallet/hold_expiry.h"

#include <functional>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "banca/v1/wallet.pb.h"

namespace banca::wallet {
namespace {

// Holds released in one round, at most.
constexpr size_t kMaxExpiredPerSweep = 1000;
// Rounds between two refreshes of the ledger gauges (each a full scan).
constexpr int kRoundsPerGaugeRefresh = 5;

}  // namespace

HoldExpiry::HoldExpiry(ledger::Ledger& ledger, WalletCommands& commands,
                       const Clock& clock, const PartitionOwnership* ownership,
                       WalletMetrics* metrics, absl::Duration interval,
                       const absl::Notification& stopping)
    : ledger_(ledger),
      commands_(commands),
      clock_(clock),
      ownership_(ownership),
      metrics_(metrics),
      interval_(interval),
      stopping_(stopping) {}

HoldExpiry::~HoldExpiry() { Join(); }

void HoldExpiry::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void HoldExpiry::Join() {
  if (thread_.joinable()) thread_.join();
}

void HoldExpiry::Loop() {
  int rounds = 0;
  while (!stopping_.WaitForNotificationWithTimeout(interval_)) {
    Sweep();
    if (metrics_ && ++rounds % kRoundsPerGaugeRefresh == 0) {
      metrics_->SetLedger(ledger_.Summarize());
    }
  }
}

void HoldExpiry::Sweep() {
  std::function<bool(std::string_view)> decided_here;
  if (ownership_ != nullptr) {
    decided_here = [this](std::string_view owner) {
      return ownership_->Decides(owner).ok();
    };
  }
  for (const std::string& hold_id : ledger_.ExpiredHolds(
           clock_.NowMicros(), kMaxExpiredPerSweep, decided_here)) {
    v1::ReleaseHoldRequest body;
    body.set_hold_id(hold_id);
    // One request id per hold: two sweeps never release it twice.
    auto released = commands_.Execute(
        "ExpireHold", absl::StrCat("expire/", hold_id), body,
        [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
          return ledger_.ReleaseHold(meta, hold_id, true, commit);
        });
    (void)released;  // a hold closed meanwhile is FAILED_PRECONDITION: fine
  }
}

}  // namespace banca::wallet
