// How far the wallet's own topic has been appended to, or followed, by this
// process: the next offset of each partition. A read waits for the
// projection to reach it (read-your-writes), and in group mode an append's
// fence records it as the progress its decision saw.
#ifndef BANCA_SERVICES_WALLET_APPENDED_OFFSETS_H_
#define BANCA_SERVICES_WALLET_APPENDED_OFFSETS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "libs/eventlog/event_log.h"
#include "libs/projection/projection_store.h"

namespace banca::wallet {

class AppendedOffsets {
 public:
  // Moves each position's partition on to just past it (never back).
  void Record(const std::vector<eventlog::Position>& positions);
  // Sets a partition's next offset (replay, at start).
  void Set(const std::string& topic, int partition, int64_t next);
  // The partition's next offset; 0 for one never appended to.
  int64_t Next(const std::string& topic, int partition) const;
  // Every partition's next offset.
  projection::OffsetMap Snapshot() const;

 private:
  mutable absl::Mutex mu_;
  projection::OffsetMap next_ ABSL_GUARDED_BY(mu_);
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_APPENDED_OFFSETS_H_
