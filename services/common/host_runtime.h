// What every table host does the same way around its tables, whatever the
// game: the topics it needs before replay, where it left the wallet's
// outcomes, its two background loops (timers and the wallet-outcome
// reader) and waiting for the appends it has queued.
#ifndef BANCA_SERVICES_COMMON_HOST_RUNTIME_H_
#define BANCA_SERVICES_COMMON_HOST_RUNTIME_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/eventlog/event_log.h"
#include "services/common/table_host_options.h"

namespace banca::table {

// FAILED_PRECONDITION without a deck key; else makes sure the host's event
// topic, its requests topic and the wallet's topic exist.
absl::Status PrepareHostTopics(eventlog::EventLog& log,
                               std::string_view events_topic,
                               std::string_view requests_topic,
                               const TableHostOptions& options);

// The committed position of `group` on each of the wallet topic's
// partitions: where the host's outcome reader goes on from.
absl::StatusOr<std::vector<int64_t>> WalletOutcomePositions(
    eventlog::EventLog& log, std::string_view group, int wallet_partitions);

// Runs `step` every `every` on its own thread until Stop. A zero interval
// runs nothing (tests then call the step themselves).
class HostLoops {
 public:
  HostLoops() = default;
  HostLoops(const HostLoops&) = delete;
  HostLoops& operator=(const HostLoops&) = delete;
  ~HostLoops() { Stop(); }

  void Every(absl::Duration every, std::function<void()> step);
  // Ends every loop after its current step and joins it.
  void Stop();
  bool stopping() const { return stopping_.load(); }

 private:
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> threads_;
};

// Blocks until every append a host queued has run its completion (which
// calls back into the host's tables).
void WaitForAppends(const std::atomic<int64_t>& in_flight);

}  // namespace banca::table

#endif  // BANCA_SERVICES_COMMON_HOST_RUNTIME_H_
