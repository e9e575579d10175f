#include "tools/bench/tournament_bots.h"

#include <atomic>
#include <fstream>
#include <memory>
#include <random>
#include <thread>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "banca/v1/tournament.grpc.pb.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "libs/common/status_macros.h"
#include "services/common/authorized_channel.h"
#include "services/common/transport_security.h"
#include "tools/bench/bot_calls.h"
#include "tools/bench/tournament_bot_policy.h"
#include "tools/bench/tournament_bots_checks.h"
#include "tools/bench/tournament_bots_config.h"

namespace banca::bench {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kMaxPlayers = 1'000;
constexpr int kChannels = 4;
constexpr int64_t kDepositMinor = 10'000;  // each bot's cash
constexpr absl::Duration kPoll = absl::Milliseconds(3);
// How long the wallet may take to post what the finish decided.
constexpr absl::Duration kSettleWait = absl::Seconds(20);

struct Bot {
  int index = 0;
  std::string player;
  std::string token;
  std::mt19937 rng;
  std::string table;  // where it was last seen seated
  bool seated = false;
  std::string last_table;  // the last hand it was seen dealt in
  int64_t last_hand = 0;
  // Payments are made on a thread of their own (a rebuy made between
  // hands may wait for the next one to end, in which the bot must act).
  std::thread payer;
  std::atomic<bool> paying{false};
  // Written by the payer, read by the bot once it is done.
  int rebuys = 0;
  int addons = 0;
  bool buying_done = false;  // no more rebuys or add-on for it
  std::atomic<int64_t> calls{0};
};

bool DealtIn(const v1::TournamentTableView& view, const std::string& player) {
  for (const v1::SeatState& s : view.seats()) {
    if (s.player_id() == player) return s.in_hand();
  }
  return false;
}

int64_t StackOf(const v1::TournamentTableView& view,
                const std::string& player) {
  for (const v1::SeatState& s : view.seats()) {
    if (s.player_id() == player) return s.stack_minor();
  }
  return 0;
}

class BotsRun {
 public:
  explicit BotsRun(const TournamentBotsOptions& o) : o_(o) {}

  absl::Status Init();
  absl::Status SetUp();
  void Play();
  absl::StatusOr<TournamentBotsResult> Conclude();

 private:
  // The routes (service_route.h), kChannels of each: a connection each.
  ServiceRoute& T(int i) { return *tournaments_[i % kChannels]; }
  ServiceRoute& W(int i) { return *wallets_[i % kChannels]; }
  std::string NextId(Bot& b, const std::string& what) {
    return absl::StrCat(run_, "-", b.index, "-", what, "-", ++b.calls);
  }
  absl::Status Fund(Bot& b);
  absl::Status Describe(v1::TournamentInfo* info);
  absl::Status Standings(v1::TournamentStandings* standings);
  void NoteError(const std::string& what, const grpc::Status& s);

  void Monitor();
  void BotLoop(Bot& b);
  void See(Bot& b, const v1::TournamentTableView& view);
  void ComeBack(Bot& b);
  void Act(Bot& b, const v1::TournamentTableView& view);
  void BuyChips(Bot& b, const v1::TournamentTableView& view);
  void Pay(Bot& b, bool rebuy);
  void Out(Bot& b);

  absl::StatusOr<MoneyFacts> SettledMoney();
  // The first phase's end: the record kept for the second.
  absl::Status Paused(TournamentBotsResult& result)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The finish: the checks, and what the run went through.
  absl::Status Finished(TournamentBotsResult& result)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  Json PlaysJson(const v1::TournamentInfo& info) const;
  Json SeenJson(const RunVerdict& v) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  Json PrizesJson(const v1::TournamentInfo& info,
                  const v1::TournamentStandings& standings,
                  const MoneyFacts& money) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const TournamentBotsOptions& o_;
  std::string run_;  // this process's request ids
  absl::Time start_;
  std::string operator_token_;
  BackOffice office_;
  std::vector<std::unique_ptr<ServiceRoute>> tournaments_, wallets_;
  std::vector<std::unique_ptr<Bot>> bots_;

  std::atomic<bool> stop_{false};
  std::atomic<int> payments_{0};  // on their way
  std::atomic<int> players_left_{0};
  bool timed_out_ = false;   // the monitor's
  v1::TournamentInfo last_;  // the monitor's, read once it is done

  absl::Mutex mu_;
  BotsRecord record_ ABSL_GUARDED_BY(mu_);
};

absl::Status BotsRun::Init() {
  if (o_.players < kBotPaidPlaces + 1 || o_.players > kMaxPlayers) {
    return absl::InvalidArgumentError(
        absl::StrCat("players: ", kBotPaidPlaces + 1, "..", kMaxPlayers,
                     ", not ", o_.players));
  }
  if (o_.phase == TournamentBotsPhase::kFinish && o_.state_file.empty()) {
    return absl::InvalidArgumentError(
        "the finish phase reads what the play phase saw: a state file");
  }
  RETURN_IF_ERROR(CheckServiceTargets(o_.services));
  start_ = absl::Now();
  run_ = absl::StrCat(o_.phase == TournamentBotsPhase::kPlay ? "p" : "f",
                      absl::ToUnixMicros(start_));
  ASSIGN_OR_RETURN(operator_token_,
                   edge::DayToken(o_.key, auth::Role::kOperator, "bots"));
  ASSIGN_OR_RETURN(office_.payments_token,
                   edge::DayToken(o_.key, auth::Role::kService, "payments"));
  office_.operator_token = operator_token_;
  for (int i = 0; i < kChannels; ++i) {
    tournaments_.push_back(std::make_unique<ServiceRoute>(
        MembersOr(o_.services.tournament, o_.target), o_.credentials,
        RouteLimits(), /*connection=*/i));
    wallets_.push_back(std::make_unique<ServiceRoute>(
        MembersOr(o_.services.wallet, o_.target), o_.credentials, RouteLimits(),
        /*connection=*/i));
  }
  absl::MutexLock lock(&mu_);
  if (o_.phase == TournamentBotsPhase::kFinish) {
    std::ifstream in(o_.state_file);
    Json json = Json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!in || json.is_discarded()) {
      return absl::NotFoundError(
          absl::StrCat("no bots' state in ", o_.state_file));
    }
    ASSIGN_OR_RETURN(record_, RecordFromJson(json));
  }
  for (int i = 0; i < o_.players; ++i) {
    auto b = std::make_unique<Bot>();
    b->index = i;
    b->player = absl::StrFormat("%s-b%02d", o_.tournament_id, i);
    ASSIGN_OR_RETURN(b->token,
                     edge::DayToken(o_.key, auth::Role::kPlayer, b->player));
    b->rng.seed(static_cast<uint32_t>(o_.seed * 1'000 + i) ^
                static_cast<uint32_t>(absl::ToUnixMicros(start_)));
    b->rebuys = record_.rebuys[b->player];
    b->addons = record_.addons[b->player];
    bots_.push_back(std::move(b));
  }
  record_.away_player = bots_[0]->player;
  return absl::OkStatus();
}

// --- Setting up: each step idempotent --------------------------------------

absl::Status BotsRun::Fund(Bot& b) {
  RETURN_IF_ERROR(FundPlayer(W(b.index), office_, b.player, kDepositMinor,
                             "bots-" + b.player));
  v1::PlayerTournamentRequest reg;
  reg.set_request_id(absl::StrCat("register-", b.player));
  reg.set_tournament_id(o_.tournament_id);
  v1::TournamentInfo info;
  return FromGrpc(
      T(b.index).On<v1::TournamentService>(
          b.token, o_.tournament_id,
          [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
            return t.Register(c, reg, &info);
          }),
      "Register " + b.player);
}

absl::Status BotsRun::SetUp() {
  v1::CreateTournamentRequest create;
  create.set_request_id("create-" + o_.tournament_id);
  create.set_tournament_id(o_.tournament_id);
  create.set_name("bots " + o_.tournament_id);
  *create.mutable_config() =
      BotTournamentConfig(o_.players, o_.seats_per_table, o_.action_seconds);
  v1::TournamentInfo info;
  RETURN_IF_ERROR(
      FromGrpc(T(0).On<v1::TournamentService>(
                   operator_token_, o_.tournament_id,
                   [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
                     return t.CreateTournament(c, create, &info);
                   }),
               "CreateTournament"));
  std::vector<absl::Status> funded(bots_.size());
  std::vector<std::thread> threads;
  for (std::unique_ptr<Bot>& b : bots_) {
    threads.emplace_back([&] { funded[b->index] = Fund(*b); });
  }
  for (std::thread& t : threads) t.join();
  for (const absl::Status& s : funded) RETURN_IF_ERROR(s);
  v1::OperatorTournamentRequest start;
  start.set_request_id("start-" + o_.tournament_id);
  start.set_tournament_id(o_.tournament_id);
  RETURN_IF_ERROR(
      FromGrpc(T(0).On<v1::TournamentService>(
                   operator_token_, o_.tournament_id,
                   [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
                     return t.StartTournament(c, start, &info);
                   }),
               "StartTournament"));
  {
    absl::MutexLock lock(&mu_);
    record_.tables_at_start = info.tables();
  }
  // The disconnected player: away from the start, and never back.
  v1::SetAwayRequest away;
  away.set_request_id("away-" + bots_[0]->player);
  away.set_tournament_id(o_.tournament_id);
  away.set_away(true);
  v1::TournamentTableView view;
  return FromGrpc(
      T(0).On<v1::TournamentService>(
          bots_[0]->token, o_.tournament_id,
          [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
            return t.SetAway(c, away, &view);
          }),
      "SetAway");
}

absl::Status BotsRun::Describe(v1::TournamentInfo* info) {
  v1::GetTournamentRequest req;
  req.set_tournament_id(o_.tournament_id);
  return FromGrpc(
      T(0).On<v1::TournamentService>(
          operator_token_, o_.tournament_id,
          [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
            return t.DescribeTournament(c, req, info);
          }),
      "DescribeTournament");
}

absl::Status BotsRun::Standings(v1::TournamentStandings* standings) {
  v1::GetTournamentRequest req;
  req.set_tournament_id(o_.tournament_id);
  return FromGrpc(
      T(0).On<v1::TournamentService>(
          operator_token_, o_.tournament_id,
          [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
            return t.GetStandings(c, req, standings);
          }),
      "GetStandings");
}

void BotsRun::NoteError(const std::string& what, const grpc::Status& s) {
  absl::MutexLock lock(&mu_);
  ++record_.errors;
  if (record_.first_error.empty()) {
    record_.first_error = absl::StrCat(
        what, ": ", static_cast<int>(s.error_code()), " ", s.error_message());
  }
}

// --- Playing ----------------------------------------------------------------

void BotsRun::Play() {
  v1::TournamentStandings standings;
  std::set<std::string> placed;
  if (Standings(&standings).ok()) {
    for (const v1::TournamentStanding& s : standings.standings()) {
      if (s.place() > 0) placed.insert(s.player_id());
    }
  }
  if (Describe(&last_).ok()) {
    players_left_ = last_.players_left();
    absl::MutexLock lock(&mu_);
    if (o_.phase == TournamentBotsPhase::kFinish) {
      record_.hands_at_resume = last_.hands_played();
    }
  }
  std::vector<std::thread> threads;
  // Bot 0 is the disconnected one: it never acts.
  for (size_t i = 1; i < bots_.size(); ++i) {
    Bot* b = bots_[i].get();
    if (placed.contains(b->player)) continue;
    threads.emplace_back([this, b] {
      BotLoop(*b);
      if (b->payer.joinable()) b->payer.join();
    });
  }
  Monitor();
  for (std::thread& t : threads) t.join();
}

// The operator: moves the level every hands_per_level hands, watches for
// hand-for-hand, and ends the phase.
void BotsRun::Monitor() {
  const absl::Time end = start_ + o_.deadline;
  while (!stop_) {
    v1::TournamentInfo info;
    if (absl::Status s = Describe(&info); !s.ok()) {
      NoteError("DescribeTournament", grpc::Status(grpc::StatusCode::UNKNOWN,
                                                   std::string(s.message())));
      absl::SleepFor(kPoll);
      continue;
    }
    last_ = info;
    players_left_ = info.players_left();
    if (info.hand_for_hand()) {
      absl::MutexLock lock(&mu_);
      record_.hand_for_hand_seen = true;
      if (record_.hand_for_hand_from < 0) {
        record_.hand_for_hand_from = info.hands_played();
      }
      record_.hand_for_hand_to = info.hands_played();
    }
    if (info.phase() != v1::TOURNAMENT_PHASE_RUNNING) break;
    if (o_.phase == TournamentBotsPhase::kPlay && o_.hands > 0 &&
        info.hands_played() >= o_.hands) {
      break;
    }
    if (info.level() < info.config().levels_size() &&
        info.hands_played() >= int64_t{info.level()} * o_.hands_per_level) {
      v1::OperatorTournamentRequest next;
      next.set_request_id(
          absl::StrCat("level-", o_.tournament_id, "-", info.level() + 1));
      next.set_tournament_id(o_.tournament_id);
      v1::TournamentInfo out;
      grpc::Status s = T(0).On<v1::TournamentService>(
          operator_token_, o_.tournament_id,
          [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
            return t.NextLevel(c, next, &out);
          });
      if (!s.ok() && s.error_code() != grpc::StatusCode::FAILED_PRECONDITION) {
        NoteError("NextLevel", s);
      }
    }
    if (absl::Now() > end) {
      timed_out_ = true;
      break;
    }
    absl::SleepFor(kPoll);
  }
  stop_ = true;
}

void BotsRun::BotLoop(Bot& b) {
  v1::GetTournamentRequest get;
  get.set_tournament_id(o_.tournament_id);
  // After the stop, on while any payment waits for its player's hand to
  // end (that hand needs its table's bots), so that no call is left
  // unanswered.
  while (!stop_ || payments_ > 0) {
    v1::TournamentTableView view;
    grpc::Status s = T(b.index).On<v1::TournamentService>(
        b.token, o_.tournament_id,
        [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
          return t.GetMyTable(c, get, &view);
        });
    if (!s.ok()) {
      NoteError("GetMyTable", s);
      absl::SleepFor(kPoll);
      continue;
    }
    if (view.table().empty()) {
      if (b.seated) return Out(b);
      absl::SleepFor(kPoll);
      continue;
    }
    See(b, view);
    if (view.away()) {
      ComeBack(b);
    } else if (view.legal().actions_size() > 0) {
      Act(b, view);
    } else {
      BuyChips(b, view);
      absl::SleepFor(kPoll);
    }
  }
}

void BotsRun::See(Bot& b, const v1::TournamentTableView& view) {
  if (b.seated && view.table() != b.table) {
    absl::MutexLock lock(&mu_);
    ++record_.table_moves;  // balanced, or its table broken (TN-47/48)
  }
  b.table = view.table();
  b.seated = true;
  if (view.in_hand() && DealtIn(view, b.player)) {
    b.last_table = view.table();
    b.last_hand = view.hand_number();
  }
}

// Sat out for a timeout (TN-43: a slow bot, or a decision pending while
// the server was down): back at once.
void BotsRun::ComeBack(Bot& b) {
  v1::SetAwayRequest req;
  req.set_request_id(NextId(b, "back"));
  req.set_tournament_id(o_.tournament_id);
  req.set_away(false);
  v1::TournamentTableView out;
  grpc::Status s = T(b.index).On<v1::TournamentService>(
      b.token, o_.tournament_id,
      [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
        return t.SetAway(c, req, &out);
      });
  if (!s.ok()) {
    NoteError("SetAway", s);
    return;
  }
  absl::MutexLock lock(&mu_);
  ++record_.sat_back;
}

void BotsRun::Act(Bot& b, const v1::TournamentTableView& view) {
  const BotDecision d = DecideTournamentAction(
      view, MoodFor(players_left_, kBotPaidPlaces), b.rng() % 100);
  v1::TournamentActRequest req;
  req.set_request_id(NextId(b, "act"));
  req.set_tournament_id(o_.tournament_id);
  req.set_table(view.table());
  req.set_hand_number(view.hand_number());
  req.set_action(d.action);
  v1::TournamentTableView out;
  grpc::Status s = T(b.index).On<v1::TournamentService>(
      b.token, o_.tournament_id,
      [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
        return t.Act(c, req, &out);
      });
  // FAILED_PRECONDITION: the turn passed meanwhile (a timeout).
  if (!s.ok() && s.error_code() != grpc::StatusCode::FAILED_PRECONDITION) {
    NoteError("Act", s);
  }
  if (s.ok()) {
    absl::MutexLock lock(&mu_);
    ++record_.actions;
  }
}

// Between its hands: a rebuy when below the starting stack (TN-2j), the
// add-on in its level (TN-2a).
void BotsRun::BuyChips(Bot& b, const v1::TournamentTableView& view) {
  if (b.paying || stop_) return;
  if (b.payer.joinable()) b.payer.join();
  if (b.buying_done || (view.in_hand() && DealtIn(view, b.player))) return;
  const int level = view.level();
  if (level > kBotAddOnLevel && level > kBotRebuyUntilLevel) {
    b.buying_done = true;
    return;
  }
  bool rebuy = false;
  if (level <= kBotRebuyUntilLevel && b.rebuys < kBotRebuyMax &&
      StackOf(view, b.player) < kBotStartingChips) {
    rebuy = true;
  } else if (level != kBotAddOnLevel || b.addons >= 1) {
    return;
  }
  b.paying = true;
  ++payments_;
  b.payer = std::thread([this, &b, rebuy] {
    Pay(b, rebuy);
    b.paying = false;
    --payments_;
  });
}

void BotsRun::Pay(Bot& b, bool rebuy) {
  v1::PlayerTournamentRequest req;
  req.set_request_id(NextId(b, rebuy ? "rebuy" : "addon"));
  req.set_tournament_id(o_.tournament_id);
  v1::TournamentInfo info;
  grpc::Status s = T(b.index).On<v1::TournamentService>(
      b.token, o_.tournament_id,
      [&](v1::TournamentService::Stub& t, grpc::ClientContext* c) {
        return rebuy ? t.Rebuy(c, req, &info) : t.AddOn(c, req, &info);
      });
  absl::MutexLock lock(&mu_);
  if (s.ok()) {
    (rebuy ? b.rebuys : b.addons) += 1;
    record_.rebuys[b.player] = b.rebuys;
    record_.addons[b.player] = b.addons;
  } else if (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    record_.uncertain.insert(b.player);  // the saga goes on
    b.buying_done = true;
  } else if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
    if (absl::StrContains(s.error_message(), "paid it back")) {
      ++record_.paid_back;
    }
  } else {
    ++record_.errors;
    if (record_.first_error.empty()) {
      record_.first_error =
          absl::StrCat(rebuy ? "Rebuy: " : "AddOn: ", s.error_message());
    }
  }
  // FAILED_PRECONDITION: in a hand by now, the window closed, the most
  // made, or paid back (out before it applied): tried again if still
  // open.
}

void BotsRun::Out(Bot& b) {
  absl::MutexLock lock(&mu_);
  record_.eliminations.push_back(
      BotElimination{b.player, b.last_table, b.last_hand});
}

// --- Concluding -------------------------------------------------------------

absl::StatusOr<MoneyFacts> BotsRun::SettledMoney() {
  MoneyFacts m;
  m.deposit_each = kDepositMinor;
  const absl::Time until = absl::Now() + kSettleWait;
  while (true) {
    ASSIGN_OR_RETURN(v1::LedgerSummaryResponse summary,
                     LedgerSummary(W(0), office_));
    m.tournament_accounts_minor = 0;
    m.house_minor = 0;
    for (const v1::AccountClassTotal& c : summary.classes()) {
      if (c.account_class() == "tournament") {
        m.tournament_accounts_minor = c.balance_minor();
      }
      if (c.account_class() == "house") m.house_minor = c.balance_minor();
    }
    m.ledger_sum_minor = summary.ledger_sum_minor();
    if (m.tournament_accounts_minor == 0 || absl::Now() > until) break;
    absl::SleepFor(absl::Milliseconds(20));
  }
  for (const std::unique_ptr<Bot>& b : bots_) {
    ASSIGN_OR_RETURN(m.cash[b->player],
                     TotalBalance(W(b->index), office_, b->player));
  }
  return m;
}

Json BotsRun::PlaysJson(const v1::TournamentInfo& info) const {
  return Json{{"hands", info.hands_played()},
              {"level", info.level()},
              {"players_left", info.players_left()},
              {"tables", info.tables()}};
}

absl::StatusOr<TournamentBotsResult> BotsRun::Conclude() {
  TournamentBotsResult result;
  absl::MutexLock lock(&mu_);
  const bool finish = o_.phase == TournamentBotsPhase::kFinish || o_.hands == 0;
  if (timed_out_) {
    result.failures.push_back(absl::StrCat(
        "the ", finish ? "tournament did not finish" : "hands were not played",
        " within ", absl::FormatDuration(o_.deadline)));
  }
  Json& r = result.report;
  r["phase"] = finish ? "finish" : "play";
  r["tournament"] = o_.tournament_id;
  r.update(PlaysJson(last_));
  if (finish) {
    RETURN_IF_ERROR(Finished(result));
  } else {
    RETURN_IF_ERROR(Paused(result));
  }
  r["seconds"] = absl::ToDoubleSeconds(absl::Now() - start_);
  r["failures"] = result.failures;
  return result;
}

absl::Status BotsRun::Paused(TournamentBotsResult& result) {
  record_.hands_before_restart = last_.hands_played();
  if (!o_.state_file.empty()) {
    std::ofstream out(o_.state_file, std::ios::trunc);
    out << RecordToJson(record_).dump() << "\n";
    if (!out) return absl::InternalError("cannot write " + o_.state_file);
  }
  if (record_.errors > 0) {
    result.failures.push_back(absl::StrCat(
        record_.errors,
        " calls failed unexpectedly, first: ", record_.first_error));
  }
  result.report["record"] = RecordToJson(record_);
  return absl::OkStatus();
}

absl::Status BotsRun::Finished(TournamentBotsResult& result) {
  v1::TournamentInfo info;
  v1::TournamentStandings standings;
  ASSIGN_OR_RETURN(MoneyFacts money, SettledMoney());
  RETURN_IF_ERROR(Describe(&info));
  RETURN_IF_ERROR(Standings(&standings));
  const RunVerdict v = CheckTournamentRun(info, standings, record_, money,
                                          o_.players, o_.seats_per_table);
  result.failures.insert(result.failures.end(), v.failures.begin(),
                         v.failures.end());
  Json& r = result.report;
  r.update(PlaysJson(info));
  r["finished"] = info.phase() == v1::TOURNAMENT_PHASE_FINISHED;
  r["entrants"] = info.entrants();
  r.update(SeenJson(v));
  r.update(PrizesJson(info, standings, money));
  return absl::OkStatus();
}

Json BotsRun::SeenJson(const RunVerdict& v) const {
  int rebuys = 0;
  int addons = 0;
  for (const auto& [p, n] : record_.rebuys) rebuys += n;
  for (const auto& [p, n] : record_.addons) addons += n;
  return Json{{"tables_at_start", record_.tables_at_start},
              {"restarted_at_hand", record_.hands_before_restart},
              {"resumed_at_hand", record_.hands_at_resume},
              {"rebuys", rebuys},
              {"addons", addons},
              {"purchases_paid_back", record_.paid_back},
              {"disconnected_player", record_.away_player},
              {"table_moves_seen", record_.table_moves},
              {"hand_for_hand_seen", record_.hand_for_hand_seen},
              {"hand_for_hand_hands",
               {record_.hand_for_hand_from, record_.hand_for_hand_to}},
              {"same_hand_eliminations", v.same_hand_eliminations},
              {"ex_aequo_places", v.ex_aequo_places},
              {"actions", record_.actions},
              {"sat_back", record_.sat_back}};
}

Json BotsRun::PrizesJson(const v1::TournamentInfo& info,
                         const v1::TournamentStandings& standings,
                         const MoneyFacts& money) const {
  Json places = Json::array();
  int away_place = 0;
  for (const v1::TournamentStanding& s : standings.standings()) {
    places.push_back({{"player", s.player_id()},
                      {"place", s.place()},
                      {"prize_minor", s.prize_minor()}});
    if (s.player_id() == record_.away_player) away_place = s.place();
  }
  return Json{{"disconnected_place", away_place},
              {"prize_pool_minor", info.prize_pool_minor()},
              {"prizes_minor", std::vector<int64_t>(info.prizes_minor().begin(),
                                                    info.prizes_minor().end())},
              {"places", std::move(places)},
              {"tournament_accounts_minor", money.tournament_accounts_minor},
              {"house_minor", money.house_minor},
              {"ledger_sum_minor", money.ledger_sum_minor}};
}

}  // namespace

absl::StatusOr<TournamentBotsResult> RunTournamentBots(
    const TournamentBotsOptions& options) {
  BotsRun run(options);
  RETURN_IF_ERROR(run.Init());
  if (options.phase == TournamentBotsPhase::kPlay) RETURN_IF_ERROR(run.SetUp());
  run.Play();
  return run.Conclude();
}

}  // namespace banca::bench
