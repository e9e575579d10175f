// `banca hands SUBCOMMAND ...` (see tools/banca/hands.h).
#include <cstdio>
#include <string>

#include "tools/banca/commands.h"
#include "tools/banca/flags.h"
#include "tools/banca/hands.h"

namespace banca::cli {
namespace {

constexpr char kHandsUsage[] =
    "usage: banca hands replay FILE.phh [--format=json]\n"
    "  replays a PHH hand history through banca's engine and prints one\n"
    "  JSON object (docs/hand-histories.md).\n"
    "  exit 0 replayed, 1 I/O or internal error, 2 malformed or unsupported\n"
    "  file or an illegal action\n";

int Usage(const std::string& why) {
  if (!why.empty()) std::fprintf(stderr, "banca hands: %s\n\n", why.c_str());
  std::fputs(kHandsUsage, stderr);
  return kHandsBadFile;
}

int Replay(int argc, char** argv) {
  auto flags = Flags::Parse(argc, argv, 3, {"format"});
  if (!flags.ok()) return Usage(std::string(flags.status().message()));
  if (flags->positional().size() != 1) return Usage("one FILE.phh expected");
  if (const std::string format = flags->Get("format", "json");
      format != "json") {
    return Usage("--format: only json is supported");
  }
  const HandsRun run = ReplayHandFile(flags->positional()[0]);
  std::fprintf(stdout, "%s\n", run.json.c_str());
  if (run.exit_code != kHandsOk) {
    std::fprintf(stderr, "banca hands replay: %s\n", run.error.c_str());
  }
  return run.exit_code;
}

struct Subcommand {
  const char* name;
  int (*run)(int argc, char** argv);
};

// More subcommands (an `export` of the table service's hands) go here.
constexpr Subcommand kSubcommands[] = {
    {"replay", Replay},
};

}  // namespace

int HandsCommand(int argc, char** argv) {
  if (argc < 3) return Usage("");
  const std::string sub = argv[2];
  if (sub == "--help" || sub == "help") {
    std::fputs(kHandsUsage, stdout);
    return 0;
  }
  for (const Subcommand& s : kSubcommands) {
    if (sub == s.name) return s.run(argc, argv);
  }
  return Usage("unknown subcommand \"" + sub + "\"");
}

}  // namespace banca::cli
