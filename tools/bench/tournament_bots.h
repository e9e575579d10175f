// Bots playing a multi-table tournament over gRPC against a running
// `banca serve --services=wallet,table,tournament`: `banca tournament-bots`,
// which tools/run-tournament-e2e runs twice around a SIGKILL of the server
// (issue 19's end-to-end test).
//
// The operator creates the tournament (tournament_bots_config.h: rebuys,
// an add-on, 8 paid places so that the bubble is played at two tables),
// funds the players through the wallet's Deposit, registers them (each
// a payment saga) and starts it; then every bot reads its own table
// (GetMyTable) and acts on its turn (tournament_bot_policy.h), rebuys
// when short while rebuys are open, takes the add-on in its level, and
// comes back when the service sat it out for a timeout (TN-43). One bot
// is disconnected: it goes away (SetAway) and never acts, so the tables
// blind it off (TN-26/27). The operator moves the blind level every
// `hands_per_level` hands. Every call carries the caller's own signed
// token; every mutating call a request id, so a step repeated after a
// crash appends nothing.
//
// Two phases, for a restart in the middle: kPlay sets up (each step
// idempotent) and plays until `hands` hands; kFinish plays on to the
// finish, then checks the result (tournament_bots_checks.h). What the
// bots saw in the first phase (payments, eliminations, hand-for-hand)
// passes to the second through `state_file`.
#ifndef BANCA_TOOLS_BENCH_TOURNAMENT_BOTS_H_
#define BANCA_TOOLS_BENCH_TOURNAMENT_BOTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpcpp/security/credentials.h"
#include "libs/auth/token.h"
#include "nlohmann/json.hpp"
#include "tools/bench/service_route.h"

namespace banca::bench {

enum class TournamentBotsPhase { kPlay, kFinish };

struct TournamentBotsOptions {
  // Every service's address, unless its own are listed in `services`
  // (the bots call them through service_route.h's routes).
  std::string target = "127.0.0.1:7070";
  ServiceTargets services;
  // The transport (services/common/transport_security.h); null: plaintext.
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  // The issuer's key: the operator's, the payment service's and each
  // bot's tokens are signed with it.
  auth::SigningKey key;
  std::string tournament_id = "e2e";
  TournamentBotsPhase phase = TournamentBotsPhase::kPlay;
  // kPlay: stop once this many hands have been played at all the tables
  // (0: play to the finish and check, as kFinish does).
  int64_t hands = 0;
  int players = 30;         // 8 paid places: at least 9
  int seats_per_table = 8;  // 2..10
  int hands_per_level = 20;
  int action_seconds = 2;
  // What the bots saw, from kPlay to kFinish; empty: kept nowhere.
  std::string state_file;
  // The phase fails if it has not ended by then.
  absl::Duration deadline = absl::Seconds(100);
  int64_t seed = 1;
};

struct TournamentBotsResult {
  // The phase's one JSON object (tournament_bots.cc lists its keys).
  nlohmann::ordered_json report;
  // Each check that failed, in words; empty when the phase passed.
  std::vector<std::string> failures;
};

// Runs one phase. An error for what stops the phase before its checks
// (the server unreachable, a setup call refused, the state file
// unreadable); failed checks are in the result.
absl::StatusOr<TournamentBotsResult> RunTournamentBots(
    const TournamentBotsOptions& options);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_TOURNAMENT_BOTS_H_
