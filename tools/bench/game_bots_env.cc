#include "tools/bench/game_bots_env.h"

#include <functional>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/status_macros.h"
#include "services/common/authorized_channel.h"

namespace banca::bench {

void NoteError(GameTally& tally, const std::string& what,
               const absl::Status& status) {
  ++tally.errors;
  if (tally.first_error.empty()) {
    tally.first_error = absl::StrCat(what, ": ", status.ToString());
  }
}

void AddTally(GameTally& into, const GameTally& from) {
  into.players += from.players;
  into.rounds += from.rounds;
  into.staked_minor += from.staked_minor;
  into.won_minor += from.won_minor;
  into.house_minor += from.house_minor;
  for (const auto& [name, n] : from.counts) into.counts[name] += n;
  into.errors += from.errors;
  if (into.first_error.empty()) into.first_error = from.first_error;
}

absl::StatusOr<std::unique_ptr<GameBotsEnv>> GameBotsEnv::Connect(
    const GameBotsOptions& o) {
  std::unique_ptr<GameBotsEnv> env(new GameBotsEnv(o));
  ASSIGN_OR_RETURN(env->office_.operator_token,
                   edge::DayToken(o.key, auth::Role::kOperator, "game-bots"));
  ASSIGN_OR_RETURN(env->office_.payments_token,
                   edge::DayToken(o.key, auth::Role::kService, "payments"));
  auto route = [&](const std::vector<std::string>& members) {
    return std::make_unique<ServiceRoute>(MembersOr(members, o.target),
                                          o.credentials, o.route);
  };
  env->wallet_ = route(o.services.wallet);
  env->tables_ = route(o.services.table);
  env->tournaments_ = route(o.services.tournament);
  env->reporting_ = route(o.services.reporting);
  env->end_ = absl::Now() + o.play_for;
  return env;
}

std::map<std::string, RouteStats> GameBotsEnv::RouteStatsByService() const {
  return {{"wallet", wallet_->stats()},
          {"table", tables_->stats()},
          {"tournament", tournaments_->stats()},
          {"reporting", reporting_->stats()}};
}

std::string GameBotsEnv::Name(const std::string& name) const {
  return absl::StrCat(o_.run_id, "-", name);
}

absl::StatusOr<std::string> GameBotsEnv::NewPlayer(const std::string& name,
                                                   BotAccount& account) {
  account.player = Name(name);
  RETURN_IF_ERROR(FundPlayer(*wallet_, office_, account.player,
                             kGameBotDepositMinor, "bots-" + account.player));
  account.deposit_minor = kGameBotDepositMinor;
  return edge::DayToken(o_.key, auth::Role::kPlayer, account.player);
}

std::string GameBotsEnv::RequestId(const std::string& what) {
  return absl::StrCat(o_.run_id, "-", what, "-", ++requests_);
}

uint32_t GameBotsEnv::Seed(const std::string& who) const {
  return static_cast<uint32_t>(std::hash<std::string>{}(who) ^
                               static_cast<uint64_t>(o_.seed));
}

GamePlay GameBotsEnv::RunBots(const std::string& game, int n,
                              const std::function<BotOutcome(int)>& bot) {
  std::vector<BotOutcome> outcomes(n);
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] { outcomes[i] = bot(i); });
  }
  for (std::thread& t : threads) t.join();
  GamePlay play;
  play.tally.game = game;
  for (const BotOutcome& o : outcomes) {
    AddTally(play.tally, o.tally);
    if (!o.account.player.empty()) play.accounts.push_back(o.account);
  }
  return play;
}

}  // namespace banca::bench
