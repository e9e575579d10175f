// banca demo: a player workload against a running wallet, with progress.
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "services/server/token_key.h"
#include "tools/banca/commands.h"
#include "tools/bench/wallet_workload.h"

namespace banca::cli {
namespace {

struct DemoFlags {
  bench::WorkloadOptions workload;
  std::string run_id;
  std::string token_key_file;
};

int Demo(DemoFlags flags) {
  bench::WorkloadOptions& options = flags.workload;
  options.run_id = flags.run_id.empty()
                       ? absl::StrCat("demo", absl::ToUnixSeconds(absl::Now()))
                       : flags.run_id;
  // The demo is the back office: accounts as an operator, payments as the
  // payment service, table money as the table service.
  absl::StatusOr<edge::TokenForMethod> tokens = absl::NotFoundError("");
  absl::StatusOr<auth::SigningKey> key =
      server::LoadSigningKey(flags.token_key_file);
  if (key.ok()) tokens = edge::BackOfficeTokens(*key, "demo");
  if (!key.ok() && !absl::IsNotFound(key.status())) tokens = key.status();
  if (!tokens.ok() && !absl::IsNotFound(tokens.status())) {
    return Complain("banca demo", tokens.status(), kUsageError);
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
  const bench::WorkloadResult r = bench::RunWalletWorkload(options);
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

}  // namespace

void AddDemoCommand(CLI::App& banca, Action* action) {
  CLI::App* demo = banca.add_subcommand(
      "demo", "drive a player workload against a running wallet");
  demo->footer("Exit 0 every call answered, 1 a call failed, 2 usage.");
  auto flags = std::make_shared<DemoFlags>();
  bench::WorkloadOptions& w = flags->workload;
  demo->add_option("--target", w.target, "the wallet, HOST:PORT");
  AddInt(*demo, "--players", w.players, "players", 1);
  AddInt(*demo, "--operations", w.operations, "operations in all", 1);
  AddInt(*demo, "--concurrency", w.concurrency, "concurrent clients", 1, 512);
  demo->add_option("--run-id", flags->run_id,
                   "names this run's players and requests (default: "
                   "demo<unix time>)");
  demo->add_option("--token-key-file", flags->token_key_file,
                   "the issuer's key, for the back office's tokens");
  OnParsed(*demo, action, [flags] { return Demo(*flags); });
}

}  // namespace banca::cli
