// The wallet's answered requests on disk (ledger::AnswerStore): a RocksDB
// keyed by request id, so the idempotency window (days of requests) costs
// no heap and survives a restart beside the wallet's snapshots.
//
// An answer is written as a merge operand (the later of two answers for
// one id is kept), so a Put never reads first. An answer older than the
// window is dropped when RocksDB compacts the
// file it is in (a compaction filter; periodic compaction reaches every
// file within a day); until then the index ignores it. A disk that fails
// stops the process (answer_store.h).
#ifndef BANCA_LIBS_ANSWERS_ROCKSDB_ANSWER_STORE_H_
#define BANCA_LIBS_ANSWERS_ROCKSDB_ANSWER_STORE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/common/clock.h"
#include "libs/ledger/answer_store.h"

namespace rocksdb {
class DB;
class CompactionFilter;
}  // namespace rocksdb

namespace banca::answers {

struct AnswerStoreOptions {
  // Answers older than this may be dropped; zero: none is.
  absl::Duration window = absl::ZeroDuration();
  // Outlives the store (the compaction filter reads it).
  const Clock* clock = nullptr;
};

class RocksDbAnswerStore final : public ledger::AnswerStore {
 public:
  // Opens (or makes) the store in `dir`. UNAVAILABLE naming the directory
  // when RocksDB cannot open it.
  static absl::StatusOr<std::unique_ptr<RocksDbAnswerStore>> Open(
      const std::string& dir, AnswerStoreOptions options);
  ~RocksDbAnswerStore() override;

  std::optional<ledger::Answer> Get(std::string_view request_id) const override;
  void Put(std::string_view request_id, const ledger::Answer& answer) override;
  void Sync() override;
  std::string id() const override { return id_; }
  void ForEach(absl::FunctionRef<void(std::string_view, const ledger::Answer&)>
                   fn) const override;

  // Compacts the whole store now (tests: the window's drop is seen).
  void CompactAll();

 private:
  RocksDbAnswerStore(std::unique_ptr<rocksdb::CompactionFilter> filter,
                     std::unique_ptr<rocksdb::DB> db, std::string id,
                     std::string dir);

  std::unique_ptr<rocksdb::CompactionFilter> filter_;
  std::unique_ptr<rocksdb::DB> db_;
  const std::string id_;
  const std::string dir_;
};

}  // namespace banca::answers

#endif  // BANCA_LIBS_ANSWERS_ROCKSDB_ANSWER_STORE_H_
