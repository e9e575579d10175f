// Rebuilds a PartitionIndex from the journal. Records are held back until
// their batch's end-of-batch record arrives, so a batch is applied whole or
// (torn tail) not at all, exactly as the live log publishes batches.
#ifndef BANCA_LIBS_EVENTLOG_JOURNAL_REPLAY_H_
#define BANCA_LIBS_EVENTLOG_JOURNAL_REPLAY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/eventlog/journal_scan.h"
#include "libs/eventlog/partition_index.h"

namespace banca::eventlog::internal {

class ReplayVisitor final : public JournalVisitor {
 public:
  explicit ReplayVisitor(PartitionIndex* index) : index_(index) {}

  absl::Status OnRecord(int64_t pos, const RecordView& r) override;
  absl::Status OnBatchEnd() override;

 private:
  struct Pending {
    uint32_t stream;
    int64_t offset;
    int64_t pos;
  };
  struct PendingTopic {
    std::string name;
    int partitions;
  };

  PartitionIndex* index_;
  std::vector<Pending> records_;
  absl::flat_hash_map<uint32_t, int64_t> next_offset_;
  std::vector<PendingTopic> topics_;
  std::vector<OffsetCommit> commits_;
};

}  // namespace banca::eventlog::internal

#endif  // BANCA_LIBS_EVENTLOG_JOURNAL_REPLAY_H_
