// A concurrent player workload against a wallet over gRPC, shared by
// `banca demo`, `banca bench wallet` and the crash test.
#ifndef BANCA_TOOLS_BENCH_WALLET_WORKLOAD_H_
#define BANCA_TOOLS_BENCH_WALLET_WORKLOAD_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "services/common/authorized_channel.h"

namespace banca::bench {

enum class WorkloadMix {
  // Sessions: deposit, hold, capture to a table seat, rake and payout
  // transfers, release, withdraw — every account class and RPC.
  kSessions,
  // Deposits and withdrawals only: one durable append per call.
  kPayments,
  // Balance reads only: the cost of the RPC path without the log.
  kReads,
  // TransferBatch calls of `batch_size` table settlements each: a buy-in
  // from a player's cash to a seat and its payout back, in pairs (players
  // are funded first). `operations` counts transfers; latency is per batch.
  kBatch,
};

struct WorkloadOptions {
  std::string target = "127.0.0.1:7070";
  // The transport (services/common/transport_security.h); null: plaintext.
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  int players = 200;
  int concurrency = 32;
  int64_t operations = 20'000;
  // 0: closed loop (as fast as the server answers). Otherwise an open loop
  // at this many operations per second; latency counts from each call's
  // scheduled start, so a slow server cannot hide its queueing.
  int64_t rate_per_sec = 0;
  WorkloadMix mix = WorkloadMix::kSessions;
  // kBatch: transfers per TransferBatch call.
  int batch_size = 8'190;
  // Distinguishes runs against one server (player ids and request ids).
  std::string run_id = "demo";
  // The callers' tokens, per method (BackOfficeTokens); null: none.
  edge::TokenForMethod tokens;
  // Called about once a second with operations done so far.
  std::function<void(int64_t done, int64_t total)> progress;
};

struct WorkloadResult {
  int64_t ok = 0;
  // Refused by the rules (e.g. insufficient funds); expected in a workload.
  int64_t rejected = 0;
  // Transport or server errors.
  int64_t failed = 0;
  double seconds = 0;
  double ops_per_sec = 0;
  double p50_ms = 0;
  double p99_ms = 0;
  double max_ms = 0;
  std::string first_error;
  // kBatch: the batches' items answered OK and refused, and OK items per
  // second (`ok`, `rejected` and the latencies count whole batches).
  int64_t transfers = 0;
  int64_t transfers_rejected = 0;
  double transfers_per_sec = 0;
};

WorkloadResult RunWalletWorkload(const WorkloadOptions& options);

// The same payments, reads or batch mix with gRPC's asynchronous client: each
// of `concurrency` clients is a call slot that starts its next call when the
// last one answers (or at its scheduled time), driven by two completion
// queue threads instead of a thread per client, so the client's own thread
// switching does not eat the cores the server is measured on. Accounts are
// opened first as in RunWalletWorkload.
WorkloadResult RunAsyncWalletWorkload(const WorkloadOptions& options);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_WALLET_WORKLOAD_H_
