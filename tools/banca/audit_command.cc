// banca audit verify --data-dir=DIR [--log=embedded|kafka://HOST:PORT]
//                    [--deck-key-file=PATH] [--json] [--quiet]
#include <cstdio>
#include <memory>
#include <string>

#include "services/audit/audit.h"
#include "tools/banca/commands.h"

namespace banca::cli {
namespace {

struct VerifyFlags {
  std::string data_dir;
  std::string log = "embedded";
  std::string deck_key_file;
  bool json = false;
  bool quiet = false;
};

int Verify(const VerifyFlags& flags) {
  audit::AuditOptions options{.log_spec = flags.log,
                              .deck_key_file = flags.deck_key_file};
  if (!flags.quiet) {
    // On stderr, so stdout stays the report (one JSON object with --json).
    options.progress = [](const std::string& line) {
      std::fprintf(stderr, "%s\n", line.c_str());
    };
  }
  auto report = audit::VerifyDataDir(flags.data_dir, options);
  if (!report.ok()) {
    return Complain("banca audit verify", report.status().ToString(), 1);
  }

  if (flags.json) {
    std::printf("%s\n", audit::AuditReportJson(*report).c_str());
  } else {
    std::fputs(audit::FormatAuditReport(*report).c_str(), stdout);
  }
  return report->ok() ? 0 : 1;
}

}  // namespace

void AddAuditCommand(CLI::App& banca, Action* action) {
  CLI::App* audit = banca.add_subcommand(
      "audit", "check the event log and the projections built from it");
  audit->require_subcommand(1);
  CLI::App* verify = audit->add_subcommand(
      "verify", "check the log, the projections and the ledger");
  verify->footer(
      "Checks CRCs and sequences, rebuilds the projections and compares "
      "their hashes, reconciles the ledger and every table and tournament "
      "topic, and replays every tournament from its recorded hands. The "
      "server may keep running: the audit reads the range of the log there "
      "was when it began (listed), and the projections as of their last "
      "flush. Nothing in DIR changes: a read-only copy can be audited. A "
      "progress line goes to stderr every 2 s on long runs (--quiet: "
      "none). Amounts are in the wallet's "
      "currency; --json lists every problem with its kind and place, the "
      "audited range and the version (docs/operator-guide.md).\n"
      "Exit 0 every check passed, 1 a problem (listed) or an unreadable "
      "log, 2 usage.");
  auto flags = std::make_shared<VerifyFlags>();
  verify
      ->add_option("--data-dir", flags->data_dir, "the server's data directory")
      ->required();
  verify->add_option("--log", flags->log, "embedded, or kafka://HOST:PORT");
  verify->add_option("--deck-key-file", flags->deck_key_file,
                     "the table hosts' deck keys, to replay the tournaments' "
                     "hands (default: DATA_DIR/deck.key when there is one)");
  AddSwitch(*verify, "--json", flags->json, "print one JSON object");
  AddSwitch(*verify, "--quiet", flags->quiet, "no progress line on stderr");
  OnParsed(*verify, action, [flags] { return Verify(*flags); });
}

}  // namespace banca::cli
