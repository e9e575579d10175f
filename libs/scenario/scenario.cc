#include "libs/scenario/scenario.h"

#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/account.h"
#include "libs/money/money.h"
#include "libs/scenario/scenario_book.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"

namespace banca::scenario {
namespace {

// One line of JSON. Messages can quote the file's own bytes, which need not
// be UTF-8: those are written as U+FFFD rather than thrown about.
std::string Dump(const OJson& j) {
  return j.dump(-1, ' ', false, OJson::error_handler_t::replace);
}

std::string ErrorJson(absl::string_view message) {
  OJson j;
  j["error"] = std::string(message);
  return Dump(j);
}

ScenarioRun Fail(int code, absl::string_view message) {
  return ScenarioRun{code, ErrorJson(message)};
}

// The games of SCENARIOS.md and their runners (scenario_<game>.cc); a game
// without one yet exits kScenarioUnsupported.
struct Game {
  std::string name;
  scenario::RunnerFactory make = nullptr;
  // The type of its events' text on the game topic.
  std::string event_type;
};

const std::vector<Game>& Games() {
  static const auto* kGames = new std::vector<Game>{
      {"holdem", scenario::MakePokerRunner, "banca.scenario.PokerEvent"},
      {"omaha", scenario::MakePokerRunner, "banca.scenario.PokerEvent"},
      {"synthetic", scenario::MakePokerRunner, "banca.scenario.PokerEvent"},
      {"blackjack", scenario::MakeBlackjackRunner,
       "banca.scenario.BlackjackEvent"},
      {"roulette_french", scenario::MakeRouletteRunner,
       "banca.scenario.RouletteEvent"},
      {"roulette_american", scenario::MakeRouletteRunner,
       "banca.scenario.RouletteEvent"},
      {"stud_no_draw", scenario::MakeStudNoDrawRunner,
       "banca.scenario.StudNoDrawEvent"},
      {"tournament", scenario::MakeTournamentRunner,
       "banca.scenario.TournamentEvent"},
  };
  return *kGames;
}

bool IsPoker(const std::string& game) {
  return game == "holdem" || game == "omaha" || game == "synthetic";
}

const Game* FindGame(const std::string& name) {
  for (const Game& g : Games()) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

// SCENARIOS.md's steps: required fields, and optional ones checked when
// present. Whether a step applies to the game is the runner's call.
struct StepSpec {
  std::vector<std::pair<const char*, Kind>> required;
  std::vector<std::pair<const char*, Kind>> optional;
};
const std::map<std::string, StepSpec>& StepSpecs() {
  static const auto* kSpecs = new std::map<std::string, StepSpec>{
      // buy_in: required by the poker games (ReadScenario), absent or 0 at
      // banked games (bets come from cash).
      {"sit",
       {{{"player", Kind::kString}, {"seat", Kind::kInt}},
        {{"buy_in", Kind::kInt}}}},
      {"rebuy", {{{"player", Kind::kString}, {"amount", Kind::kInt}}, {}}},
      {"leave", {{{"player", Kind::kString}}, {}}},
      // `table`: a tournament's table (SCENARIOS.md "Tournament scenarios").
      {"deal",
       {{{"deck", Kind::kArray}},
        {{"button", Kind::kInt}, {"table", Kind::kString}}}},
      {"act",
       {{{"player", Kind::kString}, {"action", Kind::kString}},
        {{"amount", Kind::kInt}, {"table", Kind::kString}}}},
      {"bet",
       {{{"player", Kind::kString}, {"amount", Kind::kInt}},
        {{"spot", Kind::kString},
         {"bet", Kind::kString},
         {"numbers", Kind::kArray},
         {"index", Kind::kIntOrArray},
         {"count", Kind::kInt}}}},
      {"spin",
       {{{"number", Kind::kIntOrString}}, {{"revolutions", Kind::kInt}}}},
      {"timeout", {{{"player", Kind::kString}}, {}}},
      {"disconnect", {{{"player", Kind::kString}}, {}}},
      {"reconnect", {{{"player", Kind::kString}}, {}}},
      {"sit_out", {{{"player", Kind::kString}}, {}}},
      {"sit_in", {{{"player", Kind::kString}}, {}}},
      {"fail", {{}, {}}},
      {"advance", {{{"seconds", Kind::kInt}}, {}}},
      {"tournament", {{{"op", Kind::kString}}, {}}},
  };
  return *kSpecs;
}

// The file as a JSON object.
absl::StatusOr<Json> ParseObject(std::string_view text) {
  Json root;
  try {
    root = Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("not valid JSON: ", e.what()));
  }
  if (!root.is_object()) {
    return absl::InvalidArgumentError("the scenario must be a JSON object");
  }
  return root;
}

// The top level's keys and their kinds, and a game SCENARIOS.md names.
absl::Status CheckTopLevel(const Json& root) {
  RETURN_IF_ERROR(scenario::OnlyKnownKeys(
      root, "scenario", {"name", "game", "config", "players", "steps"}));
  for (auto [key, kind] :
       std::vector<std::pair<const char*, Kind>>{{"game", Kind::kString},
                                                 {"players", Kind::kArray},
                                                 {"steps", Kind::kArray}}) {
    RETURN_IF_ERROR(Field(root, "scenario", key, kind, true));
  }
  for (auto [key, kind] : std::vector<std::pair<const char*, Kind>>{
           {"name", Kind::kString}, {"config", Kind::kObject}}) {
    RETURN_IF_ERROR(Field(root, "scenario", key, kind, false));
  }
  const std::string game = root["game"].get<std::string>();
  if (FindGame(game) == nullptr) {
    std::vector<std::string> names;
    for (const Game& g : Games()) names.push_back(g.name);
    return absl::InvalidArgumentError(
        absl::StrCat("game: unknown game \"", game, "\" (",
                     absl::StrJoin(names, ", "), ")"));
  }
  return absl::OkStatus();
}

// `players`: valid, distinct ids with their starting cash.
absl::StatusOr<std::vector<PlayerSpec>> ReadPlayers(const Json& players) {
  std::vector<PlayerSpec> out;
  std::set<std::string> ids;
  for (size_t i = 0; i < players.size(); ++i) {
    const std::string where = absl::StrCat("players[", i, "]");
    if (!players[i].is_object()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, " must be an object"));
    }
    RETURN_IF_ERROR(scenario::OnlyKnownKeys(players[i], where, {"id", "cash"}));
    RETURN_IF_ERROR(Field(players[i], where, "id", Kind::kString, true));
    RETURN_IF_ERROR(Field(players[i], where, "cash", Kind::kInt, false));
    PlayerSpec p{players[i]["id"].get<std::string>(),
                 players[i].value("cash", int64_t{0})};
    if (!ledger::IsValidId(p.id)) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ".id \"", p.id, "\" must be 1-64 of [A-Za-z0-9_.-]"));
    }
    if (p.cash < 0 || p.cash > money::kMaxAmountMinor) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".cash must be 0..", money::kMaxAmountMinor));
    }
    if (!ids.insert(p.id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".id \"", p.id, "\" is listed twice"));
    }
    out.push_back(std::move(p));
  }
  return out;
}

// SCENARIOS.md "Tournament scenarios": each op's fields.
const std::map<std::string, StepSpec>& TournamentOps() {
  static const auto* kOps = new std::map<std::string, StepSpec>{
      {"register", {{{"player", Kind::kString}}, {{"ticket", Kind::kBool}}}},
      {"unregister", {{{"player", Kind::kString}}, {}}},
      {"start", {{{"tables", Kind::kArray}}, {}}},
      {"rebuy", {{{"player", Kind::kString}}, {}}},
      {"addon", {{{"player", Kind::kString}}, {}}},
      {"reentry", {{{"player", Kind::kString}}, {}}},
      {"level", {{}, {}}},
      {"cancel", {{}, {}}},
  };
  return *kOps;
}

// The start's seat draw: [{"table": "t1", "seats": {"ana": 1}, "button": 1}].
absl::Status CheckStartTables(const Json& tables, const std::string& where) {
  for (size_t i = 0; i < tables.size(); ++i) {
    const std::string at = absl::StrCat(where, ".tables[", i, "]");
    if (!tables[i].is_object()) {
      return absl::InvalidArgumentError(absl::StrCat(at, " must be an object"));
    }
    RETURN_IF_ERROR(
        scenario::OnlyKnownKeys(tables[i], at, {"table", "seats", "button"}));
    RETURN_IF_ERROR(Field(tables[i], at, "table", Kind::kString, true));
    RETURN_IF_ERROR(Field(tables[i], at, "seats", Kind::kObject, true));
    RETURN_IF_ERROR(Field(tables[i], at, "button", Kind::kInt, true));
    for (const auto& [player, seat] : tables[i]["seats"].items()) {
      if (!seat.is_number_integer()) {
        return absl::InvalidArgumentError(absl::StrCat(
            at, ".seats.", player, " must be a seat number (an integer)"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckTournamentOp(const Json& step, const std::string& where) {
  const std::string op = step["op"].get<std::string>();
  auto spec = TournamentOps().find(op);
  if (spec == TournamentOps().end()) {
    std::vector<std::string> ops;
    for (const auto& [name, s] : TournamentOps()) ops.push_back(name);
    return absl::InvalidArgumentError(
        absl::StrCat(where, ".op: unknown tournament op \"", op, "\" (",
                     absl::StrJoin(ops, ", "), ")"));
  }
  std::vector<std::string> known = {"do", "op"};
  for (auto [key, kind] : spec->second.required) {
    RETURN_IF_ERROR(Field(step, where, key, kind, true));
    known.push_back(key);
  }
  for (auto [key, kind] : spec->second.optional) {
    RETURN_IF_ERROR(Field(step, where, key, kind, false));
    known.push_back(key);
  }
  RETURN_IF_ERROR(scenario::OnlyKnownKeys(step, where, known));
  if (op == "start") return CheckStartTables(step["tables"], where);
  return absl::OkStatus();
}

// One step: a known `do`, its fields of the right kinds and no others.
absl::Status CheckStep(const Json& step, const std::string& where,
                       const std::string& game) {
  if (!step.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, " must be an object"));
  }
  RETURN_IF_ERROR(Field(step, where, "do", Kind::kString, true));
  const std::string op = step["do"].get<std::string>();
  auto spec = StepSpecs().find(op);
  if (spec == StepSpecs().end()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ".do: unknown step \"", op, "\""));
  }
  for (auto [key, kind] : spec->second.required) {
    RETURN_IF_ERROR(Field(step, where, key, kind, true));
  }
  for (auto [key, kind] : spec->second.optional) {
    RETURN_IF_ERROR(Field(step, where, key, kind, false));
  }
  std::vector<std::string> known = {"do"};
  for (const auto& fields : {spec->second.required, spec->second.optional}) {
    for (auto [key, kind] : fields) known.push_back(key);
  }
  if (op == "tournament") return CheckTournamentOp(step, where);
  RETURN_IF_ERROR(scenario::OnlyKnownKeys(step, where, known));
  if (op == "sit" && IsPoker(game) && !step.contains("buy_in")) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": \"buy_in\" is required at a poker table (an integer)"));
  }
  if (op == "deal") {
    for (const Json& card : step["deck"]) {
      if (!card.is_string()) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ".deck: cards are strings like \"As\", got ", card.dump()));
      }
    }
  }
  return absl::OkStatus();
}

// INVALID_ARGUMENT: the file is malformed (exit 2).
absl::StatusOr<ScenarioFile> ReadScenario(std::string_view text) {
  ASSIGN_OR_RETURN(Json root, ParseObject(text));
  RETURN_IF_ERROR(CheckTopLevel(root));
  ScenarioFile sc;
  sc.name = root.value("name", std::string());
  sc.game = root["game"].get<std::string>();
  ASSIGN_OR_RETURN(sc.players, ReadPlayers(root["players"]));
  const Json& steps = root["steps"];
  for (size_t i = 0; i < steps.size(); ++i) {
    RETURN_IF_ERROR(
        CheckStep(steps[i], absl::StrCat("steps[", i, "]"), sc.game));
    sc.steps.push_back(steps[i]);
  }
  sc.config = root.value("config", Json::object());
  return sc;
}

std::string TempParent(const std::string& work_dir) {
  if (!work_dir.empty()) return work_dir;
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

}  // namespace

ScenarioRun RunScenario(std::string_view text, const std::string& work_dir) {
  absl::StatusOr<ScenarioFile> sc = ReadScenario(text);
  if (!sc.ok()) return Fail(kScenarioMalformed, sc.status().message());
  const Game& game = *FindGame(sc->game);
  if (game.make == nullptr) {
    std::vector<std::string> built;
    for (const Game& g : Games()) {
      if (g.make != nullptr) built.push_back(g.name);
    }
    return Fail(kScenarioUnsupported,
                absl::StrCat("game \"", sc->game,
                             "\" is not supported by this build's scenario "
                             "runner yet (supported: ",
                             absl::StrJoin(built, ", "), ")"));
  }

  std::string dir = TempParent(work_dir) + "/banca-scenario-XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) {
    return Fail(kScenarioFailed, "cannot create a temporary directory");
  }
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  } cleanup{dir};

  eventlog::EmbeddedLogOptions options;
  options.fsync = false;  // a throw-away log
  options.group_commit_delay_micros = 0;
  absl::StatusOr<std::unique_ptr<eventlog::EventLog>> log =
      eventlog::OpenEmbeddedLog(dir, options);
  if (!log.ok()) return Fail(kScenarioFailed, log.status().message());
  for (const eventlog::TopicConfig& topic :
       {eventlog::TopicConfig{std::string(wire::kWalletTopic),
                              wire::kDefaultWalletPartitions},
        eventlog::TopicConfig{std::string(scenario::kGameTopic), 1}}) {
    if (absl::Status s = (*log)->EnsureTopic(topic); !s.ok()) {
      return Fail(kScenarioFailed, s.message());
    }
  }

  ScenarioRun run;
  try {
    ScenarioBook book(log->get(), game.event_type);
    absl::StatusOr<std::unique_ptr<GameRunner>> runner = game.make(*sc, book);
    if (!runner.ok()) {
      return Fail(kScenarioMalformed, runner.status().message());
    }
    if (absl::Status s = book.OpenPlayers(sc->players); !s.ok()) {
      return Fail(kScenarioFailed, absl::StrCat("setup: ", s.message()));
    }
    OJson steps = OJson::array();
    for (size_t i = 0; i < sc->steps.size(); ++i) {
      const Json& step = sc->steps[i];
      book.BeginStep(i);
      absl::Status status =
          (*runner)->Step(step["do"].get<std::string>(), step);
      if (status.ok()) status = book.CommitStep();
      if (!status.ok()) book.AbandonStep();
      OJson out;
      out["index"] = i;
      out["ok"] = status.ok();
      if (!status.ok()) {
        out["code"] = absl::StatusCodeToString(status.code());
        out["message"] = std::string(status.message());
      }
      steps.push_back(out);
    }
    book.VerifyReplay();
    OJson players = OJson::object();
    for (const PlayerSpec& p : sc->players) {
      OJson entry;
      entry["cash"] = book.Balance(ledger::PlayerCashAccount(p.id));
      entry["stack"] = (*runner)->Stack(p.id);
      players[p.id] = entry;
    }
    OJson house;
    house["rake"] = book.Balance("house/rake");
    house["bank"] = book.Balance("house/bank");
    house["tournament_fees"] = book.Balance("house/tournament_fees");
    house["overlay"] = book.Balance("house/overlay");
    OJson out;
    out["steps"] = steps;
    out["players"] = players;
    out["house"] = house;
    out["ledger_sum"] = book.ledger().Summarize().sum;
    out["rounds"] = (*runner)->Rounds();
    out["events"] = book.events();
    (*runner)->AddOutput(out);
    if (!book.violations().empty()) out["violations"] = book.violations();
    run.exit_code = kScenarioPlayed;
    run.json = Dump(out);
  } catch (const Json::exception& e) {
    return Fail(kScenarioFailed, absl::StrCat("internal: ", e.what()));
  }
  return run;
}

ScenarioRun RunScenarioFile(const std::string& path,
                            const std::string& work_dir) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(kScenarioMalformed, "cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return RunScenario(text.str(), work_dir);
}

}  // namespace banca::scenario
