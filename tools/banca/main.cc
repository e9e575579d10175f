// banca: one binary for the services, the auditor's tools and the benchmarks.
// `banca --help` lists the commands, `banca COMMAND --help` their flags.
#include <sys/stat.h>

#include <cstring>
#include <iostream>

#include "absl/synchronization/mutex.h"
#include "tools/banca/commands.h"

#ifndef BANCA_VERSION
#error "BANCA_VERSION comes from project(VERSION) (tools/banca/CMakeLists.txt)"
#endif

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

  CLI::App banca(
      "banca: the services, the auditor's tools and the benchmarks of an "
      "event-sourced casino ledger.",
      "banca");
  banca::cli::ConfigureApp(banca, BANCA_VERSION);
  banca::cli::Action action;
  banca::cli::AddServeCommand(banca, &action);
  banca::cli::AddTokenCommand(banca, &action);
  banca::cli::AddLogCommand(banca, &action);
  banca::cli::AddAuditCommand(banca, &action);
  banca::cli::AddReportCommand(banca, &action);
  banca::cli::AddReportingCommand(banca, &action);
  banca::cli::AddScenarioCommand(banca, &action);
  banca::cli::AddHandsCommand(banca, &action);
  banca::cli::AddBenchCommand(banca, &action);
  banca::cli::AddDemoCommand(banca, &action);
  banca::cli::AddTournamentBotsCommand(banca, &action);
  banca.footer(
      "Run \"banca COMMAND --help\" for a command's flags. A flag's value "
      "goes after = or a space (--n=5, --n 5); on/off flags take none.");
  if (argc < 2) {
    std::cerr << banca.help();
    return banca::cli::kUsageError;
  }
  if (argc == 2 && !std::strcmp(argv[1], "help")) {
    std::cout << banca.help();
    return 0;
  }
  if (auto stop = banca::cli::Parse(banca, argc, argv)) return *stop;
  return action ? action() : banca::cli::kUsageError;
}
