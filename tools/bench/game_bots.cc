#include "tools/bench/game_bots.h"

#include <functional>
#include <memory>
#include <thread>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/status_macros.h"
#include "tools/bench/game_bots_env.h"
#include "tools/bench/reporting_checks.h"

namespace banca::bench {
namespace {

constexpr size_t kMaxRunIdLength = 12;
constexpr int kMaxSitAndGoPlayers = 9;
// How long the wallet may take to post what the games decided.
constexpr absl::Duration kSettleWait = absl::Seconds(30);

absl::Status CheckOptions(const GameBotsOptions& o) {
  bool id_ok = !o.run_id.empty() && o.run_id.size() <= kMaxRunIdLength;
  for (char c : o.run_id) {
    id_ok &= absl::ascii_islower(c) || absl::ascii_isdigit(c);
  }
  if (!id_ok) {
    return absl::InvalidArgumentError(
        absl::StrCat("run id: 1..", kMaxRunIdLength, " of [a-z0-9], not \"",
                     o.run_id, "\""));
  }
  if (o.players < 2 || o.players > kMaxGameBotsPlayers) {
    return absl::InvalidArgumentError(
        absl::StrCat("players: 2..", kMaxGameBotsPlayers, ", not ", o.players));
  }
  if (o.sit_and_go && (o.sit_and_go_players < 2 ||
                       o.sit_and_go_players > kMaxSitAndGoPlayers)) {
    return absl::InvalidArgumentError(
        absl::StrCat("sit and go players: 2..", kMaxSitAndGoPlayers, ", not ",
                     o.sit_and_go_players));
  }
  if (o.play_for <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("the run must last some time");
  }
  return CheckServiceTargets(o.services);
}

// Every game at once, each on a thread of its own.
absl::StatusOr<std::vector<GamePlay>> PlayAll(GameBotsEnv& env) {
  std::vector<std::function<absl::StatusOr<GamePlay>()>> games = {
      [&] { return PlayCashPoker(env); },
      [&] { return PlayRoulette(env, /*american=*/false); },
      [&] { return PlayRoulette(env, /*american=*/true); },
      [&] { return PlayBlackjack(env); },
      [&] { return PlayStudNoDraw(env); },
  };
  if (env.options().sit_and_go) {
    games.push_back([&] { return PlaySitAndGo(env); });
  }
  std::vector<absl::StatusOr<GamePlay>> played(games.size(),
                                               absl::UnknownError("not run"));
  std::vector<std::thread> threads;
  for (size_t i = 0; i < games.size(); ++i) {
    threads.emplace_back([&, i] { played[i] = games[i](); });
  }
  for (std::thread& t : threads) t.join();
  std::vector<GamePlay> out;
  for (absl::StatusOr<GamePlay>& p : played) {
    if (!p.ok()) return p.status();
    out.push_back(*std::move(p));
  }
  return out;
}

// Each bot's balance against its deposit and its sessions' net, once the
// wallet has posted everything (tried until kSettleWait).
absl::Status CheckMoney(GameBotsEnv& env, const std::vector<GamePlay>& plays,
                        GameBotsResult& result) {
  const absl::Time until = absl::Now() + kSettleWait;
  std::vector<std::string> wrong;
  do {
    wrong.clear();
    for (const GamePlay& play : plays) {
      for (const BotAccount& a : play.accounts) {
        ASSIGN_OR_RETURN(int64_t balance,
                         TotalBalance(env.wallet(), env.office(), a.player));
        const int64_t expected = a.deposit_minor + a.net_minor;
        if (balance != expected) {
          wrong.push_back(absl::StrCat(play.tally.game, ": ", a.player,
                                       " holds ", balance, ", not its deposit ",
                                       a.deposit_minor, " and its net ",
                                       a.net_minor, " (", expected, ")"));
        }
      }
    }
    if (!wrong.empty()) absl::SleepFor(absl::Milliseconds(100));
  } while (!wrong.empty() && absl::Now() < until);
  result.failures.insert(result.failures.end(), wrong.begin(), wrong.end());
  ASSIGN_OR_RETURN(v1::LedgerSummaryResponse summary,
                   LedgerSummary(env.wallet(), env.office()));
  result.ledger_sum_minor = summary.ledger_sum_minor();
  if (result.ledger_sum_minor != 0) {
    result.failures.push_back(
        absl::StrCat("the ledger sums to ", result.ledger_sum_minor));
  }
  return absl::OkStatus();
}

}  // namespace

nlohmann::ordered_json GameTallyJson(const GameTally& t) {
  nlohmann::ordered_json j = {
      {"game", t.game},           {"players", t.players},
      {"rounds", t.rounds},       {"staked_minor", t.staked_minor},
      {"won_minor", t.won_minor}, {"house_minor", t.house_minor}};
  for (const auto& [name, n] : t.counts) j[name] = n;
  j["errors"] = t.errors;
  if (!t.first_error.empty()) j["first_error"] = t.first_error;
  return j;
}

absl::StatusOr<GameBotsResult> RunGameBots(const GameBotsOptions& options) {
  RETURN_IF_ERROR(CheckOptions(options));
  ASSIGN_OR_RETURN(std::unique_ptr<GameBotsEnv> env,
                   GameBotsEnv::Connect(options));
  ASSIGN_OR_RETURN(std::vector<GamePlay> plays, PlayAll(*env));
  GameBotsResult result;
  for (const GamePlay& p : plays) {
    result.games.push_back(p.tally);
    if (p.tally.errors > 0) {
      result.failures.push_back(
          absl::StrCat(p.tally.game, ": ", p.tally.errors,
                       " calls failed, first: ", p.tally.first_error));
    }
    if (p.tally.rounds == 0) {
      result.failures.push_back(p.tally.game + ": no round was played");
    }
  }
  RETURN_IF_ERROR(CheckMoney(*env, plays, result));
  if (options.check_reporting) {
    // The reporting process follows the log: a moment behind the wallet
    // (a whole replay behind after a restart), so the checks are tried
    // again until they pass or kSettleWait.
    ReportingTally tally;
    std::vector<std::string> failures;
    const absl::Time until = absl::Now() + kSettleWait;
    do {
      if (!failures.empty()) absl::SleepFor(absl::Milliseconds(500));
      failures.clear();
      tally = ReportingTally();
      RETURN_IF_ERROR(CheckReporting(*env, plays, tally, failures));
    } while (!failures.empty() && absl::Now() < until);
    result.failures.insert(result.failures.end(), failures.begin(),
                           failures.end());
    result.reporting = {{"histories", tally.histories},
                        {"statement_lines", tally.statement_lines},
                        {"sessions", tally.sessions},
                        {"close_date", tally.close_date},
                        {"close_events", tally.close_events},
                        {"close_sha256", tally.close_sha256}};
  }
  result.routes = env->RouteStatsByService();
  return result;
}

}  // namespace banca::bench
