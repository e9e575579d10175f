// A RocksDB projection: data derived from the log, plus the log offsets it
// has applied, written in the same atomic WriteBatch. After a crash the
// store holds exactly the effects of the offsets it records, so catching up
// from those offsets never applies an event twice or skips one.
//
// Writes skip RocksDB's write-ahead log. The store is one column family, so
// a memtable flush is atomic: after a crash the store is exactly as of its
// last flush, offsets included, and catching up re-applies the rest from the
// event log, which is the truth. (The WAL would only duplicate the event log
// and cost a checksum and a write per batch.) Close flushes.
#ifndef BANCA_LIBS_PROJECTION_PROJECTION_STORE_H_
#define BANCA_LIBS_PROJECTION_PROJECTION_STORE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace rocksdb {
class DB;
}

namespace banca::projection {

// (topic, partition) → next offset to apply.
using OffsetMap = std::map<std::pair<std::string, int>, int64_t>;

class ProjectionStore;
class Txn;

// A value a projector keeps decoded while a txn is open (a balance, a
// running sum, a game's summary): read and parsed at its first touch in the
// txn (Txn::Typed), changed in place by every record after, and serialized
// once, when the txn is written (Commit, Ingest), instead of at each touch.
class TxnValue {
 public:
  virtual ~TxnValue() = default;
  // Puts (or deletes) what the value stands for under `key` (and any keys
  // derived from it) into `txn`: what putting it at each touch would have
  // left.
  virtual void WriteTo(const std::string& key, Txn& txn) = 0;
  // The memory it holds beyond its key, roughly (Txn::pending_bytes).
  virtual size_t bytes() const = 0;
};

// The writes of one atomic step. Reads see the step's own writes first.
class Txn {
 public:
  explicit Txn(ProjectionStore& store) : store_(store) {}
  absl::StatusOr<std::optional<std::string>> Get(std::string_view key);
  void Put(std::string_view key, std::string value);
  void Delete(std::string_view key);
  void SetOffset(const std::string& topic, int partition, int64_t next);
  // The typed value of `key`: the one this txn holds, else `load()` (a
  // StatusOr<std::unique_ptr<V>>, which reads the key with Get). A key held
  // typed is read and changed only through Typed until the txn is written:
  // Get and Put do not see it.
  template <typename V, typename Load>
  absl::StatusOr<V*> Typed(std::string_view key, Load&& load);
  // Writes every typed value (TxnValue::WriteTo) and lets them go: Commit
  // and Ingest do it first.
  void Seal();
  size_t pending() const { return writes_.size() + typed_.size(); }
  // What the pending writes hold, keys and values, plus a per-entry
  // overhead: the memory a bulk catch-up bounds (projector.h).
  size_t pending_bytes() const { return bytes_ + typed_bytes_; }

 private:
  friend class ProjectionStore;
  void Clear();
  ProjectionStore& store_;
  // nullopt = delete.
  absl::flat_hash_map<std::string, std::optional<std::string>> writes_;
  absl::flat_hash_map<std::string, std::unique_ptr<TxnValue>> typed_;
  OffsetMap offsets_;
  size_t bytes_ = 0;
  size_t typed_bytes_ = 0;
};

class ProjectionStore {
 public:
  // `cache_entries` bounds a read cache of point values (see Get).
  static absl::StatusOr<std::unique_ptr<ProjectionStore>> Open(
      const std::string& dir, size_t cache_entries = 1 << 20);
  // An existing store, read without changing a byte of `dir` (no lock
  // file, no log, no recovery written back): for an auditor reading a
  // stopped server's data directory or a read-only snapshot of it. Commit
  // fails on it. Beside a running service it sees the store as of the
  // service's last flush (writes skip the WAL), and keeps that view: every
  // table file is opened at once, so compactions cannot take one away.
  static absl::StatusOr<std::unique_ptr<ProjectionStore>> OpenReadOnly(
      const std::string& dir);
  ~ProjectionStore();

  // Point reads go through a write-through cache: a projector reads back the
  // same balances and totals event after event, and the store is their only
  // writer, so the cache is exact. It is cleared when it reaches its bound.
  absl::StatusOr<std::optional<std::string>> Get(std::string_view key) const;
  // Keys with `prefix`, in order, starting at `start` (inclusive; empty = from
  // the prefix), at most `limit`.
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> Scan(
      std::string_view prefix, std::string_view start, size_t limit) const;

  // Several scans of one moment (a RocksDB snapshot): for a report that
  // reads many keys while the projector still commits. Each range is keys
  // with `prefix` in [start, end) (empty start: from the prefix; empty
  // end: to the prefix's end); RESOURCE_EXHAUSTED past `limit` rows in all.
  struct ScanRange {
    std::string prefix;
    std::string start;
    std::string end;
  };
  absl::StatusOr<std::vector<std::vector<std::pair<std::string, std::string>>>>
  ScanConsistent(const std::vector<ScanRange>& ranges, size_t limit) const;

  // Atomically writes the data and offsets of `txn`.
  absl::Status Commit(Txn& txn);
  // As Commit, for a large `txn` (a bulk catch-up): its writes, sorted,
  // become one table file that RocksDB takes in whole
  // (IngestExternalFile), instead of memtable inserts, flushes and the
  // compactions that rewrite them. Atomic like Commit: the file holds the
  // offsets too.
  absl::Status Ingest(Txn& txn);
  // As Ingest, for the txns of a catch-up's lanes (projector.h): their keys
  // are disjoint (INTERNAL otherwise, nothing written); each is sealed and
  // sorted on its own thread, and they become one table file, atomic as
  // one txn.
  absl::Status Ingest(const std::vector<Txn*>& txns);
  // Makes everything committed so far survive a crash.
  absl::Status Flush();

  OffsetMap Offsets() const;
  int64_t Offset(const std::string& topic, int partition) const;

  // SHA-256 over every data key and value in key order (offsets excluded),
  // hex. Two stores with the same hash hold the same bytes.
  absl::StatusOr<std::string> StateHash() const;
  // Number of data keys.
  absl::StatusOr<int64_t> KeyCount() const;

 private:
  static absl::StatusOr<std::unique_ptr<ProjectionStore>> OpenStore(
      const std::string& dir, size_t cache_entries, bool read_only);
  ProjectionStore(std::unique_ptr<rocksdb::DB> db, std::string dir,
                  OffsetMap offsets, bool empty, size_t cache_entries,
                  bool read_only);
  // After `txn` is written: the offsets and the cache follow it.
  void AfterWrite(Txn& txn);
  std::unique_ptr<rocksdb::DB> db_;
  const std::string dir_;
  int64_t ingested_files_ = 0;
  mutable std::mutex mu_;  // guards offsets_ and cache_
  OffsetMap offsets_;
  // No data key has been written: a miss needs no read (a catch-up from
  // offset 0 looks up many keys that do not exist yet).
  bool empty_;
  const size_t cache_entries_;
  const bool read_only_;
  mutable absl::flat_hash_map<std::string, std::optional<std::string>> cache_;
};

template <typename V, typename Load>
absl::StatusOr<V*> Txn::Typed(std::string_view key, Load&& load) {
  const absl::string_view k(key.data(), key.size());
  auto it = typed_.find(k);
  if (it != typed_.end()) return static_cast<V*>(it->second.get());
  absl::StatusOr<std::unique_ptr<V>> loaded = load();
  if (!loaded.ok()) return loaded.status();
  V* value = loaded->get();
  // A map slot and the value's allocation, as kEntryOverhead of a write.
  typed_bytes_ += key.size() + value->bytes() + 96;
  typed_.emplace(std::string(key), *std::move(loaded));
  return value;
}

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_PROJECTION_STORE_H_
