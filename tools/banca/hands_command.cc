// `banca hands SUBCOMMAND ...` (see tools/banca/hands.h and
// tools/banca/hands_export.h).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/eventlog/embedded_log.h"
#include "tools/banca/commands.h"
#include "tools/banca/flags.h"
#include "tools/banca/hands.h"
#include "tools/banca/hands_export.h"
#include "tools/banca/log_backend.h"

namespace banca::cli {
namespace {

constexpr char kHandsUsage[] =
    "usage: banca hands replay FILE.phh|FILE.phhs [--format=json]\n"
    "  replays a PHH hand history through banca's engine and prints one\n"
    "  JSON object per hand (docs/hand-histories.md).\n"
    "  exit 0 replayed, 1 I/O or internal error, 2 malformed or unsupported\n"
    "  file or an illegal action\n"
    "\n"
    "usage: banca hands export --table=ID [--format=phh|text]\n"
    "         [--log=DIR|kafka://HOST:PORT | --data-dir=DIR] [--out=FILE]\n"
    "  rebuilds every finished hand of a poker table from the event log and\n"
    "  writes it as PHH (one [N] table per hand, as PokerKit's .phhs) or as\n"
    "  text, with every hole card shown: for the operator and auditors.\n"
    "  --log: the embedded log's directory (or a data directory holding\n"
    "  log/), or Kafka; the server must be stopped for an embedded log.\n"
    "  exit 0 written, 1 the log cannot be read or FILE written, 2 usage,\n"
    "  3 no such table in the log, 4 some hands could not be written (each\n"
    "  named on stderr; the others are written)\n";

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

int ExportFail(int code, const std::string& why) {
  std::fprintf(stderr, "banca hands export: %s\n", why.c_str());
  return code;
}

// The log named by --log / --data-dir, read as it is: an embedded log
// directory must exist (opening one creates nothing in a missing place).
absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenExportLog(
    const Flags& flags) {
  const std::string spec = flags.Get("log", "");
  const std::string data_dir = flags.Get("data-dir", "");
  if (absl::StartsWith(spec, "kafka://")) return OpenLogBackend(spec, "");
  std::string dir;
  if (spec.empty() || spec == "embedded") {
    if (data_dir.empty()) {
      return absl::InvalidArgumentError(
          "--log=DIR|kafka://HOST:PORT or --data-dir=DIR is required");
    }
    dir = data_dir + "/log";
  } else {
    if (!data_dir.empty()) {
      return absl::InvalidArgumentError(
          "--data-dir goes with --log=embedded only");
    }
    dir = spec;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(dir + "/log", ec)) dir += "/log";
  if (!std::filesystem::is_directory(dir, ec)) {
    return absl::NotFoundError(absl::StrCat("no event log at ", dir));
  }
  bool journal = false;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    journal |= name == "LOCK" || absl::EndsWith(name, ".seg");
  }
  if (!journal) {
    return absl::NotFoundError(
        absl::StrCat(dir, " is not an event log (no journal segments)"));
  }
  return eventlog::OpenEmbeddedLog(dir);
}

int Export(int argc, char** argv) {
  auto flags = Flags::Parse(argc, argv, 3,
                            {"table", "format", "log", "data-dir", "out"});
  if (!flags.ok()) return Usage(std::string(flags.status().message()));
  if (!flags->positional().empty()) {
    return Usage(
        absl::StrCat("unexpected argument \"", flags->positional()[0], "\""));
  }
  const std::string table_id = flags->Get("table", "");
  if (table_id.empty() || table_id == "true") {
    return Usage("--table=ID is required");
  }
  const std::string format_name = flags->Get("format", "phh");
  ExportFormat format = ExportFormat::kPhh;
  if (format_name == "text") {
    format = ExportFormat::kText;
  } else if (format_name != "phh") {
    return Usage(absl::StrCat("--format must be phh or text, got \"",
                              format_name, "\""));
  }
  const std::string out_path = flags->Get("out", "");
  if (out_path == "true") return Usage("--out=FILE needs a file name");
  auto log = OpenExportLog(*flags);
  if (!log.ok()) {
    return ExportFail(
        absl::IsInvalidArgument(log.status()) ? kExportUsage : kExportFailed,
        std::string(log.status().message()));
  }
  // Into memory first: a failed export leaves no partial FILE behind.
  std::ostringstream text;
  const HandsExportResult r = ExportTableHands(**log, table_id, format, text);
  log->reset();
  if (!r.error.empty()) return ExportFail(r.exit_code, r.error);
  for (const std::string& line : r.skipped) {
    std::fprintf(stderr, "banca hands export: %s\n", line.c_str());
  }
  if (out_path.empty()) {
    std::cout << text.str() << std::flush;
  } else {
    std::ofstream file(out_path, std::ios::binary | std::ios::trunc);
    file << text.str();
    file.close();
    if (!file) {
      return ExportFail(kExportFailed, absl::StrCat("cannot write ", out_path));
    }
  }
  std::fprintf(
      stderr, "banca hands export: table %s: %lld hands written%s%s%s\n",
      table_id.c_str(), static_cast<long long>(r.hands_written),
      out_path.empty() ? "" : " to ", out_path.c_str(),
      r.skipped.empty()
          ? ""
          : absl::StrCat(", ", r.skipped.size(), " not written").c_str());
  return r.exit_code;
}

struct Subcommand {
  const char* name;
  int (*run)(int argc, char** argv);
};

constexpr Subcommand kSubcommands[] = {
    {"replay", Replay},
    {"export", Export},
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
