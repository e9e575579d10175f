// `banca hands SUBCOMMAND ...` (see libs/hand_history/hands.h and
// services/audit/hands_export.h).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/eventlog/log_backend.h"
#include "libs/hand_history/hands.h"
#include "libs/seal/deck_keys.h"
#include "services/audit/hands_export.h"
#include "tools/banca/commands.h"

namespace banca::cli {
namespace {

struct ReplayFlags {
  std::string file;
  std::string format = "json";
};

int Replay(const ReplayFlags& flags) {
  const hand_history::HandsRun run = hand_history::ReplayHandFile(flags.file);
  std::fprintf(stdout, "%s\n", run.json.c_str());
  if (run.exit_code == hand_history::kHandsOk) return run.exit_code;
  return Complain("banca hands replay", run.error, run.exit_code);
}

int ExportFail(int code, const std::string& why) {
  return Complain("banca hands export", why, code);
}

struct ExportFlags {
  std::string table;
  std::string tournament;
  std::string deck_key_file;
  std::string format = "phh";
  std::string log;
  std::string data_dir;
  std::string out;
};

// The log named by --log / --data-dir, read as it is: an embedded log
// directory must exist (opening one creates nothing in a missing place).
absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenExportLog(
    const ExportFlags& flags) {
  const std::string& spec = flags.log;
  const std::string& data_dir = flags.data_dir;
  if (absl::StartsWith(spec, "kafka://"))
    return eventlog::OpenLogBackend(spec, "");
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
  return eventlog::OpenExistingEmbeddedLog(std::move(dir));
}

// The deck keys a tournament's hands open with: --deck-key-file, else
// DATA_DIR/deck.key if there is one; none (nullopt) otherwise: the export
// then takes the decks the hands revealed when they ended.
absl::StatusOr<std::optional<seal::DeckKeys>> ExportDeckKeys(
    const ExportFlags& flags) {
  std::string path = flags.deck_key_file;
  if (path.empty() && !flags.data_dir.empty() &&
      std::filesystem::exists(flags.data_dir + "/deck.key")) {
    path = flags.data_dir + "/deck.key";
  }
  if (path.empty()) return std::nullopt;
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::ostringstream text;
  text << in.rdbuf();
  return seal::DeckKeys::FromKeyFileText(text.str());
}

int Export(const ExportFlags& flags) {
  const bool tournament = !flags.tournament.empty();
  const std::string& table_id = tournament ? flags.tournament : flags.table;
  if (table_id.empty() || (tournament && !flags.table.empty())) {
    return ExportFail(audit::kExportUsage,
                      "one of --table=ID or --tournament=ID is required");
  }
  const std::string& format_name = flags.format;
  audit::ExportFormat format = audit::ExportFormat::kPhh;
  if (format_name == "text") {
    format = audit::ExportFormat::kText;
  } else if (format_name != "phh") {
    return ExportFail(audit::kExportUsage,
                      absl::StrCat("--format must be phh or text, got \"",
                                   format_name, "\""));
  }
  const std::string& out_path = flags.out;
  auto log = OpenExportLog(flags);
  if (!log.ok()) {
    return ExportFail(absl::IsInvalidArgument(log.status())
                          ? audit::kExportUsage
                          : audit::kExportFailed,
                      std::string(log.status().message()));
  }
  // Into memory first: a failed export leaves no partial FILE behind.
  std::ostringstream text;
  audit::HandsExportResult r;
  if (tournament) {
    absl::StatusOr<std::optional<seal::DeckKeys>> keys = ExportDeckKeys(flags);
    if (!keys.ok()) {
      return ExportFail(absl::IsInvalidArgument(keys.status())
                            ? audit::kExportUsage
                            : audit::kExportFailed,
                        std::string(keys.status().message()));
    }
    r = audit::ExportTournamentHands(
        **log, table_id, keys->has_value() ? &**keys : nullptr, format, text);
  } else {
    r = audit::ExportTableHands(**log, table_id, format, text);
  }
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
      return ExportFail(audit::kExportFailed,
                        absl::StrCat("cannot write ", out_path));
    }
  }
  std::fprintf(
      stderr, "banca hands export: %s %s: %lld hands written%s%s%s\n",
      tournament ? "tournament" : "table", table_id.c_str(),
      static_cast<long long>(r.hands_written), out_path.empty() ? "" : " to ",
      out_path.c_str(),
      r.skipped.empty()
          ? ""
          : absl::StrCat(", ", r.skipped.size(), " not written").c_str());
  return r.exit_code;
}

void AddReplay(CLI::App& hands, Action* action) {
  CLI::App* replay = hands.add_subcommand(
      "replay", "replay a PHH hand history through banca's engine");
  replay->footer(
      "Prints one JSON object per hand (docs/hand-histories.md).\n"
      "Exit 0 replayed, 1 I/O or internal error, 2 malformed or unsupported "
      "file, an illegal action, or usage.");
  auto flags = std::make_shared<ReplayFlags>();
  replay->add_option("FILE", flags->file, "FILE.phh or FILE.phhs")->required();
  replay->add_option("--format", flags->format, "the output: json")
      ->check(CLI::IsMember({"json"}));
  OnParsed(*replay, action, [flags] { return Replay(*flags); });
}

void AddExport(CLI::App& hands, Action* action) {
  CLI::App* to =
      hands.add_subcommand("export",
                           "every hand of a poker table or a tournament from "
                           "the log, as PHH or text");
  to->footer(
      "Rebuilds every finished hand of the table from the event log and "
      "writes it as PHH (one [N] table per hand, as PokerKit's .phhs) or as "
      "text, with every hole card shown: for the operator and auditors. The "
      "server must be stopped for an embedded log.\n"
      "Exit 0 written, 1 the log cannot be read or FILE written, 2 usage, "
      "3 no such table (or tournament) in the log, 4 some hands could not be "
      "written (each "
      "named on stderr; the others are written).");
  auto flags = std::make_shared<ExportFlags>();
  to->add_option("--table", flags->table, "the table id");
  to->add_option("--tournament", flags->tournament,
                 "a tournament's id: every hand of its tables (chips)");
  to->add_option("--deck-key-file", flags->deck_key_file,
                 "the deck keys a tournament's sealed decks open with (else "
                 "DATA_DIR/deck.key if any; without, the decks the hands "
                 "revealed when they ended)");
  to->add_option("--format", flags->format, "phh or text");
  to->add_option("--log", flags->log,
                 "the embedded log's directory (or a data directory holding "
                 "log/), or kafka://HOST:PORT");
  to->add_option("--data-dir", flags->data_dir,
                 "a data directory, with --log=embedded or no --log");
  to->add_option("--out", flags->out, "the file to write (else stdout)");
  OnParsed(*to, action, [flags] { return Export(*flags); });
}

}  // namespace

void AddHandsCommand(CLI::App& banca, Action* action) {
  CLI::App* hands =
      banca.add_subcommand("hands", "hand histories (docs/hand-histories.md)");
  hands->require_subcommand(1);
  AddReplay(*hands, action);
  AddExport(*hands, action);
}

}  // namespace banca::cli
