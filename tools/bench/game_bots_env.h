// What the game bots (game_bots.h) share: the connection, the back
// office's tokens, the players they fund, the clock of the run, and how
// each game's bots are run and their tallies summed. One file per game
// plays it: poker_cash_bots.cc, banked_bots.cc (roulette, blackjack,
// póquer sem descarte), sit_and_go_bots.cc.
#ifndef BANCA_TOOLS_BENCH_GAME_BOTS_ENV_H_
#define BANCA_TOOLS_BENCH_GAME_BOTS_ENV_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "banca/v1/banked_table.grpc.pb.h"
#include "banca/v1/table.grpc.pb.h"
#include "banca/v1/tournament.grpc.pb.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "tools/bench/bot_calls.h"
#include "tools/bench/game_bots.h"
#include "tools/bench/service_route.h"

namespace banca::bench {

// Each bot's cash, deposited once.
inline constexpr int64_t kGameBotDepositMinor = 100'000;
// How often a bot waiting for its turn looks again.
inline constexpr absl::Duration kGameBotPoll = absl::Milliseconds(5);

// A bot's money as the game services told it: its deposit and the net of
// its sessions (won - staked; the sit and go: prize - buy-in).
struct BotAccount {
  std::string player;
  int64_t deposit_minor = 0;
  int64_t net_minor = 0;
};

// One bot's part of its game.
struct BotOutcome {
  GameTally tally;
  BotAccount account;
};

// One game's outcome: the bots' tallies summed, and their accounts.
struct GamePlay {
  GameTally tally;
  std::vector<BotAccount> accounts;
};

// Counts an unexpected error in `tally` (the first one kept in words).
void NoteError(GameTally& tally, const std::string& what,
               const absl::Status& status);
// Adds `from`'s figures to `into`'s (players, rounds, money, counts,
// errors).
void AddTally(GameTally& into, const GameTally& from);

class GameBotsEnv {
 public:
  static absl::StatusOr<std::unique_ptr<GameBotsEnv>> Connect(
      const GameBotsOptions& options);

  const GameBotsOptions& options() const { return o_; }
  const BackOffice& office() const { return office_; }
  // Each service's route (service_route.h); the poker and the banked
  // tables are served by the same table processes.
  ServiceRoute& wallet() { return *wallet_; }
  ServiceRoute& tables() { return *tables_; }
  ServiceRoute& tournaments() { return *tournaments_; }
  ServiceRoute& reporting() { return *reporting_; }
  // The routes' figures, by service.
  std::map<std::string, RouteStats> RouteStatsByService() const;

  // "<run>-<name>": a table's, a tournament's or a player's id.
  std::string Name(const std::string& name) const;
  // Opens and funds player Name(name) with kGameBotDepositMinor; its
  // token. `account` gets the player and the deposit.
  absl::StatusOr<std::string> NewPlayer(const std::string& name,
                                        BotAccount& account);
  // A request id no other call of the run has.
  std::string RequestId(const std::string& what);
  // The bots start no new round from then on.
  bool Playing() const { return absl::Now() < end_; }
  // A seed of its own for each bot.
  uint32_t Seed(const std::string& who) const;

  // Runs `bot(i)` for i in 0..n-1, each on a thread of its own, and sums
  // their outcomes as `game`.
  GamePlay RunBots(const std::string& game, int n,
                   const std::function<BotOutcome(int)>& bot);

 private:
  explicit GameBotsEnv(const GameBotsOptions& o) : o_(o) {}

  const GameBotsOptions& o_;
  BackOffice office_;
  absl::Time end_;
  std::atomic<int64_t> requests_{0};
  std::unique_ptr<ServiceRoute> wallet_, tables_, tournaments_, reporting_;
};

// The games (one file each).
absl::StatusOr<GamePlay> PlayCashPoker(GameBotsEnv& env);
absl::StatusOr<GamePlay> PlayRoulette(GameBotsEnv& env, bool american);
absl::StatusOr<GamePlay> PlayBlackjack(GameBotsEnv& env);
absl::StatusOr<GamePlay> PlayStudNoDraw(GameBotsEnv& env);
absl::StatusOr<GamePlay> PlaySitAndGo(GameBotsEnv& env);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_GAME_BOTS_ENV_H_
