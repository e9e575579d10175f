// banca report ggr --data-dir=DIR [--log=...] [--timezone=Z] [--from=D]
//                  [--to=D] [--json]
#include <cstdio>
#include <string>

#include "absl/time/time.h"
#include "tools/banca/commands.h"
#include "tools/banca/flags.h"
#include "tools/banca/ggr_report.h"
#include "tools/banca/log_backend.h"

namespace banca::cli {

int ReportCommand(int argc, char** argv) {
  constexpr char kUsage[] =
      "usage: banca report ggr --data-dir=DIR "
      "[--log=embedded|kafka://HOST:PORT] [--timezone=UTC|Europe/Lisbon] "
      "[--from=YYYY-MM-DD] [--to=YYYY-MM-DD] [--json]\n";
  if (argc < 3 || std::string(argv[2]) != "ggr") {
    std::fputs(kUsage, stderr);
    return 2;
  }
  auto flags = Flags::Parse(
      argc, argv, 3, {"data-dir", "log", "timezone", "from", "to", "json"});
  if (!flags.ok()) {
    std::fprintf(stderr, "banca report ggr: %s\n%s",
                 std::string(flags.status().message()).c_str(), kUsage);
    return 2;
  }
  const std::string spec = flags->Get("log", "embedded");
  const std::string data_dir = flags->Get("data-dir", "");
  if (data_dir.empty() && spec == "embedded") {
    std::fprintf(stderr, "banca report ggr: --data-dir is required\n%s",
                 kUsage);
    return 2;
  }
  GgrReportOptions options;
  options.zone_name = flags->Get("timezone", "UTC");
  if (!absl::LoadTimeZone(options.zone_name, &options.zone)) {
    std::fprintf(stderr,
                 "banca report ggr: unknown time zone \"%s\" (an IANA name "
                 "such as Europe/Lisbon; the system needs tzdata)\n",
                 options.zone_name.c_str());
    return 2;
  }
  options.from_day = flags->Get("from", "");
  options.to_day = flags->Get("to", "");
  auto log = OpenLogBackend(spec, data_dir);
  if (!log.ok()) {
    std::fprintf(stderr,
                 "banca report ggr: cannot open the log (is the server still "
                 "running?): %s\n",
                 log.status().ToString().c_str());
    return 1;
  }
  auto report = BuildGgrReport(**log, options);
  if (!report.ok()) {
    std::fprintf(stderr, "banca report ggr: %s\n",
                 report.status().ToString().c_str());
    return absl::IsInvalidArgument(report.status()) ? 2 : 1;
  }
  if (flags->GetBool("json")) {
    std::printf("%s\n", GgrReportJson(*report).c_str());
  } else {
    std::fputs(FormatGgrReport(*report).c_str(), stdout);
  }
  return report->ok() ? 0 : 1;
}

}  // namespace banca::cli
