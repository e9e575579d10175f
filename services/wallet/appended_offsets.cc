#include "services/wallet/appended_offsets.h"

namespace banca::wallet {

void AppendedOffsets::Record(const std::vector<eventlog::Position>& positions) {
  absl::MutexLock lock(&mu_);
  for (const auto& pos : positions) {
    int64_t& next = next_[{pos.topic, pos.partition}];
    if (pos.offset + 1 > next) next = pos.offset + 1;
  }
}

void AppendedOffsets::Set(const std::string& topic, int partition,
                          int64_t next) {
  absl::MutexLock lock(&mu_);
  next_[{topic, partition}] = next;
}

int64_t AppendedOffsets::Next(const std::string& topic, int partition) const {
  absl::MutexLock lock(&mu_);
  auto it = next_.find({topic, partition});
  return it == next_.end() ? 0 : it->second;
}

projection::OffsetMap AppendedOffsets::Snapshot() const {
  absl::MutexLock lock(&mu_);
  return next_;
}

}  // namespace banca::wallet
