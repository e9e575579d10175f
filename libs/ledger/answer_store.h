// Where an idempotency index keeps its answered requests
// (idempotency.h): in the index's own memory by default, or in a store
// that keeps them off the heap and across restarts
// (libs/answers/rocksdb_answer_store.h).
//
// A store fails only when its disk does, and then it stops the process:
// an answer that could not be kept would let a retry be carried out twice.
#ifndef BANCA_LIBS_LEDGER_ANSWER_STORE_H_
#define BANCA_LIBS_LEDGER_ANSWER_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"

namespace banca::ledger {

// One answered request: the fingerprint of its body, what the first
// attempt answered, and when (microseconds since the Unix epoch).
struct Answer {
  std::string fingerprint;
  std::string result;
  int64_t at_micros = 0;
  bool operator==(const Answer&) const = default;
};

class AnswerStore {
 public:
  virtual ~AnswerStore() = default;

  // The answer kept for `request_id`, if any (expired ones may still be
  // returned: the index decides what its window keeps).
  virtual std::optional<Answer> Get(std::string_view request_id) const = 0;
  // Keeps `answer` for `request_id` unless the one kept is later (a
  // replay of an older use of a reused id changes nothing).
  virtual void Put(std::string_view request_id, const Answer& answer) = 0;
  // Makes every Put so far survive a crash of the machine.
  virtual void Sync() = 0;
  // Names this store for as long as its contents live: a snapshot that
  // relies on the store records it (libs/snapshot/wallet_snapshot.h).
  virtual std::string id() const = 0;
  // Every answer kept, in request id order.
  virtual void ForEach(
      absl::FunctionRef<void(std::string_view, const Answer&)> fn) const = 0;
};

}  // namespace banca::ledger

#endif  // BANCA_LIBS_LEDGER_ANSWER_STORE_H_
