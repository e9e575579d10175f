// banca reporting rebuild --data-dir=DIR [--log=embedded|kafka://HOST:PORT]
//                         [--json]
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/common/json_text.h"
#include "libs/eventlog/log_backend.h"
#include "libs/projection/reporting_rebuild.h"
#include "nlohmann/json.hpp"
#include "tools/banca/commands.h"

namespace banca::cli {
namespace {

struct RebuildFlags {
  std::string data_dir;
  std::string log = "embedded";
  bool json = false;
};

int Rebuild(const RebuildFlags& flags) {
  absl::StatusOr<std::unique_ptr<eventlog::EventLog>> log =
      absl::StartsWith(flags.log, "kafka://")
          ? eventlog::OpenLogBackend(flags.log, "")
          : eventlog::OpenExistingEmbeddedLog(flags.data_dir + "/log");
  if (!log.ok()) {
    return Complain("banca reporting rebuild", log.status().ToString(), 1);
  }
  // Scratch space outside the data directory: it is only read.
  const std::string scratch =
      absl::StrCat("/tmp/banca-reporting-rebuild-", getpid());
  absl::StatusOr<projection::RebuildResult> r = projection::RebuildReporting(
      **log, flags.data_dir + "/projections/reporting", scratch);
  if (!r.ok()) {
    return Complain("banca reporting rebuild", r.status().ToString(), 1);
  }
  if (flags.json) {
    nlohmann::json j = {{"live", r->live},
                        {"live_hash", r->live_hash},
                        {"rebuilt_hash", r->rebuilt_hash},
                        {"equal", r->equal()},
                        {"records", r->records},
                        {"keys", r->keys}};
    std::printf("%s\n", JsonText(j).c_str());
  } else {
    std::printf("rebuilt   %s  (%lld records, %lld keys)\n",
                r->rebuilt_hash.c_str(), static_cast<long long>(r->records),
                static_cast<long long>(r->keys));
    if (r->live) {
      std::printf("live      %s  (%s)\n", r->live_hash.c_str(),
                  r->equal() ? "equal" : "DIFFERENT");
    } else {
      std::printf("live      none: the reporting service has not run here\n");
    }
    std::printf("RESULT: %s\n", r->equal() ? "OK" : "DIFFERENT");
  }
  return r->equal() ? 0 : 1;
}

}  // namespace

void AddReportingCommand(CLI::App& banca, Action* action) {
  CLI::App* reporting =
      banca.add_subcommand("reporting", "the reporting service's projections");
  reporting->require_subcommand(1);
  CLI::App* rebuild = reporting->add_subcommand(
      "rebuild",
      "rebuild the reporting projections from offset 0 and compare hashes");
  rebuild->footer(
      "Rebuilds DATA_DIR/projections/reporting from the log into a scratch "
      "directory, up to the offsets the live projections hold, and compares "
      "the two state hashes; the server must be stopped for an embedded "
      "log.\nExit 0 equal (or no live projections), 1 different or an "
      "error, 2 usage.");
  auto flags = std::make_shared<RebuildFlags>();
  rebuild
      ->add_option("--data-dir", flags->data_dir, "the server's data directory")
      ->required();
  rebuild->add_option("--log", flags->log, "embedded, or kafka://HOST:PORT");
  AddSwitch(*rebuild, "--json", flags->json, "print one JSON object");
  OnParsed(*rebuild, action, [flags] { return Rebuild(*flags); });
  AddReportingGamesCommand(*reporting, action);
}

}  // namespace banca::cli
