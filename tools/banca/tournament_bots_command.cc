// banca tournament-bots: bots playing a tournament against a running
// server (tools/bench/tournament_bots.h), one phase at a time; prints the
// phase's one JSON object.
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "libs/common/json_text.h"
#include "services/server/token_key.h"
#include "tools/banca/client_tls_flags.h"
#include "tools/banca/commands.h"
#include "tools/banca/service_target_flags.h"
#include "tools/bench/tournament_bots.h"

namespace banca::cli {
namespace {

struct TournamentBotsFlags {
  bench::TournamentBotsOptions options;
  ServiceTargetFlags services;
  std::string phase = "play";
  std::string token_key_file;
  int64_t deadline_seconds = 100;
  edge::ClientTls tls;
};

int TournamentBots(TournamentBotsFlags flags) {
  constexpr std::string_view kCommand = "banca tournament-bots";
  bench::TournamentBotsOptions& o = flags.options;
  o.phase = flags.phase == "play" ? bench::TournamentBotsPhase::kPlay
                                  : bench::TournamentBotsPhase::kFinish;
  o.deadline = absl::Seconds(flags.deadline_seconds);
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
  absl::StatusOr<bench::TournamentBotsResult> result =
      bench::RunTournamentBots(o);
  if (!result.ok()) {
    return Complain(kCommand, result.status(),
                    absl::IsInvalidArgument(result.status()) ? kUsageError : 1);
  }
  std::printf("%s\n", JsonText(result->report).c_str());
  if (result->failures.empty()) return 0;
  return Complain(kCommand, absl::StrJoin(result->failures, "; "), 1);
}

}  // namespace

void AddTournamentBotsCommand(CLI::App& banca, Action* action) {
  CLI::App* bots = banca.add_subcommand(
      "tournament-bots",
      "bots play a tournament against a running server, in two phases "
      "around a restart");
  bots->footer(
      "--phase=play creates, funds, registers and starts the tournament "
      "(each step idempotent) and plays until --hands hands (0: to the "
      "finish); --phase=finish plays on to the finish and checks the places, "
      "prizes and money. Exit 0 every check passed, 1 a check or call "
      "failed, 2 usage.");
  auto flags = std::make_shared<TournamentBotsFlags>();
  bench::TournamentBotsOptions& o = flags->options;
  bots->add_option("--target", o.target,
                   "the server, HOST:PORT (the wallet and the tournaments "
                   "unless given their own)");
  AddServiceTargetFlags(*bots, flags->services);
  AddClientTlsFlags(*bots, flags->tls);
  bots->add_option("--token-key-file", flags->token_key_file,
                   "the issuer's key (else BANCA_TOKEN_KEY)");
  bots->add_option("--tournament", o.tournament_id, "the tournament's id");
  bots->add_option("--phase", flags->phase, "play or finish")
      ->check(CLI::IsMember({"play", "finish"}));
  AddInt(*bots, "--hands", o.hands, "play: stop after this many hands", 0);
  AddInt(*bots, "--players", o.players, "players (9 or more)", 9, 1'000);
  AddInt(*bots, "--seats", o.seats_per_table, "seats per table", 2, 10);
  AddInt(*bots, "--hands-per-level", o.hands_per_level,
         "the operator moves the level every this many hands", 1);
  AddInt(*bots, "--action-seconds", o.action_seconds,
         "a decision's time at the tables", 1, 600);
  bots->add_option("--state-file", o.state_file,
                   "what the play phase saw, for the finish phase");
  AddInt(*bots, "--deadline-seconds", flags->deadline_seconds,
         "the phase fails if not done by then", 1, 86'400);
  AddInt(*bots, "--seed", o.seed, "the bots' random draws", 0);
  OnParsed(*bots, action, [flags] { return TournamentBots(*flags); });
}

}  // namespace banca::cli
