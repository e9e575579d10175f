// The ledger's epoch gates: what makes a reading of the whole ledger (its
// summary, the replayed-state check) one consistent point of it.
//
// An event is written under the locks of every shard it touches, all held
// at once, so no reader of one shard ever sees half of it. A reader of the
// whole ledger that locks one shard after another, though, can read a
// transfer's debited shard before the transfer and its credited shard after
// it: the balances then sum, for a moment, to the amount moved, not 0 (the
// wallet's banca_wallet_ledger_sum_minor gauge read 101, then 425, under
// load). Taking every shard lock at once would close that gap, but there
// are thousands of shards (and ThreadSanitizer follows at most 64 locks
// held by one thread).
//
// So every writer (a command, a replayed or followed event) also passes one
// of kGates gates, shared, from before it takes its shard locks until it
// has released them; a whole-ledger reader closes every gate, exclusively,
// in index order, and so reads with no event half-written. Writers never
// wait for each other at a gate (they share it), and each thread keeps to
// a gate of its own, on a cache line of its own, so the hot path neither
// serializes nor bounces one line between cores. A reader waits for the
// events in flight and holds new ones back for the length of its scan; a
// gate lets no new writer in while a reader waits for it, so no stream of
// writers starves a reader.
//
// Order: a gate before any shard lock; a thread never passes a second gate
// while in one (a shared pass does not nest while a reader waits).
#ifndef BANCA_LIBS_LEDGER_EPOCH_GATES_H_
#define BANCA_LIBS_LEDGER_EPOCH_GATES_H_

#include <pthread.h>

#include <array>
#include <cstddef>

namespace banca::ledger {

class EpochGates {
 public:
  // Few: a reader closes them all (well within the 64 locks a thread may
  // hold under ThreadSanitizer), enough that threads rarely share one.
  static constexpr size_t kGates = 16;

  EpochGates();
  ~EpochGates();
  EpochGates(const EpochGates&) = delete;
  EpochGates& operator=(const EpochGates&) = delete;

  // A writer's way through its thread's gate, shared, for its lifetime.
  class Pass {
   public:
    explicit Pass(EpochGates& gates);
    ~Pass();
    Pass(const Pass&) = delete;
    Pass& operator=(const Pass&) = delete;

   private:
    pthread_rwlock_t* lock_;
  };

  // Every gate closed, for its lifetime: no writer is in the ledger.
  class Closed {
   public:
    explicit Closed(EpochGates& gates);
    ~Closed();
    Closed(const Closed&) = delete;
    Closed& operator=(const Closed&) = delete;

   private:
    EpochGates& gates_;
  };

 private:
  struct alignas(64) Gate {
    pthread_rwlock_t lock;
  };
  std::array<Gate, kGates> gates_;
};

}  // namespace banca::ledger

#endif  // BANCA_LIBS_LEDGER_EPOCH_GATES_H_
