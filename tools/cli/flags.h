// The command line of the banca program, on CLI11: what every command shares.
// Each command declares its own flags (type, default, help text) on a
// CLI::App; these helpers keep the conventions the same for all of them:
//   - `--flag=value` and `--flag value` both work; given twice, the last wins;
//   - integers are decimal and in range, else the parse fails naming the flag;
//   - an on/off flag takes no value (`--no-fsync 5` is an error);
//   - `--help` anywhere prints that command's help on stdout, exit 0;
//   - any parse error prints `banca <command>: <why>` on stderr, exit 2.
#ifndef BANCA_TOOLS_CLI_FLAGS_H_
#define BANCA_TOOLS_CLI_FLAGS_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"

namespace banca::cli {

// The exit status of a command line that does not parse.
inline constexpr int kUsageError = 2;

// What the parsed command runs; returns the process exit status.
using Action = std::function<int()>;

// The top-level app: banca's conventions, `--help` and `--version`.
void ConfigureApp(CLI::App& app, const std::string& version);

// Leaves `action` in `*chosen` once `command` has parsed (and every
// requirement of the command line held).
void OnParsed(CLI::App& command, Action* chosen, Action action);

// Validates and normalizes a decimal integer in [min, max] (CLI11's own
// conversion would read "010" as octal and clamp an overflow silently).
// A bound equal to the type's own (`lowest`, `highest`) goes unsaid in help.
CLI::Validator IntegerIn(int64_t min, int64_t max,
                         int64_t lowest = std::numeric_limits<int64_t>::min(),
                         int64_t highest = std::numeric_limits<int64_t>::max());

// An integer flag bound to `value`, whose initial value is the default.
template <typename T>
CLI::Option* AddInt(CLI::App& app, const std::string& name, T& value,
                    const std::string& help,
                    int64_t min = std::numeric_limits<T>::min(),
                    int64_t max = std::numeric_limits<T>::max()) {
  static_assert(std::is_signed_v<T> && sizeof(T) <= sizeof(int64_t));
  constexpr int64_t kLowest = std::numeric_limits<T>::min();
  constexpr int64_t kHighest = std::numeric_limits<T>::max();
  return app.add_option(name, value, help)
      ->transform(IntegerIn(std::max(min, kLowest), std::min(max, kHighest),
                            kLowest, kHighest));
}

// An on/off flag: set by its presence, and taking no value.
CLI::Option* AddSwitch(CLI::App& app, const std::string& name, bool& value,
                       const std::string& help);

// Parses argv into `app`. Returns the exit status when the program should
// stop here: 0 after --help or --version (printed on `out`), kUsageError
// after an error (printed on `err`, naming the flag or argument).
std::optional<int> Parse(CLI::App& app, int argc, const char* const* argv,
                         std::ostream& out = std::cout,
                         std::ostream& err = std::cerr);

// How a command says what stopped it: "<command>: <why>" on `err`. Returns
// `exit_status`, for the command to return.
int Complain(std::string_view command, std::string_view why, int exit_status,
             std::ostream& err = std::cerr);
// The same with `status`'s message.
int Complain(std::string_view command, const absl::Status& status,
             int exit_status, std::ostream& err = std::cerr);

}  // namespace banca::cli

#endif  // BANCA_TOOLS_CLI_FLAGS_H_
