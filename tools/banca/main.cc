// banca: one binary for the services, the auditor's tools and the benchmarks.
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "absl/synchronization/mutex.h"
#include "tools/banca/commands.h"

namespace {

constexpr char kUsage[] =
    "usage: banca <command> [flags]\n"
    "\n"
    "  serve --services=wallet[,table] --data-dir=DIR [--log=embedded]\n"
    "        [--grpc-port=7070] [--grpc-address=0.0.0.0] "
    "[--metrics-port=9464]\n"
    "        [--partitions=8] [--currency=EUR] [--token-key-file=PATH]\n"
    "        [--wallet-group=NAME [--wallet-session-timeout-ms=10000]]\n"
    "                         run services over gRPC (table needs the token\n"
    "                         key: the file or BANCA_TOKEN_KEY); wallets of\n"
    "                         one --wallet-group share the wallet topic\n"
    "  token issue --subject=ID --role=player|operator|finance|auditor|"
    "service\n"
    "        [--ttl-seconds=3600] [--token-key-file=PATH]\n"
    "                         print a signed caller token\n"
    "  log stats --data-dir=DIR\n"
    "  log tail --data-dir=DIR [--n=20] [--topic=T]\n"
    "                         inspect the event log (server stopped)\n"
    "  audit verify --data-dir=DIR [--log=embedded|kafka://H:P] [--json]\n"
    "                         check CRCs and sequences, rebuild projections,\n"
    "                         compare hashes, reconcile the ledger\n"
    "  report ggr --data-dir=DIR [--log=...] [--timezone=Europe/Lisbon]\n"
    "        [--from=YYYY-MM-DD] [--to=YYYY-MM-DD] [--json]\n"
    "                         gross gaming revenue per game and day,\n"
    "                         reconciled with the ledger (docs/reports.md)\n"
    "  bench ledger|log|wallet|rebuild|eval|holdem [flags]\n"
    "                         benchmarks; each prints one JSON object\n"
    "  demo --target=HOST:PORT [--players=200] [--operations=20000]\n"
    "       [--concurrency=32]\n"
    "                         drive a player workload against a wallet\n"
    "  scenario run FILE.json   play a scripted poker table "
    "(docs/scenarios.md);\n"
    "                         exit 2 malformed file, 3 game not supported\n"
    "  hands replay FILE.phh [--format=json]\n"
    "                         replay a PHH hand history through the engine\n"
    "                         (docs/hand-histories.md); exit 2 malformed\n"
    "                         file or illegal action\n"
    "  hands export --table=ID [--format=phh|text] [--out=FILE]\n"
    "        [--log=DIR|kafka://H:P | --data-dir=DIR]\n"
    "                         every hand of a table from the log, as PHH or\n"
    "                         text (all hole cards: operator and auditors);\n"
    "                         exit 3 no such table, 4 some hands not written\n";

}  // namespace

int main(int argc, char** argv) {
  // Everything banca creates is its user's alone: the log holds the decks
  // and shoes, the projections every balance, an export every hole card
  // (docs/security.md "Tables and hidden cards"). Files are 0600 and
  // directories 0700 whatever mode a library asks for (RocksDB's 0644
  // files and 0755 directories included), set before any command runs.
  umask(077);
  // Debian's Abseil is built with deadlock detection on, which records a
  // lock graph on every acquisition. The ledger locks shards in one global
  // order (see libs/ledger/ledger.cc), so the graph only costs time.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  if (argc < 2 || !std::strcmp(argv[1], "--help") ||
      !std::strcmp(argv[1], "help")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
  if (command == "serve") return banca::cli::ServeCommand(argc, argv);
  if (command == "log") return banca::cli::LogCommand(argc, argv);
  if (command == "audit") return banca::cli::AuditCommand(argc, argv);
  if (command == "bench") return banca::cli::BenchCommand(argc, argv);
  if (command == "demo") return banca::cli::DemoCommand(argc, argv);
  if (command == "scenario") return banca::cli::ScenarioCommand(argc, argv);
  if (command == "hands") return banca::cli::HandsCommand(argc, argv);
  if (command == "token") return banca::cli::TokenCommand(argc, argv);
  if (command == "report") return banca::cli::ReportCommand(argc, argv);
  std::fprintf(stderr, "banca: unknown command \"%s\"\n\n%s", command.c_str(),
               kUsage);
  return 2;
}
