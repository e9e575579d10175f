#include "services/wallet/in_flight_log.h"

#include <utility>

namespace banca::wallet {

void InFlightLog::AppendAsync(std::vector<eventlog::Record> records,
                              std::vector<eventlog::OffsetCommit> commits,
                              eventlog::AppendCallback done) {
  {
    absl::MutexLock lock(&mu_);
    ++in_flight_;
  }
  forwarded().AppendAsync(
      std::move(records), std::move(commits),
      [this, done = std::move(done)](
          absl::Status status, std::vector<eventlog::Position> positions) {
        done(std::move(status), std::move(positions));
        absl::MutexLock lock(&mu_);
        --in_flight_;
      });
}

void InFlightLog::WaitIdle() {
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(
      +[](int64_t* n) { return *n == 0; }, &in_flight_));
}

}  // namespace banca::wallet
