#include "services/wallet/request_loop.h"

#include <string>
#include <utility>

#include "libs/common/log_line.h"

namespace banca::wallet {

RequestLoop::RequestLoop(std::vector<RequestReader*> readers,
                         WalletMetrics* metrics, absl::Duration interval,
                         const absl::Notification& stopping)
    : readers_(std::move(readers)),
      metrics_(metrics),
      interval_(interval),
      stopping_(stopping) {}

RequestLoop::~RequestLoop() { Join(); }

void RequestLoop::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void RequestLoop::Join() {
  if (thread_.joinable()) thread_.join();
}

void RequestLoop::Loop() {
  absl::Time lag_measured = absl::InfinitePast();
  while (!stopping_.WaitForNotificationWithTimeout(interval_)) {
    for (RequestReader* reader : readers_) {
      absl::StatusOr<int> handled = reader->Poll();
      if (!handled.ok() && !absl::IsUnavailable(handled.status())) {
        Log(LogLevel::kError, "wallet", "reading table requests failed",
            {{"error", handled.status().message()}});
      }
    }
    // Once a second: on Kafka each end offset is a broker round trip.
    if (metrics_ && absl::Now() - lag_measured >= absl::Seconds(1)) {
      lag_measured = absl::Now();
      for (RequestReader* reader : readers_) {
        absl::StatusOr<int64_t> lag = reader->Lag();
        if (lag.ok()) metrics_->SetRequestLag(reader->topic(), *lag);
      }
    }
  }
}

}  // namespace banca::wallet
