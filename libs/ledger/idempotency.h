// Idempotency by client request id.
//
// Same id and same body: the first result is returned again and nothing new
// happens. Same id with another body: ALREADY_EXISTS. A retry that arrives
// while the first attempt is still in flight waits for it. A rejected
// attempt leaves no trace, so a corrected retry with the same id is decided
// afresh (nothing was appended for the rejection).
//
// Answers are kept for a window (IdempotencyOptions::window, the wallet's
// `--idempotency-window-hours`): a request id answered longer ago than
// that is a new request again. They live in the index's memory, or in an
// AnswerStore (answer_store.h) that keeps them on disk; the index then
// holds only the requests in flight.
#ifndef BANCA_LIBS_LEDGER_IDEMPOTENCY_H_
#define BANCA_LIBS_LEDGER_IDEMPOTENCY_H_

#include <array>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "banca/v1/snapshot.pb.h"
#include "libs/common/clock.h"
#include "libs/ledger/answer_store.h"

namespace banca::ledger {

inline constexpr size_t kMaxRequestIdBytes = 128;
// The longest a retry waits for its in-flight first attempt (Begin).
inline constexpr absl::Duration kMaxRetryWait = absl::Minutes(10);

// A request id: 1..128 printable ASCII characters, no spaces.
bool IsValidRequestId(std::string_view id);

struct IdempotencyOptions {
  // How long an answer is kept; zero: for ever.
  absl::Duration window = absl::ZeroDuration();
  // What the window is measured with (null: the system's clock).
  const Clock* clock = nullptr;
  // Where answers are kept (null: in memory). Outlives the index.
  AnswerStore* store = nullptr;
};

class IdempotencyIndex {
 public:
  IdempotencyIndex() : IdempotencyIndex(IdempotencyOptions{}) {}
  explicit IdempotencyIndex(IdempotencyOptions options);

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
  // The first attempt succeeded: remember its result for retries, answered
  // at `at_micros` (its event's time, as a replay restores it) or now.
  void Complete(std::string_view request_id, std::string result,
                int64_t at_micros);
  void Complete(std::string_view request_id, std::string result) {
    Complete(request_id, std::move(result), NowMicros());
  }
  // The first attempt was rejected: forget the id.
  void Abandon(std::string_view request_id);
  // Replay: record a request decided in an earlier life of the process,
  // answered at `at_micros` (its event's time). An answer already kept
  // from later stays.
  void Restore(std::string_view request_id, std::string_view fingerprint,
               std::string result, int64_t at_micros);

  // What Complete or Restore stored for `request_id` decided with
  // `fingerprint`; nullopt when the id is unknown, still in flight, or was
  // used for another request. Claims nothing.
  std::optional<std::string> Find(std::string_view request_id,
                                  std::string_view fingerprint) const;

  // Requests in flight, and the answers kept in memory (none with a
  // store).
  size_t size() const;

  // The store answers are kept in; null: memory.
  AnswerStore* store() const { return options_.store; }

  // Snapshots (libs/snapshot/wallet_snapshot.h): every answered request
  // within the window (in-flight claims are not answers yet), appended to
  // `out` unsorted. Nothing with a store: the store keeps them itself.
  void ExportAnswered(
      google::protobuf::RepeatedPtrField<v1::IdempotencyEntryState>* out) const;

 private:
  struct Entry {
    std::string fingerprint;
    std::string result;
    bool done = false;
    int64_t at_micros = 0;
  };
  // Plain std primitives rather than absl::Mutex: Debian's Abseil is not
  // built with TSan annotations, so ThreadSanitizer could not see through
  // absl::Mutex and this index could not be race-checked (docs/security.md,
  // "Fuzzing and sanitizers").
  struct Shard {
    mutable std::mutex mu;
    std::condition_variable done;
    absl::flat_hash_map<std::string, Entry> entries ABSL_GUARDED_BY(mu);
    // With a window and no store: the answers in the order they were
    // kept, to forget the expired ones from the front.
    std::deque<std::pair<int64_t, std::string>> kept ABSL_GUARDED_BY(mu);
  };
  Shard& ShardOf(std::string_view request_id);
  const Shard& ShardOf(std::string_view request_id) const;
  int64_t NowMicros() const;
  bool Expired(int64_t at_micros) const;
  // An answer kept in memory (no store) at `at_micros`; drops the expired.
  void KeepInMemory(Shard& shard, std::string_view request_id, Entry entry)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(shard.mu);
  // The answer for `request_id` within the window, from memory or store.
  std::optional<Answer> Answered(const Shard& shard,
                                 std::string_view request_id) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(shard.mu);

  const IdempotencyOptions options_;
  const SystemClock system_clock_;

  static constexpr size_t kShards = 64;
  std::array<Shard, kShards> shards_;
};

}  // namespace banca::ledger

#endif  // BANCA_LIBS_LEDGER_IDEMPOTENCY_H_
