#include "libs/answers/rocksdb_answer_store.h"

#include <climits>
#include <cstdint>
#include <filesystem>
#include <random>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "libs/common/log_line.h"
#include "libs/common/string_view.h"
#include "rocksdb/compaction_filter.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/table.h"

namespace banca::answers {
namespace {

// Request ids are printable ASCII (ledger::IsValidRequestId): a key that
// starts with a control byte is never one.
constexpr std::string_view kIdKey = "\x01store-id";

rocksdb::Slice S(std::string_view v) { return {v.data(), v.size()}; }

// at (8 bytes, little-endian), the fingerprint's length (4), the
// fingerprint, the result.
std::string Encode(const ledger::Answer& a) {
  std::string out;
  out.reserve(12 + a.fingerprint.size() + a.result.size());
  const auto at = static_cast<uint64_t>(a.at_micros);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(at >> (8 * i)));
  const auto n = static_cast<uint32_t>(a.fingerprint.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(n >> (8 * i)));
  out += a.fingerprint;
  out += a.result;
  return out;
}

uint64_t Little(std::string_view bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    v |= uint64_t{static_cast<unsigned char>(bytes[i])} << (8 * i);
  }
  return v;
}

std::optional<ledger::Answer> Decode(std::string_view v) {
  if (v.size() < 12) return std::nullopt;
  const uint64_t n = Little(v.substr(8, 4));
  if (n > v.size() - 12) return std::nullopt;
  return ledger::Answer{std::string(v.substr(12, n)),
                        std::string(v.substr(12 + n)),
                        static_cast<int64_t>(Little(v.substr(0, 8)))};
}

[[noreturn]] void StopOnDiskFailure(std::string_view what,
                                    const rocksdb::Status& s) {
  Log(LogLevel::kFatal, "wallet",
      absl::StrCat("the answer store failed (", ToAbsl(what),
                   "); stopping so that a restart replays the log"),
      {{"error", s.ToString()}});
  std::abort();
}

// Drops the answers older than the window as RocksDB compacts.
class ExpiredAnswers final : public rocksdb::CompactionFilter {
 public:
  explicit ExpiredAnswers(AnswerStoreOptions options) : options_(options) {}
  bool Filter(int /*level*/, const rocksdb::Slice& key,
              const rocksdb::Slice& value, std::string* /*new_value*/,
              bool* /*value_changed*/) const override {
    return Expired(key, value);
  }
  // Answers are written as merge operands (LaterAnswer).
  bool FilterMergeOperand(int /*level*/, const rocksdb::Slice& key,
                          const rocksdb::Slice& operand) const override {
    return Expired(key, operand);
  }
  const char* Name() const override { return "banca.ExpiredAnswers"; }

 private:
  bool Expired(const rocksdb::Slice& key, const rocksdb::Slice& value) const {
    if (options_.window <= absl::ZeroDuration() || options_.clock == nullptr ||
        key.starts_with(S(kIdKey)) || value.size() < 8) {
      return false;
    }
    const auto at =
        static_cast<int64_t>(Little(std::string_view(value.data(), 8)));
    return options_.clock->NowMicros() - at >=
           absl::ToInt64Microseconds(options_.window);
  }

  const AnswerStoreOptions options_;
};

// Two answers for one id (a reused id, a replay): the later is kept, so a
// Put is one write, never a read first.
class LaterAnswer final : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice& /*key*/, const rocksdb::Slice* existing,
             const rocksdb::Slice& value, std::string* new_value,
             rocksdb::Logger* /*logger*/) const override {
    const rocksdb::Slice& kept =
        existing != nullptr && AtOf(*existing) > AtOf(value) ? *existing
                                                             : value;
    new_value->assign(kept.data(), kept.size());
    return true;
  }
  const char* Name() const override { return "banca.LaterAnswer"; }

 private:
  static int64_t AtOf(const rocksdb::Slice& v) {
    if (v.size() < 8) return INT64_MIN;
    return static_cast<int64_t>(Little(std::string_view(v.data(), 8)));
  }
};

std::string NewStoreId() {
  std::random_device random;  // /dev/urandom: a name, not a secret
  std::string bytes(16, '\0');
  for (char& c : bytes) c = static_cast<char>(random());
  return absl::BytesToHexString(bytes);
}

}  // namespace

absl::StatusOr<std::unique_ptr<RocksDbAnswerStore>> RocksDbAnswerStore::Open(
    const std::string& dir, AnswerStoreOptions options) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);  // Open says if it failed
  auto filter = std::make_unique<ExpiredAnswers>(options);
  rocksdb::Options db_options;
  db_options.create_if_missing = true;
  db_options.IncreaseParallelism(2);
  db_options.compaction_filter = filter.get();
  db_options.merge_operator = std::make_shared<LaterAnswer>();
  // Every file is compacted at least daily, so expired answers go even
  // from files no write reaches any more.
  db_options.periodic_compaction_seconds = 24 * 60 * 60;
  // Most lookups are of new ids (a first attempt): bloom filters answer
  // them without reading blocks.
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  db_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, dir, &raw);
  if (!s.ok()) {
    return absl::UnavailableError(absl::StrCat(
        "cannot open the answer store at ", dir, ": ", s.ToString()));
  }
  std::unique_ptr<rocksdb::DB> db(raw);
  std::string id;
  s = db->Get(rocksdb::ReadOptions(), S(kIdKey), &id);
  if (s.IsNotFound()) {
    id = NewStoreId();
    rocksdb::WriteOptions sync;
    sync.sync = true;
    s = db->Put(sync, S(kIdKey), id);
  }
  if (!s.ok()) {
    return absl::UnavailableError(absl::StrCat(
        "cannot read the answer store's id at ", dir, ": ", s.ToString()));
  }
  return std::unique_ptr<RocksDbAnswerStore>(new RocksDbAnswerStore(
      std::move(filter), std::move(db), std::move(id), dir));
}

RocksDbAnswerStore::RocksDbAnswerStore(
    std::unique_ptr<rocksdb::CompactionFilter> filter,
    std::unique_ptr<rocksdb::DB> db, std::string id, std::string dir)
    : filter_(std::move(filter)),
      db_(std::move(db)),
      id_(std::move(id)),
      dir_(std::move(dir)) {}

RocksDbAnswerStore::~RocksDbAnswerStore() {
  // The DB goes before the filter it calls.
  if (db_ != nullptr) db_->Close().PermitUncheckedError();
  db_.reset();
}

std::optional<ledger::Answer> RocksDbAnswerStore::Get(
    std::string_view request_id) const {
  std::string value;
  const rocksdb::Status s =
      db_->Get(rocksdb::ReadOptions(), S(request_id), &value);
  if (s.IsNotFound()) return std::nullopt;
  if (!s.ok()) StopOnDiskFailure("get", s);
  std::optional<ledger::Answer> answer = Decode(value);
  if (!answer.has_value()) {
    StopOnDiskFailure("decode", rocksdb::Status::Corruption(dir_));
  }
  return answer;
}

void RocksDbAnswerStore::Put(std::string_view request_id,
                             const ledger::Answer& answer) {
  // Merged with the one kept: the later stays (LaterAnswer).
  const rocksdb::Status s =
      db_->Merge(rocksdb::WriteOptions(), S(request_id), Encode(answer));
  if (!s.ok()) StopOnDiskFailure("put", s);
}

void RocksDbAnswerStore::Sync() {
  const rocksdb::Status s = db_->SyncWAL();
  if (!s.ok()) StopOnDiskFailure("sync", s);
}

void RocksDbAnswerStore::ForEach(
    absl::FunctionRef<void(std::string_view, const ledger::Answer&)> fn) const {
  std::unique_ptr<rocksdb::Iterator> it(
      db_->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (it->key().starts_with(S(kIdKey))) continue;
    std::optional<ledger::Answer> answer =
        Decode(std::string_view(it->value().data(), it->value().size()));
    if (!answer.has_value()) continue;
    fn(std::string_view(it->key().data(), it->key().size()), *answer);
  }
}

void RocksDbAnswerStore::CompactAll() {
  const rocksdb::Status s =
      db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
  if (!s.ok()) StopOnDiskFailure("compact", s);
}

}  // namespace banca::answers
