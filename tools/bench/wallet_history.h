// A wallet's history decided by the real ledger and written to a log as the
// wallet writes it (wallet_event_writer.h): accounts first, then rounds of a
// deposit, a buy-in hold and its capture to a table seat. It can be written
// in steps (`banca bench startup` writes most of it, snapshots, then adds
// the tail).
#ifndef BANCA_TOOLS_BENCH_WALLET_HISTORY_H_
#define BANCA_TOOLS_BENCH_WALLET_HISTORY_H_

#include <cstdint>
#include <random>

#include "absl/status/status.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/ledger.h"
#include "tools/bench/wallet_event_writer.h"

namespace banca::bench {

class WalletHistory {
 public:
  WalletHistory(eventlog::EventLog& log, int players)
      : writer_(log), players_(players) {}

  // Appends events until `total` (or a few more: a round is whole) have
  // been written in all, and flushes them.
  absl::Status WriteUntil(int64_t total);
  int64_t events() const { return writer_.events(); }

 private:
  // One player's round; returns the events it made.
  int64_t Round(const std::string& player);

  ledger::Ledger ledger_;
  WalletEventWriter writer_;
  const int players_;
  int opened_ = 0;
  int64_t round_ = 0;
  std::mt19937_64 rng_{7};
};

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_WALLET_HISTORY_H_
