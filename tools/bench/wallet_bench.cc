#include "tools/bench/wallet_bench.h"

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/status_macros.h"
#include "services/common/authorized_channel.h"
#include "services/wallet/local_wallet_server.h"

namespace banca::bench {
namespace {

// Sessions need the scripted sync client; payments and reads run on the
// asynchronous one, so the client spends little of the shared CPU.
WorkloadResult Run(const WorkloadOptions& o) {
  return o.mix == WorkloadMix::kSessions ? RunWalletWorkload(o)
                                         : RunAsyncWalletWorkload(o);
}

}  // namespace

absl::StatusOr<WalletBenchResult> RunWalletBench(
    const WalletBenchOptions& options) {
  ASSIGN_OR_RETURN(const auth::SigningKey key, edge::EphemeralSigningKey());
  ASSIGN_OR_RETURN(edge::TokenForMethod tokens,
                   edge::BackOfficeTokens(key, "bench"));
  wallet::WalletOptions wallet_options;
  (void)wallet_options.verifier.Add(key.public_key());
  ASSIGN_OR_RETURN(auto server, wallet::LocalWalletServer::Start(
                                    options.dir, wallet_options, options.log));
  // A broker keeps its topics between runs: fresh request ids and players
  // every run, or the idempotency index would answer from the last one.
  const std::string run_suffix =
      options.log != "embedded"
          ? absl::StrCat("-", absl::ToUnixMicros(absl::Now()))
          : "";

  WalletBenchResult result;
  WorkloadOptions closed;
  closed.target = server->target();
  closed.tokens = std::move(tokens);
  closed.players = 2'000;
  closed.concurrency = options.clients;
  closed.operations = options.operations;
  closed.mix = options.mix;
  closed.batch_size = options.batch_size;
  closed.run_id = "bench" + run_suffix;
  result.saturated = Run(closed);

  if (options.mix != WorkloadMix::kBatch) {
    WorkloadOptions paced = closed;
    paced.rate_per_sec = options.rate;
    paced.operations = options.rate * options.paced_seconds;
    paced.run_id = "paced" + run_suffix;
    result.paced = Run(paced);
  }
  RETURN_IF_ERROR(server->Stop());

  ASSIGN_OR_RETURN(result.rebuild,
                   TimeRebuild(server->log(), options.dir + "/rebuild"));
  return result;
}

}  // namespace banca::bench
