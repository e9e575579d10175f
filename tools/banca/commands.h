// The banca subcommands. Each returns the process exit status.
#ifndef BANCA_TOOLS_BANCA_COMMANDS_H_
#define BANCA_TOOLS_BANCA_COMMANDS_H_

namespace banca::cli {

int ServeCommand(int argc, char** argv);
int LogCommand(int argc, char** argv);
int AuditCommand(int argc, char** argv);
int BenchCommand(int argc, char** argv);
// `banca bench rtp` (rtp_command.cc), dispatched by BenchCommand.
int BenchRtp(int argc, char** argv);
int DemoCommand(int argc, char** argv);
int ScenarioCommand(int argc, char** argv);
int HandsCommand(int argc, char** argv);
int TokenCommand(int argc, char** argv);

}  // namespace banca::cli

#endif  // BANCA_TOOLS_BANCA_COMMANDS_H_
