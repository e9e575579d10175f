// How many streams each caller (a token subject) holds open across a
// service, with a cap (a limit on everything): one caller cannot take a
// table's or the service's streams for itself (docs/security.md "Tables
// and hidden cards"). Thread-safe.
#ifndef BANCA_SERVICES_COMMON_CALLER_STREAMS_H_
#define BANCA_SERVICES_COMMON_CALLER_STREAMS_H_

#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace banca::table {

class CallerStreams {
 public:
  // One open stream of a caller; gives it back when destroyed.
  class Ticket {
   public:
    Ticket() = default;
    Ticket(Ticket&& other) noexcept;
    Ticket& operator=(Ticket&& other) noexcept;
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    ~Ticket();

   private:
    friend class CallerStreams;
    Ticket(CallerStreams* owner, std::string caller)
        : owner_(owner), caller_(std::move(caller)) {}
    void Release();

    CallerStreams* owner_ = nullptr;
    std::string caller_;
  };

  // `what` names the streams in the refusal ("WatchTable streams").
  CallerStreams(int max_per_caller, std::string what)
      : max_per_caller_(max_per_caller), what_(std::move(what)) {}
  CallerStreams(const CallerStreams&) = delete;
  CallerStreams& operator=(const CallerStreams&) = delete;

  // Counts a stream of `caller`: RESOURCE_EXHAUSTED, naming the limit, when
  // it holds max_per_caller already. The tickets must not outlive this.
  absl::StatusOr<Ticket> Open(const std::string& caller);
  // The streams `caller` holds open (tests).
  int open(const std::string& caller) const;

 private:
  void Close(const std::string& caller);

  const int max_per_caller_;
  const std::string what_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, int> open_ ABSL_GUARDED_BY(mu_);
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_COMMON_CALLER_STREAMS_H_
