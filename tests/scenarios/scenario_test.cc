// Every tests/scenarios/NAME.json is played through the library and
// compared with NAME.expected.json, whose values were worked out by hand
// from the rules (each file's "name" says which rule). The expected file
// lists only what it checks:
//   "players": {id: {"cash", "stack"}}, "house": {...}, "ledger_sum",
//   "rounds": [{"void", "pots", "shown", "showdown"}] (same count),
//   "steps": [{"index", "ok", "code"?, "message_contains"?}] (selected),
//   "tournament": {"state", "prize_pool", "places", "prizes", ...},
//   "result_contains": [text per round, optional].
// Plus bad input: malformed files, unknown steps, bad decks, out of turn.
#include "libs/scenario/scenario.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace banca::cli {
namespace {

using Json = nlohmann::json;
using ::testing::HasSubstr;

std::string Read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> ScenarioNames() {
  std::vector<std::string> names;
  for (const auto& entry :
       std::filesystem::directory_iterator(BANCA_SCENARIO_DIR)) {
    const std::string file = entry.path().filename().string();
    if (file.ends_with(".json") && !file.ends_with(".expected.json")) {
      names.push_back(file.substr(0, file.size() - 5));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

Json Play(std::string_view text, int* exit_code) {
  scenario::ScenarioRun run = scenario::RunScenario(text);
  *exit_code = run.exit_code;
  return Json::parse(run.json);
}

class ScenarioFile : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioFile, MatchesTheHandWorkedExpectation) {
  const std::filesystem::path dir(BANCA_SCENARIO_DIR);
  const std::string name = GetParam();
  const Json expected = Json::parse(Read(dir / (name + ".expected.json")));
  int code = -1;
  const Json out = Play(Read(dir / (name + ".json")), &code);
  ASSERT_EQ(code, scenario::kScenarioPlayed) << out.dump(2);
  SCOPED_TRACE(out.dump(2));
  EXPECT_FALSE(out.contains("violations"));
  EXPECT_EQ(out["ledger_sum"], 0);
  // Money in flight is back to 0 after the last step: the poker pot, the
  // banked games' wagers.
  if (out.contains("table_pot")) {
    EXPECT_EQ(out["table_pot"], 0);
  }
  if (out.contains("wagers")) {
    EXPECT_EQ(out["wagers"], 0);
  }
  if (expected.contains("ledger_sum")) {
    EXPECT_EQ(out["ledger_sum"], expected["ledger_sum"]);
  }
  if (expected.contains("players")) {
    for (const auto& [id, want] : expected["players"].items()) {
      for (const auto& [key, value] : want.items()) {
        EXPECT_EQ(out["players"][id][key], value) << id << "." << key;
      }
    }
  }
  if (expected.contains("house")) {
    for (const auto& [key, value] : expected["house"].items()) {
      EXPECT_EQ(out["house"][key], value) << "house." << key;
    }
  }
  if (expected.contains("tournament")) {
    for (const auto& [key, value] : expected["tournament"].items()) {
      EXPECT_EQ(out["tournament"][key], value) << "tournament." << key;
    }
  }
  if (expected.contains("rounds")) {
    const Json& want = expected["rounds"];
    ASSERT_EQ(out["rounds"].size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      for (const auto& [key, value] : want[i].items()) {
        EXPECT_EQ(out["rounds"][i][key], value)
            << "rounds[" << i << "]." << key;
      }
    }
  }
  if (expected.contains("result_contains")) {
    const Json& want = expected["result_contains"];
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_THAT(out["rounds"][i]["result"].get<std::string>(),
                  HasSubstr(want[i].get<std::string>()));
    }
  }
  const Json& steps = out["steps"];
  for (size_t i = 0; i < steps.size(); ++i) EXPECT_EQ(steps[i]["index"], i);
  // Steps not listed must have been accepted.
  std::vector<bool> listed(steps.size(), false);
  if (expected.contains("steps")) {
    for (const Json& want : expected["steps"]) {
      const size_t i = want["index"].get<size_t>();
      ASSERT_LT(i, steps.size());
      listed[i] = true;
      EXPECT_EQ(steps[i]["ok"], want["ok"]) << "steps[" << i << "]";
      if (want.contains("code")) {
        EXPECT_EQ(steps[i]["code"], want["code"]) << "steps[" << i << "]";
      }
      if (want.contains("message_contains")) {
        EXPECT_THAT(steps[i].value("message", ""),
                    HasSubstr(want["message_contains"].get<std::string>()));
      }
    }
  }
  for (size_t i = 0; i < steps.size(); ++i) {
    if (!listed[i]) {
      EXPECT_EQ(steps[i]["ok"], true) << "steps[" << i << "]";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, ScenarioFile,
                         ::testing::ValuesIn(ScenarioNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param;
                           for (char& c : n) {
                             if (!isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           }
                           return n;
                         });

// A heads-up table: ana on seat 1, rui on seat 2, then `steps`.
std::string HeadsUp(const std::string& steps) {
  return R"({"game": "holdem",
    "config": {"seats": 6, "small_blind": 50, "big_blind": 100,
               "buy_in": {"min": 1000, "max": 10000}},
    "players": [{"id": "ana", "cash": 20000}, {"id": "rui", "cash": 20000}],
    "steps": [
      {"do": "sit", "player": "ana", "seat": 1, "buy_in": 10000},
      {"do": "sit", "player": "rui", "seat": 2, "buy_in": 10000})" +
         steps + "]}";
}
const char kDeck[] =
    R"("deck": ["As","Kd","Qh","Qs","2c","7d","9h","Jc","3s"])";

TEST(ScenarioBadInput, MalformedJsonExits2WithTheParserError) {
  int code = 0;
  Json out = Play(R"({"game": "holdem", "players": [)", &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  EXPECT_THAT(out["error"].get<std::string>(), HasSubstr("not valid JSON"));
}

// Found by tests/fuzz/scenario_fuzz: the parser's message quotes the bytes
// it stopped at, and a file that is not UTF-8 made writing the error object
// throw (the process stopped) instead of exiting 2.
TEST(ScenarioBadInput, BytesThatAreNotUtf8Exit2WithAnErrorObject) {
  int code = 0;
  Json out = Play("{\"game\": \"holdem\", \"name\": \"\xff\xfe\"}", &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  EXPECT_THAT(out["error"].get<std::string>(), HasSubstr("not valid JSON"));
}

TEST(ScenarioBadInput, MissingOrMistypedFieldsExit2) {
  int code = 0;
  Json out = Play(R"({"game": "holdem", "players": []})", &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  EXPECT_EQ(out["error"], "scenario: \"steps\" is required (an array)");
  out = Play(HeadsUp(R"(, {"do": "act", "player": "ana"})"), &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  EXPECT_EQ(out["error"], "steps[2]: \"action\" is required (a string)");
  out = Play(HeadsUp(R"(, {"do": "rebuy", "player": "ana", "amount": 1.5})"),
             &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  EXPECT_THAT(out["error"].get<std::string>(),
              HasSubstr("steps[2].amount must be an integer"));
  out = Play(R"({"game": "poker", "players": [], "steps": []})", &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  EXPECT_THAT(out["error"].get<std::string>(), HasSubstr("unknown game"));
}

// SCENARIOS.md: a key the runner does not know, at any level, makes the
// file malformed (exit 2, naming the key), so a typo never passes.
TEST(ScenarioBadInput, AnUnknownKeyAnywhereExits2NamingIt) {
  struct Case {
    std::string file, error;
  };
  const std::string heads_up = HeadsUp("");
  auto with = [&](const std::string& from, const std::string& to) {
    std::string f = heads_up;
    const size_t at = f.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return f.replace(at, from.size(), to);
  };
  for (const Case& c : std::vector<Case>{
           {with(R"({"game": "holdem",)", R"({"game": "holdem", "nmae": 1,)"),
            "scenario.nmae: unknown key"},
           {with(R"({"id": "ana", "cash": 20000})",
                 R"({"id": "ana", "cahs": 20000})"),
            "players[0].cahs: unknown key"},
           {with(R"("seat": 2, "buy_in": 10000})",
                 R"("seat": 2, "buy_in": 10000, "amout": 5})"),
            "steps[1].amout: unknown key"},
           {with(R"("seats": 6,)", R"("sets": 6,)"),
            "config.sets: unknown key"},
           {with(R"("buy_in": {"min": 1000, "max": 10000})",
                 R"("buy_in": {"min": 1000, "max": 10000, "avg": 1})"),
            "config.buy_in.avg: unknown key"},
           {with(R"("buy_in": {"min": 1000, "max": 10000})",
                 R"("rake": {"mode": "pot", "bsp": 500})"),
            "config.rake.bsp: unknown key"},
           {R"({"game": "blackjack", "config": {"seats": 1, "deks": 6},
                "players": [{"id": "ana", "cash": 100}], "steps": []})",
            "config.deks: unknown key"},
       }) {
    int code = 0;
    const Json out = Play(c.file, &code);
    EXPECT_EQ(code, scenario::kScenarioMalformed) << c.file;
    EXPECT_THAT(out.value("error", ""), HasSubstr(c.error)) << c.file;
  }
}

// SCENARIOS.md: banked games take no buy_in at `sit` (absent or 0: bets
// come from cash); poker cash games need one.
TEST(ScenarioBadInput, BankedSitsTakeNoBuyInAndPokerSitsNeedOne) {
  for (const std::string game :
       {"blackjack", "stud_no_draw", "roulette_french"}) {
    const std::string config =
        game == "stud_no_draw"
            ? R"({"seats": 7, "min_ante": 100, "max_ante": 2500})"
            : "{}";
    int code = 0;
    const Json out =
        Play(R"({"game": ")" + game + R"(", "config": )" + config + R"(,
        "players": [{"id": "ana", "cash": 1000}],
        "steps": [{"do": "sit", "player": "ana", "seat": 1},
                  {"do": "sit", "player": "ana", "seat": 1, "buy_in": 5}]})",
             &code);
    ASSERT_EQ(code, scenario::kScenarioPlayed) << game << " " << out.dump();
    EXPECT_EQ(out["steps"][0]["ok"], true) << game << " " << out.dump();
    EXPECT_EQ(out["steps"][1]["ok"], false) << game;
    EXPECT_EQ(out["players"]["ana"]["cash"], 1000) << game;
  }
  int code = 0;
  const Json out = Play(R"({"game": "holdem", "players": [{"id": "ana"}],
      "steps": [{"do": "sit", "player": "ana", "seat": 1}]})",
                        &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  EXPECT_THAT(out.value("error", ""), HasSubstr("\"buy_in\" is required"));
}

// The poker runner plays the table service's own table (libs/tables): a
// setting the service has no place for, or refuses, makes the file
// malformed rather than being played by the engine alone.
TEST(ScenarioBadInput, PokerSettingsTheTableServiceRefusesAreMalformed) {
  for (const auto& [config, error] :
       std::vector<std::pair<std::string, std::string>>{
           {R"("hole_cards": 5)", "config.hole_cards"},
           {R"("action_seconds": 601)", "config.action_seconds must be 1..600"},
           {R"("action_seconds": 0)", "config.action_seconds must be 1..600"},
       }) {
    int code = 0;
    const Json out = Play(R"({"game": "omaha", "config": {)" + config + R"(},
        "players": [{"id": "ana", "cash": 1000}], "steps": []})",
                          &code);
    EXPECT_EQ(code, scenario::kScenarioMalformed) << config;
    EXPECT_THAT(out.value("error", ""), HasSubstr(error)) << config;
  }
  int code = 0;
  const Json out = Play(R"({"game": "omaha", "config": {"hole_cards": 4,
      "action_seconds": 20}, "players": [{"id": "ana", "cash": 1000}],
      "steps": []})",
                        &code);
  EXPECT_EQ(code, scenario::kScenarioPlayed) << out.dump();
}

// The banked runners play the banked-table service's tables: a rule the
// service plays only at its default makes a file that changes it
// malformed; the default itself may be written.
TEST(ScenarioBadInput, BankedSettingsTheServiceHasNoPlaceForAreMalformed) {
  for (const auto& [game, config, error] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"blackjack", R"({"blackjack_pays": "6:5"})",
            "config.blackjack_pays: the banked-table service"},
           {"blackjack", R"({"dealer_peek": false})", "config.dealer_peek"},
           {"roulette_french", R"({"invite_inactive": false})",
            "config.invite_inactive"},
       }) {
    int code = 0;
    const Json out = Play(R"({"game": ")" + game + R"(", "config": )" + config +
                              R"(, "players": [], "steps": []})",
                          &code);
    EXPECT_EQ(code, scenario::kScenarioMalformed) << config;
    EXPECT_THAT(out.value("error", ""), HasSubstr(error)) << config;
  }
  int code = 0;
  const Json out = Play(R"({"game": "blackjack", "config":
      {"blackjack_pays": "3:2", "dealer_peek": true}, "players": [],
      "steps": []})",
                        &code);
  EXPECT_EQ(code, scenario::kScenarioPlayed) << out.dump();
}

TEST(ScenarioBadInput, UnknownStepExits2AndPlaysNothing) {
  int code = 0;
  Json out = Play(HeadsUp(R"(, {"do": "shuffle"})"), &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  EXPECT_EQ(out["error"], "steps[2].do: unknown step \"shuffle\"");
  EXPECT_FALSE(out.contains("steps"));
}

// A tournament op's fields are checked like a step's: an unknown op, a
// missing field or an unknown key makes the file malformed.
TEST(ScenarioBadInput, ATournamentOpIsCheckedLikeAStep) {
  struct Case {
    std::string step, error;
  };
  const std::vector<Case> cases = {
      {R"({"do": "tournament", "op": "start"})",
       "steps[0]: \"tables\" is required (an array)"},
      {R"({"do": "tournament", "op": "shuffle"})",
       "steps[0].op: unknown tournament op \"shuffle\""},
      {R"({"do": "tournament", "op": "register", "player": "ana",
           "seat": 3})",
       "steps[0].seat"},
      {R"({"do": "tournament", "op": "start",
           "tables": [{"table": "t1", "seats": {"ana": "1"}, "button": 1}]})",
       "steps[0].tables[0].seats.ana must be a seat number"},
  };
  for (const Case& c : cases) {
    int code = 0;
    Json out = Play(R"({"game": "tournament",
                        "config": {"buy_in": 1000, "fee_bps": 1000},
                        "players": [{"id": "ana", "cash": 1000}],
                        "steps": [)" +
                        c.step + "]}",
                    &code);
    EXPECT_EQ(code, scenario::kScenarioMalformed) << c.step;
    EXPECT_THAT(out["error"].get<std::string>(), HasSubstr(c.error));
  }
}

TEST(ScenarioBadInput, AStepOfAnotherGameIsARejectedStep) {
  int code = 0;
  Json out = Play(HeadsUp(R"(,
      {"do": "bet", "player": "ana", "bet": "red", "amount": 100},
      {"do": "spin", "number": 17})"),
                  &code);
  ASSERT_EQ(code, scenario::kScenarioPlayed) << out.dump(2);
  EXPECT_EQ(out["steps"][2]["code"], "INVALID_ARGUMENT");
  EXPECT_THAT(out["steps"][2]["message"].get<std::string>(),
              HasSubstr("does not apply to holdem"));
  EXPECT_EQ(out["steps"][3]["code"], "INVALID_ARGUMENT");
  EXPECT_FALSE(out.contains("violations"));
}

TEST(ScenarioBadInput, BankedStepFieldsAreTypeChecked) {
  int code = 0;
  Json out = Play(HeadsUp(R"(, {"do": "spin", "number": true})"), &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  EXPECT_EQ(out["error"],
            "steps[2].number must be an integer or a string, got true");
  out = Play(HeadsUp(R"(, {"do": "bet", "player": "ana", "bet": "dozen",
                           "index": "1", "amount": 100})"),
             &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  EXPECT_THAT(out["error"].get<std::string>(),
              HasSubstr("steps[2].index must be an integer or an array"));
}

TEST(ScenarioBadInput, BadDecksAreRejectedStepsNotCrashes) {
  int code = 0;
  Json out = Play(HeadsUp(R"(,
      {"do": "deal", "button": 1, "deck": ["As","Kd","Qh","As","2c","7d","9h","Jc","3s"]},
      {"do": "deal", "button": 1, "deck": ["As","Kd","Qh","Qs","2c","7d","9h","Jc"]},
      {"do": "deal", "button": 1, "deck": ["As","Kd","Qh","Qs","2c","7d","9h","Jc","1x"]},
      {"do": "deal", "button": 5, )" +
                          std::string(kDeck) + R"(},
      {"do": "deal", "button": 1, )" +
                          kDeck + "}"),
                  &code);
  ASSERT_EQ(code, scenario::kScenarioPlayed) << out.dump(2);
  const Json& steps = out["steps"];
  EXPECT_EQ(steps[2]["code"], "INVALID_ARGUMENT");
  EXPECT_THAT(steps[2]["message"].get<std::string>(), HasSubstr("twice"));
  EXPECT_EQ(steps[3]["code"], "INVALID_ARGUMENT");
  EXPECT_THAT(steps[3]["message"].get<std::string>(), HasSubstr("9"));
  EXPECT_EQ(steps[4]["code"], "INVALID_ARGUMENT");
  EXPECT_THAT(steps[4]["message"].get<std::string>(), HasSubstr("deck[8]"));
  EXPECT_EQ(steps[5]["code"], "INVALID_ARGUMENT");
  EXPECT_THAT(steps[5]["message"].get<std::string>(), HasSubstr("button"));
  EXPECT_EQ(steps[6]["ok"], true);
  EXPECT_FALSE(out.contains("violations"));
}

// A rejected step appends no event and moves no money.
TEST(ScenarioBadInput, OutOfTurnActIsRejectedWithNoEventAndNoMoney) {
  const std::string deal =
      R"(, {"do": "deal", "button": 1, )" + std::string(kDeck) + "}";
  int code = 0;
  const Json before = Play(HeadsUp(deal), &code);
  ASSERT_EQ(code, scenario::kScenarioPlayed);
  const Json after = Play(
      HeadsUp(deal + R"(, {"do": "act", "player": "ana", "action": "check"},
                          {"do": "rebuy", "player": "rui", "amount": 100},
                          {"do": "sit", "player": "ana", "seat": 3,
                           "buy_in": 5000})"),
      &code);
  ASSERT_EQ(code, scenario::kScenarioPlayed);
  EXPECT_EQ(after["steps"][3]["code"], "FAILED_PRECONDITION");
  EXPECT_THAT(after["steps"][3]["message"].get<std::string>(),
              HasSubstr("not ana's turn"));
  EXPECT_EQ(after["steps"][4]["code"], "FAILED_PRECONDITION");
  EXPECT_EQ(after["steps"][5]["code"], "FAILED_PRECONDITION");
  EXPECT_EQ(after["events"], before["events"]);
  EXPECT_EQ(after["players"], before["players"]);
  EXPECT_EQ(after["house"], before["house"]);
  EXPECT_FALSE(after.contains("violations"));
}

TEST(ScenarioBadInput, BuyInAboveTheCashIsRejectedAndTheSeatStaysFree) {
  int code = 0;
  const Json out = Play(
      R"({"game": "holdem", "config": {"buy_in": {"min": 1000, "max": 10000}},
          "players": [{"id": "ana", "cash": 500}, {"id": "rui", "cash": 9000}],
          "steps": [{"do": "sit", "player": "ana", "seat": 1, "buy_in": 1000},
                    {"do": "sit", "player": "rui", "seat": 1, "buy_in": 1000}]})",
      &code);
  ASSERT_EQ(code, scenario::kScenarioPlayed);
  EXPECT_EQ(out["steps"][0]["ok"], false);
  EXPECT_EQ(out["steps"][1]["ok"], true) << out.dump(2);
  EXPECT_EQ(out["players"]["ana"]["cash"], 500);
  EXPECT_EQ(out["players"]["rui"]["stack"], 1000);
  EXPECT_FALSE(out.contains("violations"));
}

// Póquer sem descarte: ana and rui at a 7-seat table, then `steps`.
std::string Stud(const std::string& config, const std::string& steps) {
  return R"({"game": "stud_no_draw", "config": )" + config + R"(,
    "players": [{"id": "ana", "cash": 20000}, {"id": "rui", "cash": 20000}],
    "steps": [)" +
         steps + "]}";
}
const char kStudConfig[] = R"({"seats": 7, "min_ante": 100, "max_ante": 2500})";

TEST(ScenarioBadInput, StudConfigBeyondTheRulesIsMalformed_SD_18) {
  int code = 0;
  Json out = Play(Stud(R"({"seats": 7, "min_ante": 100, "max_ante": 2600})",
                       "{\"do\": "
                       "\"fail\"}"),
                  &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  EXPECT_THAT(out["error"].get<std::string>(), HasSubstr("SD-18"));
  out = Play(Stud(R"({"seats": 8, "min_ante": 100, "max_ante": 200})", ""),
             &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  out = Play(Stud(R"({"seats": 7, "min_ante": 100, "max_ante": 200,
                      "rake": {"mode": "pot"}})",
                  ""),
             &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  EXPECT_EQ(out["error"], "config.rake is not a stud_no_draw setting");
  out = Play(Stud(R"({"seats": 7, "min_ante": 100})", ""), &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
  out = Play(Stud(R"({"seats": 7, "min_ante": 100, "max_ante": 200,
                      "extra_seconds": 0})",
                  ""),
             &code);
  EXPECT_EQ(code, scenario::kScenarioMalformed);
}

TEST(ScenarioBadInput, StudStepsOutsideTheGameAreRejectedAndChangeNothing) {
  int code = 0;
  const Json out = Play(Stud(kStudConfig, R"(
      {"do": "bet", "player": "ana", "spot": "main", "amount": 100},
      {"do": "bet", "player": "ana", "spot": "ante", "amount": 100},
      {"do": "deal", "button": 1, "deck": ["2c"]},
      {"do": "deal", "deck": ["2c", "1x"]},
      {"do": "deal", "deck": ["2c", "2c"]},
      {"do": "act", "player": "ana", "action": "raise"},
      {"do": "act", "player": "ivo", "action": "fold"},
      {"do": "rebuy", "player": "ana", "amount": 100},
      {"do": "sit", "player": "rui", "seat": 2, "buy_in": 500},
      {"do": "bet", "player": "rui", "spot": "ante", "amount": 30000})"),
                        &code);
  ASSERT_EQ(code, scenario::kScenarioPlayed) << out.dump(2);
  const Json& steps = out["steps"];
  EXPECT_EQ(steps[0]["code"], "INVALID_ARGUMENT");
  EXPECT_EQ(steps[1]["ok"], true);
  EXPECT_EQ(steps[2]["message"], "stud_no_draw has no button");
  EXPECT_THAT(steps[3]["message"].get<std::string>(), HasSubstr("not a card"));
  EXPECT_EQ(steps[4]["code"], "INVALID_ARGUMENT");
  EXPECT_EQ(steps[5]["code"], "INVALID_ARGUMENT");  // fold or continue only
  EXPECT_EQ(steps[6]["code"], "NOT_FOUND");
  EXPECT_EQ(steps[7]["code"], "INVALID_ARGUMENT");
  EXPECT_THAT(steps[8]["message"].get<std::string>(), HasSubstr("buy-in"));
  EXPECT_EQ(steps[9]["code"], "INVALID_ARGUMENT");  // above max_ante
  // Only ana's ante moved: 100 in flight, nothing else touched.
  EXPECT_EQ(out["players"]["ana"]["cash"], 19900);
  EXPECT_EQ(out["players"]["rui"]["cash"], 20000);
  EXPECT_EQ(out["wagers"], 100);
  EXPECT_EQ(out["ledger_sum"], 0);
  EXPECT_FALSE(out.contains("violations"));
  ASSERT_EQ(out["rounds"].size(), 1u);
  EXPECT_EQ(out["rounds"][0]["result"], "in progress");
}

TEST(ScenarioBadInput, StudAnteAboveTheCashIsRefusedWhole) {
  int code = 0;
  const Json out = Play(
      R"({"game": "stud_no_draw", "config": {"seats": 2, "min_ante": 100, "max_ante": 2500},
          "players": [{"id": "ana", "cash": 150}],
          "steps": [{"do": "bet", "player": "ana", "spot": "ante", "amount": 200},
                    {"do": "bet", "player": "ana", "spot": "ante", "amount": 100}]})",
      &code);
  ASSERT_EQ(code, scenario::kScenarioPlayed) << out.dump(2);
  EXPECT_EQ(out["steps"][0]["code"], "FAILED_PRECONDITION");
  EXPECT_EQ(out["steps"][1]["ok"], true);  // the seat was not kept
  EXPECT_EQ(out["players"]["ana"]["cash"], 50);
  EXPECT_FALSE(out.contains("violations"));
}

// Roulette: ana and rui at a French wheel (min 100), then `steps`.
std::string Roulette(const std::string& game, const std::string& config,
                     const std::string& steps) {
  return R"({"game": ")" + game + R"(", "config": )" + config + R"(,
    "players": [{"id": "ana", "cash": 100000}, {"id": "rui", "cash": 150}],
    "steps": [)" +
         steps + "]}";
}

TEST(ScenarioBadInput, RouletteConfigOutsideTheRulesIsMalformed) {
  struct Case {
    std::string game, config, error;
  };
  for (const Case& c : std::vector<Case>{
           {"roulette_french", R"({"max_bet": 1000})",
            "config.max_bet is for American tables"},
           {"roulette_french", R"({"double_zero": true})",
            "config.double_zero is for American tables"},
           {"roulette_french", R"({"betting_seconds": 29})", "RFD-13"},
           {"roulette_french", R"({"seats": 6})",
            "config.seats is not a roulette setting"},
           {"roulette_french", R"({"launch": "player"})",
            "individual wheels only"},
           {"roulette_french", R"({"wheel": "shared"})", "config.wheel"},
           {"roulette_french", R"({"min_bet": 0})", "min_bet"},
           {"roulette_american", R"({"max_bet": 0})",
            "config.max_bet must be positive"},
           {"roulette_american", R"({"min_bet": 100, "max_bet": 50})",
            "below its minimum"},
           {"roulette_american", R"({"chance_min": {"pleno": 100}})",
            "not a roulette chance"},
           {"roulette_american", R"({"double_zero": 1})", "config.double_zero"},
       }) {
    int code = 0;
    const Json out = Play(Roulette(c.game, c.config, ""), &code);
    EXPECT_EQ(code, scenario::kScenarioMalformed) << c.config;
    EXPECT_THAT(out.value("error", ""), HasSubstr(c.error)) << c.config;
  }
}

// Every bad step is rejected with a precise message and changes nothing:
// the same events, balances and rounds as the file without it.
TEST(ScenarioBadInput, RouletteBadStepsAreRejectedAndChangeNothing) {
  const std::string good = R"(
      {"do": "bet", "player": "ana", "bet": "red", "amount": 100},
      {"do": "advance", "seconds": 30},
      {"do": "spin", "number": 1})";
  int code = 0;
  const Json before = Play(Roulette("roulette_french", "{}", good), &code);
  ASSERT_EQ(code, scenario::kScenarioPlayed) << before.dump(2);
  struct Bad {
    std::string step, code, message;
  };
  const std::vector<Bad> bad = {
      {R"({"do": "bet", "player": "ana", "spot": "main", "amount": 100})",
       "INVALID_ARGUMENT", "not a \"spot\""},
      {R"({"do": "bet", "player": "ana", "bet": "pleno", "amount": 100})",
       "INVALID_ARGUMENT", "\"pleno\" is not a roulette bet"},
      {R"({"do": "bet", "player": "ana", "bet": "straight", "numbers": [37],
           "amount": 100})",
       "INVALID_ARGUMENT", "37 is not a number of the wheel"},
      {R"({"do": "bet", "player": "ana", "bet": "straight",
           "numbers": ["00"], "amount": 100})",
       "INVALID_ARGUMENT", "00 is only on a double-zero wheel"},
      {R"({"do": "bet", "player": "ana", "bet": "straight",
           "numbers": [true], "amount": 100})",
       "INVALID_ARGUMENT", "numbers[0] must be a number"},
      {R"({"do": "bet", "player": "ana", "bet": "red", "numbers": [1],
           "amount": 100})",
       "INVALID_ARGUMENT", "red takes no numbers"},
      {R"({"do": "bet", "player": "ana", "bet": "dozen", "index": 4,
           "amount": 100})",
       "INVALID_ARGUMENT", "1, 2 or 3"},
      {R"({"do": "bet", "player": "ana", "bet": "neighbours",
           "numbers": [17], "count": 3, "amount": 300})",
       "INVALID_ARGUMENT", ""},
      {R"({"do": "bet", "player": "ana", "bet": "finals", "numbers": [10],
           "amount": 300})",
       "INVALID_ARGUMENT", "last digit 0..9"},
      {R"({"do": "bet", "player": "ana", "bet": "red", "amount": 0})",
       "INVALID_ARGUMENT", "must be positive"},
      {R"({"do": "bet", "player": "ivo", "bet": "red", "amount": 100})",
       "NOT_FOUND", "ivo is not a player"},
      // Accepted by the wheel, refused by the ledger: above rui's cash.
      {R"({"do": "bet", "player": "rui", "bet": "red", "amount": 200})",
       "FAILED_PRECONDITION", ""},
      {R"({"do": "spin", "number": 1})", "FAILED_PRECONDITION",
       "betting window is open"},
      {R"({"do": "spin", "number": 37})", "INVALID_ARGUMENT",
       "37 is not a number of the wheel"},
      {R"({"do": "spin", "number": "00"})", "INVALID_ARGUMENT",
       "00 is only on a double-zero wheel"},
      {R"({"do": "spin", "number": 1, "revolutions": -1})", "INVALID_ARGUMENT",
       "revolutions must be 0.."},
      {R"({"do": "leave", "player": "rui"})", "NOT_FOUND",
       "rui has no session"},
      {R"({"do": "advance", "seconds": -1})", "INVALID_ARGUMENT",
       "seconds must be 0..1 year"},
      {R"({"do": "sit", "player": "ana", "seat": 1, "buy_in": 500})",
       "INVALID_ARGUMENT", "roulette has no buy-in"},
      {R"({"do": "deal", "deck": ["As"]})", "INVALID_ARGUMENT",
       "does not apply"},
      {R"({"do": "act", "player": "ana", "action": "hit"})", "INVALID_ARGUMENT",
       "does not apply"},
      {R"({"do": "timeout", "player": "ana"})", "INVALID_ARGUMENT",
       "does not apply"},
  };
  for (const Bad& b : bad) {
    const Json after =
        Play(Roulette("roulette_french", "{}", b.step + "," + good), &code);
    ASSERT_EQ(code, scenario::kScenarioPlayed) << b.step << after.dump(2);
    EXPECT_EQ(after["steps"][0]["code"], b.code) << b.step;
    EXPECT_THAT(after["steps"][0].value("message", ""), HasSubstr(b.message))
        << b.step;
    for (size_t i = 1; i < after["steps"].size(); ++i) {
      EXPECT_EQ(after["steps"][i]["ok"], true) << b.step;
    }
    EXPECT_EQ(after["events"], before["events"]) << b.step;
    EXPECT_EQ(after["players"], before["players"]) << b.step;
    EXPECT_EQ(after["house"], before["house"]) << b.step;
    EXPECT_EQ(after["rounds"], before["rounds"]) << b.step;
    EXPECT_EQ(after["wagers"], 0) << b.step;
    EXPECT_FALSE(after.contains("violations")) << b.step;
  }
}

// The ledger's refusal undoes the engine's acceptance: the next bet is b1
// again and the round settles only what was paid for.
TEST(ScenarioBadInput, RouletteBetAboveTheCashIsRefusedWhole) {
  int code = 0;
  const Json out = Play(Roulette("roulette_french", "{}", R"(
      {"do": "bet", "player": "rui", "bet": "straight", "numbers": [17],
       "amount": 200},
      {"do": "bet", "player": "rui", "bet": "straight", "numbers": [17],
       "amount": 100},
      {"do": "bet", "player": "rui", "bet": "straight", "numbers": [17],
       "amount": 100},
      {"do": "advance", "seconds": 30},
      {"do": "spin", "number": 17})"),
                        &code);
  ASSERT_EQ(code, scenario::kScenarioPlayed) << out.dump(2);
  EXPECT_EQ(out["steps"][0]["ok"], false);
  EXPECT_EQ(out["steps"][1]["ok"], true);
  EXPECT_EQ(out["steps"][2]["ok"], false);  // 50 cents left
  ASSERT_EQ(out["rounds"].size(), 1u);
  ASSERT_EQ(out["rounds"][0]["bets"].size(), 1u);
  EXPECT_EQ(out["rounds"][0]["bets"][0]["bet"], "b1");
  EXPECT_EQ(out["players"]["rui"]["cash"], 150 - 100 + 3600);
  EXPECT_EQ(out["transactions"]["BET"], 1);
  EXPECT_EQ(out["transactions"]["PAYOUT"], 1);
  EXPECT_FALSE(out.contains("violations"));
}

// Withdrawn and void stakes are visible as such in the ledger: BET_RETURNED
// for a bet taken back, VOID_REFUND for a round the system voided.
TEST(ScenarioBadInput, RouletteRefundsAreLabelledByWhyTheyWereRefunded) {
  int code = 0;
  const Json out = Play(Roulette("roulette_french", "{}", R"(
      {"do": "bet", "player": "ana", "bet": "red", "amount": 100},
      {"do": "bet", "player": "ana", "bet": "black", "amount": 100},
      {"do": "fail"},
      {"do": "bet", "player": "ana", "bet": "red", "amount": 100},
      {"do": "leave", "player": "ana"})"),
                        &code);
  ASSERT_EQ(code, scenario::kScenarioPlayed) << out.dump(2);
  EXPECT_EQ(out["transactions"]["BET"], 3);
  EXPECT_EQ(out["transactions"]["VOID_REFUND"], 2);
  EXPECT_EQ(out["transactions"]["BET_RETURNED"], 1);
  EXPECT_EQ(out["players"]["ana"]["cash"], 100000);
  EXPECT_EQ(out["wagers"], 0);
  EXPECT_EQ(out["sessions"]["ana"]["ended"], "left");
  ASSERT_EQ(out["rounds"].size(), 2u);
  EXPECT_EQ(out["rounds"][0]["void"], true);
  EXPECT_EQ(out["rounds"][1]["result"], "in progress");
  EXPECT_FALSE(out.contains("violations"));
}

}  // namespace
}  // namespace banca::cli
