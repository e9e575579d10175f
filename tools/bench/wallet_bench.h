// `banca bench wallet`: the wallet service in this process, over gRPC on
// loopback, on the embedded log (durable) or a Kafka broker. A saturated
// run (closed loop), a paced one (open loop at `rate`), then the wallet
// projection rebuilt from offset 0 of what they wrote. The bench is the
// back office, with a signing key of its own for the run.
#ifndef BANCA_TOOLS_BENCH_WALLET_BENCH_H_
#define BANCA_TOOLS_BENCH_WALLET_BENCH_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "tools/bench/rebuild_bench.h"
#include "tools/bench/wallet_workload.h"

namespace banca::bench {

struct WalletBenchOptions {
  std::string dir;               // scratch directory
  std::string log = "embedded";  // or kafka://HOST:PORT[?options]
  int clients = 64;
  int64_t operations = 60'000;  // of the saturated run
  int64_t rate = 5'000;         // the paced run's operations/s
  int64_t paced_seconds = 6;
  WorkloadMix mix = WorkloadMix::kPayments;
  // kBatch: transfers per call. The batch mix has no paced run: its
  // clients are batches in flight, its operations transfers.
  int batch_size = 8'190;
};

struct WalletBenchResult {
  WorkloadResult saturated;
  WorkloadResult paced;
  RebuildResult rebuild;
};

absl::StatusOr<WalletBenchResult> RunWalletBench(
    const WalletBenchOptions& options);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_WALLET_BENCH_H_
