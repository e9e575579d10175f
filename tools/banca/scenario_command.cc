// `banca scenario run FILE.json` (see libs/scenario/scenario.h).
#include <cstdio>
#include <memory>
#include <string>

#include "libs/scenario/scenario.h"
#include "tools/banca/commands.h"

namespace banca::cli {
namespace {

int Run(const std::string& file) {
  scenario::ScenarioRun run = scenario::RunScenarioFile(file);
  std::fprintf(stdout, "%s\n", run.json.c_str());
  if (run.exit_code != scenario::kScenarioPlayed) {
    std::fprintf(stderr, "banca scenario: %s\n", run.json.c_str());
  }
  return run.exit_code;
}

}  // namespace

void AddScenarioCommand(CLI::App& banca, Action* action) {
  CLI::App* scenario =
      banca.add_subcommand("scenario", "scripted tables (docs/scenarios.md)");
  scenario->require_subcommand(1);
  CLI::App* run = scenario->add_subcommand(
      "run", "play a scenario file and print one JSON object");
  run->footer(
      "Exit 0 played (steps may be rejected), 1 internal error, 2 malformed "
      "file (or usage), 3 game not supported yet.");
  auto file = std::make_shared<std::string>();
  run->add_option("FILE", *file, "the scenario, JSON")->required();
  OnParsed(*run, action, [file] { return Run(*file); });
}

}  // namespace banca::cli
