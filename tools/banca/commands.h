// The banca commands. Each adds its subcommand, with its flags, to the
// program's CLI::App; the one the command line names leaves its action in
// `*action`, which returns the process exit status.
#ifndef BANCA_TOOLS_BANCA_COMMANDS_H_
#define BANCA_TOOLS_BANCA_COMMANDS_H_

#include "tools/cli/flags.h"

namespace banca::cli {

void AddServeCommand(CLI::App& banca, Action* action);
void AddTokenCommand(CLI::App& banca, Action* action);
void AddLogCommand(CLI::App& banca, Action* action);
void AddAuditCommand(CLI::App& banca, Action* action);
void AddReportCommand(CLI::App& banca, Action* action);
void AddReportingCommand(CLI::App& banca, Action* action);
// `banca reporting games` (reporting_games_command.cc), added by
// AddReportingCommand.
void AddReportingGamesCommand(CLI::App& reporting, Action* action);
// `banca report close` (report_close_command.cc), added by AddReportCommand.
void AddReportCloseCommand(CLI::App& report, Action* action);
void AddBenchCommand(CLI::App& banca, Action* action);
// `banca bench rtp` (rtp_command.cc), added by AddBenchCommand.
void AddBenchRtpCommand(CLI::App& bench, Action* action);
void AddDemoCommand(CLI::App& banca, Action* action);
void AddTournamentBotsCommand(CLI::App& banca, Action* action);
void AddScenarioCommand(CLI::App& banca, Action* action);
void AddHandsCommand(CLI::App& banca, Action* action);

}  // namespace banca::cli

#endif  // BANCA_TOOLS_BANCA_COMMANDS_H_
