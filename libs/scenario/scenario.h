// `banca scenario run FILE.json`: plays a scripted table (docs/scenarios.md,
// /work/shared/SCENARIOS.md) through the production engines, ledger and an
// embedded event log in a temporary directory, with the deck given by the
// file, and reports the outcome as one JSON object.
//
// Every game of SCENARIOS.md: the poker cash games (holdem, omaha,
// synthetic), the banked games (blackjack, roulette_french,
// roulette_american, stud_no_draw) and tournaments.
#ifndef BANCA_LIBS_SCENARIO_SCENARIO_H_
#define BANCA_LIBS_SCENARIO_SCENARIO_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace banca::scenario {

// Exit statuses of `banca scenario run`.
inline constexpr int kScenarioPlayed = 0;       // even with rejected steps
inline constexpr int kScenarioFailed = 1;       // I/O or an internal error
inline constexpr int kScenarioMalformed = 2;    // the file itself is bad
inline constexpr int kScenarioUnsupported = 3;  // a game not built yet

struct ScenarioRun {
  int exit_code = kScenarioFailed;
  // The output object (exit 0), or {"error": "..."} otherwise; one line.
  std::string json;
};

// Plays the scenario in `text`. `work_dir` is where the temporary event log
// goes ("" = $TMPDIR or /tmp); it is removed afterwards.
ScenarioRun RunScenario(std::string_view text,
                        const std::string& work_dir = "");
ScenarioRun RunScenarioFile(const std::string& path,
                            const std::string& work_dir = "");

}  // namespace banca::scenario

#endif  // BANCA_LIBS_SCENARIO_SCENARIO_H_
