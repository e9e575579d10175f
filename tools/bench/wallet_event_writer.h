// The wallet's events as the ledger commits them (ledger::Committed),
// encoded as the wallet encodes them (libs/wire/wallet_codec.h) and
// appended to a log in batches: how the benches fill a log with real
// wallet records without running the wallet service.
#ifndef BANCA_TOOLS_BENCH_WALLET_EVENT_WRITER_H_
#define BANCA_TOOLS_BENCH_WALLET_EVENT_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/ledger.h"

namespace banca::bench {

class WalletEventWriter {
 public:
  // Appended in batches of about this many records.
  static constexpr size_t kFlushRecords = 4000;

  explicit WalletEventWriter(eventlog::EventLog& log) : log_(log) {}

  // The ledger's commit function (pass the writer as a CommitFn): encodes
  // `c`, one microsecond after the previous event (plus any Advance since).
  void operator()(const ledger::Committed& c);

  // Moves the events' clock on by `micros` (>= 0).
  void Advance(int64_t micros) { clock_ += micros; }
  int64_t now_micros() const { return clock_; }

  // Appends what is pending once there is a batch of it (or `all`).
  absl::Status Flush(bool all = false);

  // The hold the last committed event placed ("" once taken).
  std::string TakeLastHold();
  // Events encoded so far.
  int64_t events() const { return events_; }

 private:
  eventlog::EventLog& log_;
  std::vector<eventlog::Record> pending_;
  std::string last_hold_;
  int64_t clock_ = 1'700'000'000'000'000;
  int64_t events_ = 0;
};

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_WALLET_EVENT_WRITER_H_
