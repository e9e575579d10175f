// Idempotency by client request id.
//
// Same id and same body: the first result is returned again and nothing new
// happens. Same id with another body: ALREADY_EXISTS. A retry that arrives
// while the first attempt is still in flight waits for it. A rejected
// attempt leaves no trace, so a corrected retry with the same id is decided
// afresh (nothing was appended for the rejection).
#ifndef BANCA_LIBS_LEDGER_IDEMPOTENCY_H_
#define BANCA_LIBS_LEDGER_IDEMPOTENCY_H_

#include <array>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "banca/v1/snapshot.pb.h"

namespace banca::ledger {

inline constexpr size_t kMaxRequestIdBytes = 128;
// The longest a retry waits for its in-flight first attempt (Begin).
inline constexpr absl::Duration kMaxRetryWait = absl::Minutes(10);

// A request id: 1..128 printable ASCII characters, no spaces.
bool IsValidRequestId(std::string_view id);

class IdempotencyIndex {
 public:
  enum class Outcome {
    // The caller owns the request now: decide it, then Complete or Abandon.
    kFirst,
    // Decided before: `result` holds what Complete stored.
    kRepeat,
  };
  struct Claim {
    Outcome outcome;
    std::string result;
  };

  // ALREADY_EXISTS when the id was used with another fingerprint;
  // DEADLINE_EXCEEDED when an in-flight first attempt does not finish
  // within `wait` (at most kMaxRetryWait).
  absl::StatusOr<Claim> Begin(std::string_view request_id,
                              std::string_view fingerprint,
                              absl::Duration wait = absl::Seconds(10));
  // The first attempt succeeded: remember its result for retries.
  void Complete(std::string_view request_id, std::string result);
  // The first attempt was rejected: forget the id.
  void Abandon(std::string_view request_id);
  // Replay: record a request decided in an earlier life of the process.
  void Restore(std::string_view request_id, std::string_view fingerprint,
               std::string result);

  // What Complete or Restore stored for `request_id` decided with
  // `fingerprint`; nullopt when the id is unknown, still in flight, or was
  // used for another request. Claims nothing.
  std::optional<std::string> Find(std::string_view request_id,
                                  std::string_view fingerprint) const;

  size_t size() const;

  // Snapshots (libs/snapshot/wallet_snapshot.h): every answered request
  // (in-flight claims are not answers yet), appended to `out` unsorted.
  void ExportAnswered(
      google::protobuf::RepeatedPtrField<v1::IdempotencyEntryState>* out) const;

 private:
  struct Entry {
    std::string fingerprint;
    std::string result;
    bool done = false;
  };
  // Plain std primitives rather than absl::Mutex: Debian's Abseil is not
  // built with TSan annotations, so ThreadSanitizer could not see through
  // absl::Mutex and this index could not be race-checked (docs/security.md,
  // "Fuzzing and sanitizers").
  struct Shard {
    mutable std::mutex mu;
    std::condition_variable done;
    absl::flat_hash_map<std::string, Entry> entries ABSL_GUARDED_BY(mu);
  };
  Shard& ShardOf(std::string_view request_id);
  const Shard& ShardOf(std::string_view request_id) const;

  static constexpr size_t kShards = 64;
  std::array<Shard, kShards> shards_;
};

}  // namespace banca::ledger

#endif  // BANCA_LIBS_LEDGER_IDEMPOTENCY_H_
