// The wallet's replay path: a sequence of records (fuzz_input.h), each
// decoded (libs/wire/wallet_codec.h) and applied with Ledger::Apply
// to a fresh ledger, as WalletService::Replay does at start. A refused event
// is fine (replay reports it as DATA_LOSS); a crash or UB is a finding, and
// so is a ledger that accepted every event and no longer sums to zero.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "libs/ledger/ledger.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "tests/fuzz/fuzz_records.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace banca;
  ledger::LedgerOptions options;
  options.shards = 16;  // a fresh ledger per input: keep it cheap
  ledger::Ledger ledger(options);
  for (const wire::DecodedWalletEvent& decoded : fuzz::DecodedSequence(
           data, size, wire::kWalletTopic, &wire::DecodeWalletRecord)) {
    (void)wire::DescribeWalletEvent(decoded.event);
    absl::Status applied =
        ledger.Apply(decoded.envelope.stream_id(), decoded.envelope.sequence(),
                     decoded.event);
    if (!applied.ok()) continue;
    const ledger::LedgerSummary summary = ledger.Summarize();
    if (summary.sum != 0) {
      std::fprintf(stderr, "replay accepted events the ledger sums to %lld\n",
                   static_cast<long long>(summary.sum));
      std::abort();
    }
  }
  return 0;
}
