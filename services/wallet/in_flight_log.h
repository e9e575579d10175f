// The wallet's log with a count of its appends in flight. A snapshot
// closes the ledger's gates (no decision, so no new append, can start) and
// waits here until every event already decided is durable and its answer
// recorded: the ledger then holds exactly the log's events up to the
// offsets the wallet has recorded (wallet_snapshots.h).
#ifndef BANCA_SERVICES_WALLET_IN_FLIGHT_LOG_H_
#define BANCA_SERVICES_WALLET_IN_FLIGHT_LOG_H_

#include <cstdint>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "libs/eventlog/forwarding_log.h"

namespace banca::wallet {

class InFlightLog final : public eventlog::ForwardingLog {
 public:
  explicit InFlightLog(eventlog::EventLog& log) : ForwardingLog(log) {}

  // Waits until no append made through this log is in flight (each one's
  // callback has returned).
  void WaitIdle();

  void AppendAsync(std::vector<eventlog::Record> records,
                   std::vector<eventlog::OffsetCommit> commits,
                   eventlog::AppendCallback done) override;

 private:
  absl::Mutex mu_;
  int64_t in_flight_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_IN_FLIGHT_LOG_H_
