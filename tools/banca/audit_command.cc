// banca audit verify --data-dir=DIR [--json]
#include <cstdio>
#include <string>

#include "tools/banca/audit.h"
#include "tools/banca/commands.h"
#include "tools/banca/flags.h"

namespace banca::cli {

int AuditCommand(int argc, char** argv) {
  if (argc < 3 || std::string(argv[2]) != "verify") {
    std::fprintf(stderr,
                 "usage: banca audit verify --data-dir=DIR "
                 "[--log=embedded|kafka://HOST:PORT] [--json]\n");
    return 2;
  }
  auto flags = Flags::Parse(argc, argv, 3, {"data-dir", "json", "log"});
  if (!flags.ok() || flags->Get("data-dir", "").empty()) {
    std::fprintf(stderr, "banca audit verify: %s\n",
                 flags.ok() ? "--data-dir is required"
                            : std::string(flags.status().message()).c_str());
    return 2;
  }
  auto report =
      VerifyDataDir(flags->Get("data-dir", ""), flags->Get("log", "embedded"));
  if (!report.ok()) {
    std::fprintf(stderr, "banca audit verify: %s\n",
                 report.status().ToString().c_str());
    return 1;
  }
  if (flags->GetBool("json")) {
    std::printf("%s\n", AuditReportJson(*report).c_str());
  } else {
    std::fputs(FormatAuditReport(*report).c_str(), stdout);
  }
  return report->ok() ? 0 : 1;
}

}  // namespace banca::cli
