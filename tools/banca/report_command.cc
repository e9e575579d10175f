// banca report ggr --data-dir=DIR [--log=...] [--timezone=Z] [--from=D]
//                  [--to=D] [--json]
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "libs/eventlog/log_backend.h"
#include "services/audit/ggr_report.h"
#include "tools/banca/commands.h"

namespace banca::cli {
namespace {

struct GgrFlags {
  std::string data_dir;
  std::string log = "embedded";
  std::string timezone = "UTC";
  std::string from;
  std::string to;
  bool json = false;
};

constexpr char kGgr[] = "banca report ggr";

int Ggr(const GgrFlags& flags) {
  if (flags.data_dir.empty() && flags.log == "embedded") {
    return Complain(kGgr, "--data-dir is required with --log=embedded",
                    kUsageError);
  }
  audit::GgrReportOptions options;
  options.zone_name = flags.timezone;
  if (!absl::LoadTimeZone(options.zone_name, &options.zone)) {
    return Complain(kGgr,
                    absl::StrCat("unknown time zone \"", options.zone_name,
                                 "\" (an IANA name such as Europe/Lisbon; "
                                 "the system needs tzdata)"),
                    kUsageError);
  }
  options.from_day = flags.from;
  options.to_day = flags.to;
  auto log = eventlog::OpenLogBackendReadOnly(flags.log, flags.data_dir);
  if (!log.ok()) {
    return Complain(kGgr,
                    absl::StrCat("cannot open the log (is the server still "
                                 "running?): ",
                                 log.status().ToString()),
                    1);
  }
  auto report = audit::BuildGgrReport(**log, options);
  if (!report.ok()) {
    return Complain(kGgr, report.status().ToString(),
                    absl::IsInvalidArgument(report.status()) ? kUsageError : 1);
  }

  if (flags.json) {
    std::printf("%s\n", audit::GgrReportJson(*report).c_str());
  } else {
    std::fputs(audit::FormatGgrReport(*report).c_str(), stdout);
  }
  return report->ok() ? 0 : 1;
}

}  // namespace

void AddReportCommand(CLI::App& banca, Action* action) {
  CLI::App* report = banca.add_subcommand("report", "finance reports");
  report->require_subcommand(1);
  CLI::App* ggr = report->add_subcommand(
      "ggr", "gross gaming revenue per game and day, reconciled");
  ggr->footer(
      "Stakes, returns, void refunds and rake per game and day, checked "
      "against the ledger (docs/reports.md).\n"
      "Exit 0 reconciled, 1 a reconciliation problem or an unreadable log, "
      "2 usage (an unknown flag, a malformed day, an unknown time zone).");
  auto flags = std::make_shared<GgrFlags>();
  ggr->add_option("--data-dir", flags->data_dir,
                  "the server's data directory (required with "
                  "--log=embedded)");
  ggr->add_option("--log", flags->log, "embedded, or kafka://HOST:PORT");
  ggr->add_option("--timezone", flags->timezone,
                  "the IANA zone whose days the rows are, e.g. "
                  "Europe/Lisbon");
  ggr->add_option("--from", flags->from, "first day, YYYY-MM-DD");
  ggr->add_option("--to", flags->to, "last day, YYYY-MM-DD");
  AddSwitch(*ggr, "--json", flags->json, "print one JSON object");
  OnParsed(*ggr, action, [flags] { return Ggr(*flags); });
  AddReportCloseCommand(*report, action);
}

}  // namespace banca::cli
