// banca demo: a player workload against a running wallet, with progress;
// banca demo games: bots playing every game against a running server
// (tools/bench/game_bots.h), one JSON line per game.
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "libs/common/json_text.h"
#include "services/server/token_key.h"
#include "tools/banca/client_tls_flags.h"
#include "tools/banca/commands.h"
#include "tools/banca/service_target_flags.h"
#include "tools/bench/game_bots.h"
#include "tools/bench/wallet_workload.h"

namespace banca::cli {
namespace {

struct DemoFlags {
  bench::WorkloadOptions workload;
  std::string run_id;
  std::string token_key_file;
  edge::ClientTls tls;
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
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials =
      edge::ChannelCredentialsFor(flags.tls);
  if (!credentials.ok()) {
    return Complain("banca demo", credentials.status(), kUsageError);
  }
  options.credentials = *std::move(credentials);
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

struct GamesFlags {
  bench::GameBotsOptions options;
  ServiceTargetFlags services;
  std::string token_key_file;
  int64_t seconds = 20;
  bool no_sit_and_go = false;
  edge::ClientTls tls;
};

int Games(GamesFlags flags) {
  constexpr std::string_view kCommand = "banca demo games";
  bench::GameBotsOptions& o = flags.options;
  o.play_for = absl::Seconds(flags.seconds);
  o.sit_and_go = !flags.no_sit_and_go;
  if (o.run_id.empty()) {
    o.run_id = absl::StrCat("g", absl::ToUnixSeconds(absl::Now()));
  }
  absl::StatusOr<auth::SigningKey> key =
      server::LoadSigningKey(flags.token_key_file);
  if (!key.ok()) return Complain(kCommand, key.status(), kUsageError);
  o.key = *key;
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials =
      edge::ChannelCredentialsFor(flags.tls);
  if (!credentials.ok()) {
    return Complain(kCommand, credentials.status(), kUsageError);
  }
  o.credentials = *std::move(credentials);
  absl::StatusOr<bench::ServiceTargets> services =
      ParseServiceTargets(flags.services);
  if (!services.ok()) return Complain(kCommand, services.status(), kUsageError);
  o.services = *std::move(services);
  std::fprintf(
      stderr, "demo games: %d bots a game for %lld s against %s (run %s)%s\n",
      o.players, static_cast<long long>(flags.seconds),
      DescribeTargets(flags.services, o.target).c_str(), o.run_id.c_str(),
      o.sit_and_go ? ", and a sit and go to its winner" : "");
  absl::StatusOr<bench::GameBotsResult> result = bench::RunGameBots(o);
  if (!result.ok()) {
    return Complain(kCommand, result.status(),
                    absl::IsInvalidArgument(result.status()) ? kUsageError : 1);
  }
  for (const bench::GameTally& t : result->games) {
    std::printf("%s\n", JsonText(bench::GameTallyJson(t)).c_str());
  }
  if (o.check_reporting) {
    std::printf(
        "%s\n",
        JsonText(nlohmann::ordered_json{{"reporting", result->reporting}})
            .c_str());
  }
  nlohmann::ordered_json routes;
  for (const auto& [service, r] : result->routes) {
    routes[service] = {{"calls", r.calls},
                       {"retries", r.retries},
                       {"redirects", r.redirects},
                       {"gave_up", r.gave_up}};
  }
  std::printf("%s\n",
              JsonText(nlohmann::ordered_json{{"routes", routes}}).c_str());
  if (!result->failures.empty()) {
    return Complain(kCommand, absl::StrJoin(result->failures, "; "), 1);
  }
  std::printf(
      "demo games: every bot's balance is its deposit and its sessions' net; "
      "the ledger sums to %lld\n",
      static_cast<long long>(result->ledger_sum_minor));
  return 0;
}

void AddGamesCommand(CLI::App& demo, Action* action) {
  CLI::App* games = demo.add_subcommand(
      "games", "bots play every game against a running server");
  games->footer(
      "Cash Hold'em, French and American roulette, blackjack and póquer sem "
      "descarte for --seconds, and a sit and go to its winner, all at once "
      "over gRPC (banca serve --services=wallet,table,tournament); one JSON "
      "line per game. Then each bot's balance is checked against its "
      "deposit and the net of its sessions, and the ledger's sum against 0; "
      "with --check-reporting, the reporting service's answers too "
      "(tools/bench/reporting_checks.h). Each service may be several "
      "processes (--wallet-target=A,B, --table-target=C,D: a wallet or "
      "table group): a call follows a refusal's banca-owner route, tries "
      "the other processes on UNAVAILABLE and is repeated with the same "
      "request id across a restart, with a bounded backoff "
      "(tools/bench/service_route.h); the routes' figures are the last "
      "JSON line."
      "\nExit 0 every check passed, 1 a check or call failed, 2 usage.");
  auto flags = std::make_shared<GamesFlags>();
  bench::GameBotsOptions& o = flags->options;
  o.run_id.clear();
  games->add_option("--target", o.target,
                    "the server, HOST:PORT (every service not given its "
                    "own targets below)");
  AddServiceTargetFlags(*games, flags->services);
  AddClientTlsFlags(*games, flags->tls);
  games->add_option("--token-key-file", flags->token_key_file,
                    "the issuer's key (else BANCA_TOKEN_KEY)");
  AddInt(*games, "--seconds", flags->seconds, "how long the games go on", 1,
         3'600);
  AddInt(*games, "--players", o.players, "bots per game", 2,
         bench::kMaxGameBotsPlayers);
  AddInt(*games, "--sit-and-go-players", o.sit_and_go_players,
         "the sit and go's players", 2, 9);
  AddSwitch(*games, "--no-sit-and-go", flags->no_sit_and_go,
            "play no sit and go");
  AddSwitch(*games, "--check-reporting", o.check_reporting,
            "then check the reporting service's histories, statements, "
            "sessions and daily close (the server serves reporting)");
  games->add_option("--run-id", o.run_id,
                    "names the run's tables, players and tournament: 1..12 "
                    "of [a-z0-9] (default: g<unix time>)");
  AddInt(*games, "--seed", o.seed, "the bots' random draws", 0);
  OnParsed(*games, action, [flags] { return Games(*flags); });
}

}  // namespace

void AddDemoCommand(CLI::App& banca, Action* action) {
  CLI::App* demo = banca.add_subcommand(
      "demo", "drive a player workload against a running wallet");
  demo->footer("Exit 0 every call answered, 1 a call failed, 2 usage.");
  auto flags = std::make_shared<DemoFlags>();
  bench::WorkloadOptions& w = flags->workload;
  demo->add_option("--target", w.target, "the wallet, HOST:PORT");
  AddClientTlsFlags(*demo, flags->tls);
  AddInt(*demo, "--players", w.players, "players", 1);
  AddInt(*demo, "--operations", w.operations, "operations in all", 1);
  AddInt(*demo, "--concurrency", w.concurrency, "concurrent clients", 1, 512);
  demo->add_option("--run-id", flags->run_id,
                   "names this run's players and requests (default: "
                   "demo<unix time>)");
  demo->add_option("--token-key-file", flags->token_key_file,
                   "the issuer's key, for the back office's tokens");
  AddGamesCommand(*demo, action);
  CLI::App* games = demo->get_subcommand("games");
  // `banca demo games` is the subcommand's action, not the workload's.
  demo->callback([action, flags, games] {
    if (!games->parsed()) *action = [flags] { return Demo(*flags); };
  });
}

}  // namespace banca::cli
