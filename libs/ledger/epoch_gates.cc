#include "libs/ledger/epoch_gates.h"

#include <atomic>

#include "libs/common/check.h"

namespace banca::ledger {
namespace {

// Each thread's gate, dealt round-robin as threads first write.
size_t ThisThreadsGate() {
  static std::atomic<size_t> next{0};
  thread_local const size_t gate =
      next.fetch_add(1, std::memory_order_relaxed) % EpochGates::kGates;
  return gate;
}

}  // namespace

EpochGates::EpochGates() {
  pthread_rwlockattr_t attr;
  BANCA_CHECK(pthread_rwlockattr_init(&attr) == 0);
  // A waiting reader of the whole ledger (the gate's exclusive holder)
  // goes before writers that arrive after it: glibc's default lets shared
  // holders in for as long as any is inside, which under steady load could
  // be for ever.
  BANCA_CHECK(pthread_rwlockattr_setkind_np(
                  &attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP) == 0);
  for (Gate& gate : gates_) {
    BANCA_CHECK(pthread_rwlock_init(&gate.lock, &attr) == 0);
  }
  pthread_rwlockattr_destroy(&attr);
}

EpochGates::~EpochGates() {
  for (Gate& gate : gates_) pthread_rwlock_destroy(&gate.lock);
}

EpochGates::Pass::Pass(EpochGates& gates)
    : lock_(&gates.gates_[ThisThreadsGate()].lock) {
  BANCA_CHECK(pthread_rwlock_rdlock(lock_) == 0);
}

EpochGates::Pass::~Pass() { BANCA_CHECK(pthread_rwlock_unlock(lock_) == 0); }

EpochGates::Closed::Closed(EpochGates& gates) : gates_(gates) {
  for (Gate& gate : gates_.gates_) {
    BANCA_CHECK(pthread_rwlock_wrlock(&gate.lock) == 0);
  }
}

EpochGates::Closed::~Closed() {
  for (size_t i = kGates; i-- > 0;) {
    BANCA_CHECK(pthread_rwlock_unlock(&gates_.gates_[i].lock) == 0);
  }
}

}  // namespace banca::ledger
