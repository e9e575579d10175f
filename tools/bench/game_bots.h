// Bots playing every game of the house over gRPC against a running
// `banca serve --services=wallet,table,tournament`: `banca demo games`,
// which tools/run-demo runs beside the wallet workload.
//
// For a while (`play_for`), all at once: cash No-Limit Hold'em (the bots
// at one table: they sit with a buy-in from the wallet, act with a simple
// legal policy, rebuy when short, leave and cash out), French and American
// roulette (each bot at its own wheel, launched by the player: a few
// legal bets, then the spin), blackjack (each bot at its own table: a
// bet, then hits, stands, doubles and splits as a simple strategy says)
// and póquer sem descarte (each bot at its own table: the ante, then bet
// or fold); and, when `sit_and_go`, one sit and go played to its winner
// by the tournament bots' policy. Every bot is a player of its own,
// funded through the wallet's Deposit, with its own signed token.
//
// Then the money is checked: each bot's balance in the wallet is its
// deposit plus the net of its sessions as the game services told it
// (what their Leave answered; the sit and go: its prize less the
// buy-in), and the ledger sums to zero.
#ifndef BANCA_TOOLS_BENCH_GAME_BOTS_H_
#define BANCA_TOOLS_BENCH_GAME_BOTS_H_

#include <cstdint>
#include <map>
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

inline constexpr int kMaxGameBotsPlayers = 6;

struct GameBotsOptions {
  // Every service's address, unless its own are listed below.
  std::string target = "127.0.0.1:7070";
  // Each service's processes, when not `target` (service_route.h).
  ServiceTargets services;
  RouteLimits route;
  // The transport (services/common/transport_security.h); null: plaintext.
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  // The issuer's key: the operator's, the payment service's and each
  // bot's tokens are signed with it.
  auth::SigningKey key;
  // Names this run's tables, players, tournament and requests: 1..12 of
  // [a-z0-9] (a new one for a server that keeps its data).
  std::string run_id = "games";
  absl::Duration play_for = absl::Seconds(20);
  // Bots per game: 2..kMaxGameBotsPlayers (the Hold'em table's seats).
  int players = 3;
  bool sit_and_go = true;
  int sit_and_go_players = 6;  // 2..9, at one table
  // The sit and go fails unless it has a winner by then.
  absl::Duration sit_and_go_deadline = absl::Seconds(150);
  int64_t seed = 1;
  // Then the reporting service's histories, statements, sessions and
  // daily close are checked against the bots' play and the wallet
  // (reporting_checks.h): the server must serve `reporting` too.
  bool check_reporting = false;
};

// What one game's bots did, from the services' own answers.
struct GameTally {
  // poker_cash, roulette_french, roulette_american, blackjack,
  // stud_no_draw, sit_and_go.
  std::string game;
  int players = 0;
  // Hands (poker, the sit and go), spins, rounds.
  int64_t rounds = 0;
  // What the bots staked (poker: put in the pots; the sit and go: the
  // buy-ins) and got back (poker: took from the pots; banked games: stakes
  // back and winnings; the sit and go: the prizes), cents.
  int64_t staked_minor = 0;
  int64_t won_minor = 0;
  // Poker: the rake (staked - won); the sit and go: the fees.
  int64_t house_minor = 0;
  // Decisions worth counting (e.g. blackjack's doubles and splits).
  std::map<std::string, int64_t> counts;
  // Calls the bots did not expect to fail, and the first of them.
  int64_t errors = 0;
  std::string first_error;
};

struct GameBotsResult {
  std::vector<GameTally> games;
  int64_t ledger_sum_minor = 0;
  // With check_reporting: what the reporting service answered.
  nlohmann::ordered_json reporting;
  // Each check that failed, in words; empty when the run passed.
  std::vector<std::string> failures;
  // What each service's route did ("wallet", "table", "tournament",
  // "reporting").
  std::map<std::string, RouteStats> routes;
};

// The tally as one JSON object (the game's line of `banca demo games`).
nlohmann::ordered_json GameTallyJson(const GameTally& tally);

// Plays, then checks. An error for what stops the run before its checks
// (bad options, the server unreachable, a set-up call refused); failed
// checks and unexpected call errors are in the result.
absl::StatusOr<GameBotsResult> RunGameBots(const GameBotsOptions& options);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_GAME_BOTS_H_
