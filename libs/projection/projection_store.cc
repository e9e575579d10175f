#include "libs/projection/projection_store.h"

#include <sodium.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"

namespace banca::projection {
namespace {

// Offsets live under a prefix no data key can have (data keys are printable).
constexpr std::string_view kOffsetPrefix = "\x01offset/";
// Opens of a store read beside its writer (OpenStore).
constexpr int kMaxReadOnlyOpens = 5;

std::string OffsetKey(const std::string& topic, int partition) {
  return absl::StrCat(ToAbsl(kOffsetPrefix), topic, "/", partition);
}

std::string EncodeOffset(int64_t v) { return absl::StrCat(v); }

rocksdb::Slice S(std::string_view s) {
  return rocksdb::Slice(s.data(), s.size());
}

absl::Status FromRocks(const rocksdb::Status& s, std::string_view what) {
  if (s.ok()) return absl::OkStatus();
  return absl::InternalError(
      absl::StrCat("rocksdb ", absl::string_view(what.data(), what.size()),
                   ": ", s.ToString()));
}

// What an entry of a Txn costs beyond its bytes (the map's slot, two
// string headers, the allocator's rounding): a bound, not a measure.
constexpr size_t kEntryOverhead = 96;

size_t EntryBytes(std::string_view key, const std::optional<std::string>& v) {
  return key.size() + (v.has_value() ? v->size() : 0) + kEntryOverhead;
}

}  // namespace

absl::StatusOr<std::optional<std::string>> Txn::Get(std::string_view key) {
  auto it = writes_.find(ToAbsl(key));
  if (it != writes_.end()) return it->second;
  return store_.Get(key);
}

void Txn::Put(std::string_view key, std::string value) {
  auto it = writes_.find(ToAbsl(key));
  if (it != writes_.end()) {
    bytes_ -= EntryBytes(key, it->second);
    it->second = std::move(value);
  } else {
    it = writes_.emplace(std::string(key), std::move(value)).first;
  }
  bytes_ += EntryBytes(key, it->second);
}

void Txn::Delete(std::string_view key) {
  auto it = writes_.find(ToAbsl(key));
  if (it != writes_.end()) {
    bytes_ -= EntryBytes(key, it->second);
    it->second = std::nullopt;
  } else {
    it = writes_.emplace(std::string(key), std::nullopt).first;
  }
  bytes_ += EntryBytes(key, it->second);
}

void Txn::Seal() {
  // Moved out first: WriteTo puts into writes_, never into typed_.
  absl::flat_hash_map<std::string, std::unique_ptr<TxnValue>> typed;
  typed.swap(typed_);
  typed_bytes_ = 0;
  for (auto& [key, value] : typed) {
    value->WriteTo(key, *this);
    value.reset();  // its serialized form replaces it
  }
}

void Txn::Clear() {
  writes_.clear();
  typed_.clear();
  offsets_.clear();
  bytes_ = 0;
  typed_bytes_ = 0;
}

void Txn::SetOffset(const std::string& topic, int partition, int64_t next) {
  offsets_[{topic, partition}] = next;
}

ProjectionStore::ProjectionStore(std::unique_ptr<rocksdb::DB> db,
                                 std::string dir, OffsetMap offsets, bool empty,
                                 size_t cache_entries, bool read_only)
    : db_(std::move(db)),
      dir_(std::move(dir)),
      offsets_(std::move(offsets)),
      empty_(empty),
      cache_entries_(cache_entries),
      read_only_(read_only) {}

ProjectionStore::~ProjectionStore() { (void)Flush(); }

absl::Status ProjectionStore::Flush() {
  if (read_only_) return absl::OkStatus();  // nothing was written
  return FromRocks(db_->Flush(rocksdb::FlushOptions()), "flush");
}

namespace {

// RocksDB's informational log, thrown away: a read-only open must not
// create the LOG file in the directory it reads.
class DiscardingLogger final : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char*, va_list) override {}
};

}  // namespace

absl::StatusOr<std::unique_ptr<ProjectionStore>> ProjectionStore::Open(
    const std::string& dir, size_t cache_entries) {
  return OpenStore(dir, cache_entries, /*read_only=*/false);
}

absl::StatusOr<std::unique_ptr<ProjectionStore>> ProjectionStore::OpenReadOnly(
    const std::string& dir) {
  return OpenStore(dir, 1 << 10, /*read_only=*/true);
}

absl::StatusOr<std::unique_ptr<ProjectionStore>> ProjectionStore::OpenStore(
    const std::string& dir, size_t cache_entries, bool read_only) {
  rocksdb::Options options;
  options.create_if_missing = !read_only;
  if (read_only) options.info_log = std::make_shared<DiscardingLogger>();
  options.IncreaseParallelism(2);
  options.OptimizeLevelStyleCompaction(64 << 20);
  // A read-only reader may sit beside the service that writes the store:
  // it opens every table file now, so a compaction that deletes one later
  // cannot take it from under the reader's view (an open file stays
  // readable).
  options.max_open_files = read_only ? -1 : 512;
  // Projectors look up balances that often do not exist yet (a new account):
  // bloom filters answer those without reading table blocks.
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  options.memtable_whole_key_filtering = true;
  options.memtable_prefix_bloom_size_ratio = 0.02;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = read_only
                          ? rocksdb::DB::OpenForReadOnly(options, dir, &raw)
                          : rocksdb::DB::Open(options, dir, &raw);
  // Beside a writer, a flush or compaction may delete a file between the
  // reader's look at the manifest and its open of the file: look again.
  for (int attempt = 1; read_only && !s.ok() && attempt < kMaxReadOnlyOpens;
       ++attempt) {
    absl::SleepFor(absl::Milliseconds(50));
    s = rocksdb::DB::OpenForReadOnly(options, dir, &raw);
  }
  if (!s.ok()) {
    return absl::UnavailableError(
        absl::StrCat("cannot open projection at ", dir, ": ", s.ToString()));
  }
  std::unique_ptr<rocksdb::DB> db(raw);
  OffsetMap offsets;
  std::unique_ptr<rocksdb::Iterator> it(
      db->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(S(kOffsetPrefix));
       it->Valid() && it->key().starts_with(S(kOffsetPrefix)); it->Next()) {
    const std::string rest = it->key().ToString().substr(kOffsetPrefix.size());
    const size_t slash = rest.rfind('/');
    int partition = 0;
    int64_t next = 0;
    if (slash == std::string::npos ||
        !absl::SimpleAtoi(rest.substr(slash + 1), &partition) ||
        !absl::SimpleAtoi(it->value().ToString(), &next)) {
      return absl::DataLossError(
          absl::StrCat("projection at ", dir, " has a corrupt offset key"));
    }
    offsets[{rest.substr(0, slash), partition}] = next;
  }
  if (!it->status().ok()) return FromRocks(it->status(), "scan offsets");
  bool empty = true;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (!it->key().starts_with(S(kOffsetPrefix))) {
      empty = false;
      break;
    }
  }
  if (!it->status().ok()) return FromRocks(it->status(), "scan keys");
  return std::unique_ptr<ProjectionStore>(new ProjectionStore(
      std::move(db), dir, std::move(offsets), empty, cache_entries, read_only));
}

absl::StatusOr<std::optional<std::string>> ProjectionStore::Get(
    std::string_view key) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (empty_) return std::nullopt;
    auto it = cache_.find(ToAbsl(key));
    if (it != cache_.end()) return it->second;
  }
  std::string value;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), S(key), &value);
  std::optional<std::string> result;
  if (s.ok()) {
    result = std::move(value);
  } else if (!s.IsNotFound()) {
    return FromRocks(s, "get");
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (cache_.size() >= cache_entries_) cache_.clear();
  cache_.try_emplace(std::string(key), result);
  return result;
}

absl::StatusOr<std::vector<std::pair<std::string, std::string>>>
ProjectionStore::Scan(std::string_view prefix, std::string_view start,
                      size_t limit) const {
  std::vector<std::pair<std::string, std::string>> out;
  std::unique_ptr<rocksdb::Iterator> it(
      db_->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(S(start.empty() ? prefix : start));
       it->Valid() && it->key().starts_with(S(prefix)) && out.size() < limit;
       it->Next()) {
    out.emplace_back(it->key().ToString(), it->value().ToString());
  }
  if (!it->status().ok()) return FromRocks(it->status(), "scan");
  return out;
}

absl::StatusOr<std::vector<std::vector<std::pair<std::string, std::string>>>>
ProjectionStore::ScanConsistent(const std::vector<ScanRange>& ranges,
                                size_t limit) const {
  const rocksdb::Snapshot* snapshot = db_->GetSnapshot();
  rocksdb::ReadOptions read;
  read.snapshot = snapshot;
  std::vector<std::vector<std::pair<std::string, std::string>>> out;
  size_t rows = 0;
  absl::Status status;
  for (const ScanRange& range : ranges) {
    out.emplace_back();
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read));
    for (it->Seek(S(range.start.empty() ? range.prefix : range.start));
         it->Valid() && it->key().starts_with(S(range.prefix)); it->Next()) {
      if (!range.end.empty() && it->key().compare(S(range.end)) >= 0) break;
      if (++rows > limit) {
        status = absl::ResourceExhaustedError(
            absl::StrCat("more than ", limit, " rows to read"));
        break;
      }
      out.back().emplace_back(it->key().ToString(), it->value().ToString());
    }
    if (status.ok() && !it->status().ok()) {
      status = FromRocks(it->status(), "scan");
    }
    if (!status.ok()) break;
  }
  db_->ReleaseSnapshot(snapshot);
  if (!status.ok()) return status;
  return out;
}

namespace {

using WriteEntry = std::pair<const std::string, std::optional<std::string>>;

// The first 16 bytes of `key` as two big-endian words (zero past its end):
// comparing them orders keys as their bytes do, up to a tie.
std::pair<uint64_t, uint64_t> KeyPrefix(const std::string& key) {
  unsigned char b[16] = {};
  std::memcpy(b, key.data(), std::min<size_t>(key.size(), sizeof(b)));
  uint64_t hi = 0, lo = 0;
  for (int i = 0; i < 8; ++i) hi = (hi << 8) | b[i];
  for (int i = 8; i < 16; ++i) lo = (lo << 8) | b[i];
  return {hi, lo};
}

// The writes of a txn in key order. Each key's first 16 bytes sit beside
// its pointer, so most comparisons touch no string (a bulk txn holds
// millions of keys; chasing each pointer was most of its sort).
std::vector<const WriteEntry*> SortedWrites(
    const absl::flat_hash_map<std::string, std::optional<std::string>>&
        writes) {
  struct Keyed {
    std::pair<uint64_t, uint64_t> prefix;
    const WriteEntry* entry;
  };
  std::vector<Keyed> keyed;
  keyed.reserve(writes.size());
  for (const auto& entry : writes) {
    keyed.push_back({KeyPrefix(entry.first), &entry});
  }
  std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return a.entry->first < b.entry->first;
  });
  std::vector<const WriteEntry*> sorted;
  sorted.reserve(keyed.size());
  for (const Keyed& k : keyed) sorted.push_back(k.entry);
  return sorted;
}

// The offset keys and values of a txn in key order ("t/10" sorts before
// "t/2", unlike the map's (topic, partition) order).
std::vector<std::pair<std::string, std::string>> SortedOffsets(
    const OffsetMap& offsets) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [where, next] : offsets) {
    out.emplace_back(OffsetKey(where.first, where.second), EncodeOffset(next));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

absl::Status ProjectionStore::Commit(Txn& txn) {
  if (read_only_) {
    return absl::FailedPreconditionError("the projection is open read-only");
  }
  txn.Seal();
  // Keys in order: the memtable's skip list reuses its search path between
  // neighbouring inserts, which makes a sorted batch several times cheaper
  // to apply than one in hash order.
  rocksdb::WriteBatch batch;
  for (const WriteEntry* entry : SortedWrites(txn.writes_)) {
    if (entry->second.has_value()) {
      batch.Put(S(entry->first), S(*entry->second));
    } else {
      batch.Delete(S(entry->first));
    }
  }
  for (const auto& [key, value] : SortedOffsets(txn.offsets_)) {
    batch.Put(S(key), S(value));
  }
  rocksdb::WriteOptions options;
  options.disableWAL = true;
  RETURN_IF_ERROR(FromRocks(db_->Write(options, &batch), "write"));
  AfterWrite(txn);
  return absl::OkStatus();
}

absl::Status ProjectionStore::Ingest(Txn& txn) { return Ingest({&txn}); }

namespace {

// The sorted writes of several txns whose keys are disjoint, in key order
// across them all (a merge of their sorted runs).
class MergedWrites {
 public:
  explicit MergedWrites(std::vector<std::vector<const WriteEntry*>> runs)
      : runs_(std::move(runs)), at_(runs_.size(), 0) {}
  // The next entry, or null at the end; INTERNAL when two runs hold a key.
  absl::StatusOr<const WriteEntry*> Next() {
    const WriteEntry* best = nullptr;
    size_t from = 0;
    for (size_t r = 0; r < runs_.size(); ++r) {
      if (at_[r] == runs_[r].size()) continue;
      const WriteEntry* e = runs_[r][at_[r]];
      if (best != nullptr && e->first == best->first) {
        return absl::InternalError(
            absl::StrCat("two lanes of a catch-up wrote ", best->first));
      }
      if (best == nullptr || e->first < best->first) {
        best = e;
        from = r;
      }
    }
    if (best != nullptr) ++at_[from];
    return best;
  }

 private:
  std::vector<std::vector<const WriteEntry*>> runs_;
  std::vector<size_t> at_;
};

// Seals each txn and sorts its writes, each on its own thread.
std::vector<std::vector<const WriteEntry*>> SealedRuns(
    const std::vector<Txn*>& txns,
    const std::function<std::vector<const WriteEntry*>(Txn&)>& seal_and_sort) {
  std::vector<std::vector<const WriteEntry*>> runs(txns.size());
  std::vector<std::thread> threads;
  for (size_t i = 1; i < txns.size(); ++i) {
    threads.emplace_back([&, i] { runs[i] = seal_and_sort(*txns[i]); });
  }
  if (!txns.empty()) runs[0] = seal_and_sort(*txns[0]);
  for (std::thread& t : threads) t.join();
  return runs;
}

// Writes `offsets` and the merged `runs` into a table file at `path`.
absl::Status WriteTableFile(const rocksdb::Options& options,
                            const std::string& path, const OffsetMap& offsets,
                            std::vector<std::vector<const WriteEntry*>> runs) {
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  RETURN_IF_ERROR(FromRocks(writer.Open(path), "open table file"));
  // The offsets' prefix sorts below every data key (printable), so they
  // come first.
  for (const auto& [key, value] : SortedOffsets(offsets)) {
    RETURN_IF_ERROR(FromRocks(writer.Put(S(key), S(value)), "write offset"));
  }
  MergedWrites merged(std::move(runs));
  while (true) {
    ASSIGN_OR_RETURN(const WriteEntry* entry, merged.Next());
    if (entry == nullptr) break;
    RETURN_IF_ERROR(
        FromRocks(entry->second.has_value()
                      ? writer.Put(S(entry->first), S(*entry->second))
                      : writer.Delete(S(entry->first)),
                  "write table file"));
  }
  return FromRocks(writer.Finish(), "finish table file");
}

}  // namespace

absl::Status ProjectionStore::Ingest(const std::vector<Txn*>& txns) {
  if (read_only_) {
    return absl::FailedPreconditionError("the projection is open read-only");
  }
  std::vector<std::vector<const WriteEntry*>> runs =
      SealedRuns(txns, [](Txn& txn) {
        txn.Seal();
        return SortedWrites(txn.writes_);
      });
  OffsetMap offsets;
  bool empty = true;
  for (const Txn* txn : txns) {
    for (const auto& [where, next] : txn->offsets_) offsets[where] = next;
    empty = empty && txn->writes_.empty() && txn->offsets_.empty();
  }
  if (empty) return absl::OkStatus();
  const std::string path =
      absl::StrCat(dir_, "/ingest-", ingested_files_++, ".sst");
  absl::Status written =
      WriteTableFile(db_->GetOptions(), path, offsets, std::move(runs));
  if (written.ok()) {
    rocksdb::IngestExternalFileOptions options;
    options.move_files = true;
    written = FromRocks(db_->IngestExternalFile({path}, options), "ingest");
  }
  if (!written.ok()) {
    std::remove(path.c_str());
    return written;
  }
  for (Txn* txn : txns) AfterWrite(*txn);
  return absl::OkStatus();
}

void ProjectionStore::AfterWrite(Txn& txn) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [where, next] : txn.offsets_) offsets_[where] = next;
    if (!txn.writes_.empty()) empty_ = false;
    // Write through only keys already cached: most writes (statement rows)
    // are never read back by the projector. Whichever is smaller is walked
    // (a bulk txn holds millions of writes).
    if (txn.writes_.size() <= cache_.size()) {
      for (auto& [key, value] : txn.writes_) {
        auto it = cache_.find(key);
        if (it != cache_.end()) it->second = std::move(value);
      }
    } else {
      for (auto& [key, value] : cache_) {
        auto it = txn.writes_.find(key);
        if (it != txn.writes_.end()) value = std::move(it->second);
      }
    }
  }
  txn.Clear();
}

OffsetMap ProjectionStore::Offsets() const {
  std::lock_guard<std::mutex> lock(mu_);
  return offsets_;
}

int64_t ProjectionStore::Offset(const std::string& topic, int partition) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = offsets_.find({topic, partition});
  return it == offsets_.end() ? 0 : it->second;
}

absl::StatusOr<std::string> ProjectionStore::StateHash() const {
  if (sodium_init() < 0) return absl::InternalError("libsodium init failed");
  crypto_hash_sha256_state state;
  crypto_hash_sha256_init(&state);
  auto feed = [&](const rocksdb::Slice& s) {
    // Length-prefixed, so ("ab","c") and ("a","bc") hash differently.
    const uint64_t n = s.size();
    unsigned char len[8];
    for (int i = 0; i < 8; ++i)
      len[i] = static_cast<unsigned char>(n >> (8 * i));
    crypto_hash_sha256_update(&state, len, sizeof(len));
    crypto_hash_sha256_update(
        &state, reinterpret_cast<const unsigned char*>(s.data()), s.size());
  };
  std::unique_ptr<rocksdb::Iterator> it(
      db_->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (it->key().starts_with(S(kOffsetPrefix))) continue;
    feed(it->key());
    feed(it->value());
  }
  if (!it->status().ok()) return FromRocks(it->status(), "hash scan");
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&state, digest);
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(digest), sizeof(digest)));
}

absl::StatusOr<int64_t> ProjectionStore::KeyCount() const {
  int64_t n = 0;
  std::unique_ptr<rocksdb::Iterator> it(
      db_->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (!it->key().starts_with(S(kOffsetPrefix))) ++n;
  }
  if (!it->status().ok()) return FromRocks(it->status(), "count");
  return n;
}

}  // namespace banca::projection
