#include "services/common/host_runtime.h"

#include <string>
#include <utility>

#include "libs/common/status_macros.h"
#include "libs/wire/topics.h"

namespace banca::table {

absl::Status PrepareHostTopics(eventlog::EventLog& log,
                               std::string_view events_topic,
                               std::string_view requests_topic,
                               const TableHostOptions& options) {
  if (options.deck_keys.empty()) {
    return absl::FailedPreconditionError(
        "the table service needs a deck key to seal its decks");
  }
  RETURN_IF_ERROR(
      log.EnsureTopic({std::string(events_topic), options.partitions}));
  RETURN_IF_ERROR(
      log.EnsureTopic({std::string(requests_topic), options.partitions}));
  return log.EnsureTopic(
      {std::string(wire::kWalletTopic), options.wallet_partitions});
}

absl::StatusOr<std::vector<int64_t>> WalletOutcomePositions(
    eventlog::EventLog& log, std::string_view group, int wallet_partitions) {
  std::vector<int64_t> positions(wallet_partitions, 0);
  for (int p = 0; p < wallet_partitions; ++p) {
    ASSIGN_OR_RETURN(positions[p],
                     log.CommittedOffset(group, wire::kWalletTopic, p));
  }
  return positions;
}

void HostLoops::Every(absl::Duration every, std::function<void()> step) {
  if (every <= absl::ZeroDuration()) return;
  threads_.emplace_back([this, every, step = std::move(step)] {
    while (!stopping_) {
      step();
      absl::SleepFor(every);
    }
  });
}

void HostLoops::Stop() {
  stopping_ = true;
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

void WaitForAppends(const std::atomic<int64_t>& in_flight) {
  while (in_flight.load() > 0) absl::SleepFor(absl::Milliseconds(1));
}

}  // namespace banca::table
