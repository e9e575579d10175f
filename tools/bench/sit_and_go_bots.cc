// The sit and go (game_bots.h): the tournament bots' tournament
// (tournament_bots_config.h) as a sit and go at one table (TN-2r: no
// rebuy, add-on or reentry; it starts once its seats are filled), each bot
// a player who registers (a payment saga through the wallet) and plays by
// the tournament bots' loose policy (tournament_bot_policy.h); the
// operator moves the blinds up every few hands so that it has a winner
// soon. A bot's money: its prize less the buy-in.
#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/status_macros.h"
#include "tools/bench/game_bots_env.h"
#include "tools/bench/tournament_bot_policy.h"
#include "tools/bench/tournament_bots_config.h"

namespace banca::bench {
namespace {

constexpr int kHandsPerLevel = 6;
constexpr int kActionSeconds = 10;
constexpr absl::Duration kMonitorPoll = absl::Milliseconds(20);

v1::TournamentConfig SitAndGoConfig(int players) {
  v1::TournamentConfig c =
      BotTournamentConfig(players, players, kActionSeconds);
  c.set_kind(v1::TOURNAMENT_KIND_SIT_AND_GO);
  c.clear_rebuy();
  c.clear_addon();
  c.clear_payouts_bps();
  if (players <= 3) {
    c.add_payouts_bps(10'000);
  } else if (players <= 5) {
    for (int32_t bps : {6'500, 3'500}) c.add_payouts_bps(bps);
  } else {
    for (int32_t bps : {5'000, 3'000, 2'000}) c.add_payouts_bps(bps);
  }
  return c;
}

class SitAndGo {
 public:
  explicit SitAndGo(GameBotsEnv& env)
      : env_(env), id_(env.Name("sng")), n_(env.options().sit_and_go_players) {}

  absl::StatusOr<GamePlay> Run();

 private:
  // `call(stub, context)` through the tournaments' route.
  template <typename Do>
  absl::Status Call(const std::string& token, const std::string& what,
                    Do&& call) {
    return FromGrpc(env_.tournaments().On<v1::TournamentService>(
                        token, id_, std::forward<Do>(call)),
                    absl::StrCat(what, " ", id_));
  }
  const std::string& Operator() const { return env_.office().operator_token; }
  absl::Status Describe(v1::TournamentInfo& info);
  void Monitor();
  BotOutcome Bot(int i);
  void Act(const std::string& token, const v1::TournamentTableView& view,
           uint32_t roll, GameTally& tally);

  GameBotsEnv& env_;
  const std::string id_;
  const int n_;
  std::atomic<bool> over_{false};       // the operator saw the end
  std::atomic<bool> bots_done_{false};  // every bot has stopped
  // The monitor's, read once it is done.
  v1::TournamentInfo last_;
  bool timed_out_ = false;
  absl::Status monitor_error_;
};

absl::Status SitAndGo::Describe(v1::TournamentInfo& info) {
  v1::GetTournamentRequest req;
  req.set_tournament_id(id_);
  return Call(Operator(), "DescribeTournament",
              [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
                return t.DescribeTournament(c, req, &info);
              });
}

// The operator: the blinds up every kHandsPerLevel hands, until a winner
// (or the deadline).
void SitAndGo::Monitor() {
  const absl::Time until = absl::Now() + env_.options().sit_and_go_deadline;
  while (!bots_done_) {
    v1::TournamentInfo info;
    if (absl::Status s = Describe(info); !s.ok()) {
      monitor_error_ = s;
      break;
    }
    last_ = info;
    if (info.phase() == v1::TOURNAMENT_PHASE_FINISHED ||
        info.phase() == v1::TOURNAMENT_PHASE_CANCELLED) {
      break;
    }
    if (absl::Now() > until) {
      timed_out_ = true;
      break;
    }
    if (info.phase() == v1::TOURNAMENT_PHASE_RUNNING &&
        info.level() < info.config().levels_size() &&
        info.hands_played() >= int64_t{info.level()} * kHandsPerLevel) {
      v1::OperatorTournamentRequest next;
      next.set_request_id(absl::StrCat("level-", id_, "-", info.level() + 1));
      next.set_tournament_id(id_);
      v1::TournamentInfo out;
      absl::Status s =
          Call(Operator(), "NextLevel",
               [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
                 return t.NextLevel(c, next, &out);
               });
      if (!s.ok() && !absl::IsFailedPrecondition(s)) {
        monitor_error_ = s;
        break;
      }
    }
    absl::SleepFor(kMonitorPoll);
  }
  over_ = true;
}

void SitAndGo::Act(const std::string& token,
                   const v1::TournamentTableView& view, uint32_t roll,
                   GameTally& tally) {
  v1::TournamentActRequest req;
  req.set_request_id(env_.RequestId("tact"));
  req.set_tournament_id(id_);
  req.set_table(view.table());
  req.set_hand_number(view.hand_number());
  req.set_action(DecideTournamentAction(view, BotMood::kLoose, roll).action);
  v1::TournamentTableView out;
  absl::Status s =
      Call(token, "Act",
           [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
             return t.Act(c, req, &out);
           });
  // FAILED_PRECONDITION: the turn passed meanwhile (a timeout).
  if (!s.ok() && !absl::IsFailedPrecondition(s)) NoteError(tally, "act", s);
  if (s.ok()) ++tally.counts["actions"];
}

BotOutcome SitAndGo::Bot(int i) {
  BotOutcome out;
  GameTally& tally = out.tally;
  tally.players = 1;
  absl::StatusOr<std::string> token =
      env_.NewPlayer(absl::StrCat("sng", i), out.account);
  absl::Status s = token.status();
  if (s.ok()) {
    v1::PlayerTournamentRequest reg;
    reg.set_request_id("register-" + out.account.player);
    reg.set_tournament_id(id_);
    v1::TournamentInfo info;
    s = Call(*token, "Register",
             [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
               return t.Register(c, reg, &info);
             });
  }
  if (!s.ok()) {
    NoteError(tally, "set-up", s);
    return out;
  }
  std::mt19937 rng(env_.Seed(out.account.player));
  v1::GetTournamentRequest get;
  get.set_tournament_id(id_);
  bool seated = false;
  while (!over_) {
    v1::TournamentTableView view;
    s = Call(*token, "GetMyTable",
             [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
               return t.GetMyTable(c, get, &view);
             });
    if (!s.ok()) {
      NoteError(tally, "view", s);
      break;
    }
    if (view.table().empty()) {
      if (seated) break;  // out
      absl::SleepFor(kGameBotPoll);
      continue;
    }
    seated = true;
    if (view.away()) {  // sat out for a timeout (TN-43): back at once
      v1::SetAwayRequest back;
      back.set_request_id(env_.RequestId("back"));
      back.set_tournament_id(id_);
      back.set_away(false);
      v1::TournamentTableView after;
      s = Call(*token, "SetAway",
               [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
                 return t.SetAway(c, back, &after);
               });
      if (!s.ok()) NoteError(tally, "back", s);
      continue;
    } else if (view.legal().actions_size() > 0) {
      Act(*token, view, rng() % 100, tally);
      continue;
    }
    absl::SleepFor(kGameBotPoll);
  }
  return out;
}

absl::StatusOr<GamePlay> SitAndGo::Run() {
  v1::CreateTournamentRequest create;
  create.set_request_id("create-" + id_);
  create.set_tournament_id(id_);
  create.set_name("bots' sit and go");
  *create.mutable_config() = SitAndGoConfig(n_);
  v1::TournamentInfo info;
  RETURN_IF_ERROR(
      Call(Operator(), "CreateTournament",
           [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
             return t.CreateTournament(c, create, &info);
           }));
  std::thread monitor([this] { Monitor(); });
  GamePlay play =
      env_.RunBots("sit_and_go", n_, [this](int i) { return Bot(i); });
  bots_done_ = true;
  monitor.join();
  RETURN_IF_ERROR(Describe(last_));
  GameTally& t = play.tally;
  if (!monitor_error_.ok()) NoteError(t, "operator", monitor_error_);
  if (timed_out_ || last_.phase() != v1::TOURNAMENT_PHASE_FINISHED) {
    NoteError(t, "finish",
              absl::DeadlineExceededError(absl::StrCat(
                  "no winner after ",
                  absl::FormatDuration(env_.options().sit_and_go_deadline))));
  }
  v1::TournamentStandings standings;
  v1::GetTournamentRequest get;
  get.set_tournament_id(id_);
  RETURN_IF_ERROR(
      Call(Operator(), "GetStandings",
           [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
             return t.GetStandings(c, get, &standings);
           }));
  for (BotAccount& a : play.accounts) {
    a.net_minor = -kBotPriceMinor;
    for (const v1::TournamentStanding& s : standings.standings()) {
      if (s.player_id() == a.player) a.net_minor += s.prize_minor();
    }
    t.won_minor += a.net_minor + kBotPriceMinor;
  }
  t.rounds = last_.hands_played();
  t.staked_minor = kBotPriceMinor * static_cast<int64_t>(play.accounts.size());
  t.house_minor = t.staked_minor - last_.prize_pool_minor();
  t.counts["levels"] = last_.level();
  return play;
}

}  // namespace

absl::StatusOr<GamePlay> PlaySitAndGo(GameBotsEnv& env) {
  return SitAndGo(env).Run();
}

}  // namespace banca::bench
