// banca demo: a player workload against a running wallet, with progress.
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "tools/banca/commands.h"
#include "tools/banca/flags.h"
#include "tools/banca/token_key.h"
#include "tools/banca/wallet_workload.h"

namespace banca::cli {

int DemoCommand(int argc, char** argv) {
  auto flags = Flags::Parse(argc, argv, 2,
                            {"target", "players", "operations", "concurrency",
                             "run-id", "token-key-file"});
  if (!flags.ok()) {
    std::fprintf(stderr, "banca demo: %s\n",
                 std::string(flags.status().message()).c_str());
    return 2;
  }
  WorkloadOptions options;
  options.target = flags->Get("target", "127.0.0.1:7070");
  options.players =
      static_cast<int>(flags->GetInt("players", 200).value_or(200));
  options.operations = flags->GetInt("operations", 20'000).value_or(20'000);
  options.concurrency =
      static_cast<int>(flags->GetInt("concurrency", 32).value_or(32));
  options.run_id = flags->Get(
      "run-id", absl::StrCat("demo", absl::ToUnixSeconds(absl::Now())));
  if (options.players < 1 || options.operations < 1 ||
      options.concurrency < 1 || options.concurrency > 512) {
    std::fprintf(stderr,
                 "banca demo: bad --players/--operations/--concurrency\n");
    return 2;
  }
  // The demo is the back office: accounts as an operator, payments as the
  // payment service, table money as the table service.
  absl::StatusOr<TokenForMethod> tokens = absl::NotFoundError("");
  absl::StatusOr<auth::SigningKey> key =
      LoadSigningKey(flags->Get("token-key-file", ""));
  if (key.ok()) tokens = BackOfficeTokens(*key, "demo");
  if (!key.ok() && !absl::IsNotFound(key.status())) tokens = key.status();
  if (!tokens.ok() && !absl::IsNotFound(tokens.status())) {
    std::fprintf(stderr, "banca demo: %s\n",
                 std::string(tokens.status().message()).c_str());
    return 2;
  }
  if (tokens.ok()) options.tokens = *tokens;
  options.progress = [](int64_t done, int64_t total) {
    std::fprintf(stderr, "\rdemo: %lld / %lld operations",
                 static_cast<long long>(done), static_cast<long long>(total));
    std::fflush(stderr);
  };
  std::fprintf(
      stderr,
      "demo: %d players, %d concurrent clients, %lld operations against %s\n",
      options.players, options.concurrency,
      static_cast<long long>(options.operations), options.target.c_str());
  const WorkloadResult r = RunWalletWorkload(options);
  std::fprintf(stderr, "\n");
  std::printf(
      "demo: %lld calls in %.1f s (%.0f/s): %lld ok, %lld refused by the rules "
      "(e.g. insufficient funds), %lld failed; latency p50 %.2f ms, p99 %.2f "
      "ms\n",
      static_cast<long long>(r.ok + r.rejected + r.failed), r.seconds,
      r.ops_per_sec, static_cast<long long>(r.ok),
      static_cast<long long>(r.rejected), static_cast<long long>(r.failed),
      r.p50_ms, r.p99_ms);
  if (r.failed > 0) {
    std::printf("demo: first error: %s\n", r.first_error.c_str());
    return 1;
  }
  return 0;
}

}  // namespace banca::cli
