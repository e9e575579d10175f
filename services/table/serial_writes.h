// The write side of a server stream (internal to the table service): gRPC
// allows one write in flight per stream, so what the service sends waits
// in a queue and goes out in order, and an end waits for the queue. Shared
// by the Play and the Relay streams, which differ only in what they queue.
// The caller starts the writes and the finish this returns, outside the
// lock.
#ifndef BANCA_SERVICES_TABLE_SERIAL_WRITES_H_
#define BANCA_SERVICES_TABLE_SERIAL_WRITES_H_

#include <deque>
#include <optional>

#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"

namespace banca::table {

template <typename Message>
class SerialWrites {
 public:
  // Calls `add(queue, writing)` under the lock, unless the stream is
  // ending: it appends to `queue` (whose front is the write in flight while
  // `writing`), or returns the status to end the stream with when too much
  // waits; the queue is then cut to the write in flight, which is always
  // there, since a queue grows only behind one. The write to start now, if
  // any.
  template <typename Add>
  const Message* Queue(Add add) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    if (ending_ || finished_) return nullptr;
    if (std::optional<grpc::Status> overflow = add(queue_, writing_)) {
      queue_.resize(1);
      ending_ = *std::move(overflow);
      return nullptr;
    }
    if (writing_ || queue_.empty()) return nullptr;
    writing_ = true;
    // A deque keeps its elements in place as it grows, and only the
    // stream's own writes take its front off.
    return &queue_.front();
  }

  struct Next {
    const Message* write = nullptr;      // to start
    std::optional<grpc::Status> finish;  // else, to finish with
  };
  // The write in flight is done (`ok` false: the stream is broken).
  Next Done(bool ok) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    Next next;
    queue_.pop_front();
    if (!ok) {
      queue_.clear();
      if (!ending_) ending_ = grpc::Status(grpc::StatusCode::CANCELLED, "");
    }
    if (!queue_.empty()) {
      next.write = &queue_.front();
    } else {
      writing_ = false;
      if (ending_ && !finished_) {
        finished_ = true;
        next.finish = *ending_;
      }
    }
    return next;
  }

  // Ends the stream with `status` once the queue is out: the status to
  // finish with now, if nothing is being written.
  std::optional<grpc::Status> End(grpc::Status status)
      ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    if (ending_ || finished_) return std::nullopt;
    ending_ = status;
    if (writing_) return std::nullopt;  // Done finishes
    finished_ = true;
    return status;
  }

  bool ending() ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return ending_.has_value() || finished_;
  }

 private:
  absl::Mutex mu_;
  std::deque<Message> queue_ ABSL_GUARDED_BY(mu_);
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<grpc::Status> ending_ ABSL_GUARDED_BY(mu_);
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_SERIAL_WRITES_H_
