// `banca scenario run FILE.json` (see tools/banca/scenario.h).
#include <cstdio>
#include <cstring>
#include <string>

#include "tools/banca/commands.h"
#include "tools/banca/scenario.h"

namespace banca::cli {

int ScenarioCommand(int argc, char** argv) {
  if (argc != 4 || std::strcmp(argv[2], "run") != 0) {
    std::fprintf(stderr,
                 "usage: banca scenario run FILE.json\n"
                 "  plays a scripted table and prints one JSON object.\n"
                 "  exit 0 played (steps may be rejected), 1 internal error,\n"
                 "  2 malformed file, 3 game not supported yet\n");
    return kScenarioMalformed;
  }
  ScenarioRun run = RunScenarioFile(argv[3]);
  std::fprintf(stdout, "%s\n", run.json.c_str());
  if (run.exit_code != kScenarioPlayed) {
    std::fprintf(stderr, "banca scenario: %s\n", run.json.c_str());
  }
  return run.exit_code;
}

}  // namespace banca::cli
