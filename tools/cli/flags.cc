#include "tools/cli/flags.h"

#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace banca::cli {
namespace {

constexpr int kMaxDepth = 8;  // banca, a command, a subcommand: far fewer

std::string Bounds(int64_t min, int64_t max, int64_t lowest, int64_t highest) {
  if (min != lowest && max != highest) return absl::StrCat(min, "..", max);
  if (min != lowest) return absl::StrCat("at least ", min);
  if (max != highest) return absl::StrCat("at most ", max);
  return "";
}

// The subcommand the parse reached (itself when none), and its path from
// the top, e.g. "banca bench log".
std::pair<const CLI::App*, std::string> Reached(const CLI::App& app) {
  const CLI::App* at = &app;
  std::string path = app.get_name();
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    const std::vector<CLI::App*> parsed = at->get_subcommands();
    if (parsed.empty()) break;
    at = parsed.back();
    absl::StrAppend(&path, " ", at->get_name());
  }
  return {at, path};
}

// CLI11's message, said the way banca's commands say it.
std::string Why(const CLI::ParseError& e, const CLI::App& at) {
  std::string why = e.what();
  constexpr absl::string_view kOverride =
      " was given a disallowed flag override";
  if (absl::EndsWith(why, kOverride)) {
    std::string name = why.substr(0, why.size() - kOverride.size());
    if (!absl::StartsWith(name, "-")) name = "--" + name;
    return absl::StrCat(name, " takes no value");
  }
  if (why == "A subcommand is required") {
    std::vector<std::string> names;
    for (const CLI::App* sub : at.get_subcommands({})) {
      names.push_back(sub->get_name());
    }
    const std::vector<std::string> rest = at.remaining();
    if (!rest.empty()) {
      return absl::StrCat("unknown command \"", rest.front(), "\" (one of ",
                          absl::StrJoin(names, ", "), ")");
    }
    return absl::StrCat("a command is required: one of ",
                        absl::StrJoin(names, ", "));
  }
  return why;
}

}  // namespace

void ConfigureApp(CLI::App& app, const std::string& version) {
  // Inherited by every subcommand added after this.
  app.option_defaults()->always_capture_default()->multi_option_policy(
      CLI::MultiOptionPolicy::TakeLast);
  app.set_version_flag("--version", absl::StrCat(app.get_name(), " ", version),
                       "print the version and exit");
  app.set_help_flag("-h,--help", "print this help and exit");
  app.require_subcommand(1);
}

void OnParsed(CLI::App& command, Action* chosen, Action action) {
  command.callback([chosen, action = std::move(action)] { *chosen = action; });
}

CLI::Validator IntegerIn(int64_t min, int64_t max, int64_t lowest,
                         int64_t highest) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        int64_t value = 0;
        if (!absl::SimpleAtoi(text, &value)) {
          return absl::StrCat("expects an integer, got \"", text, "\"");
        }
        if (value < min || value > max) {
          // The bound it broke, said as help says it; an int flag's own
          // limits in full.
          std::string range = value < min
                                  ? Bounds(min, highest, lowest, highest)
                                  : Bounds(lowest, max, lowest, highest);
          if (range.empty() || (min != lowest && max != highest)) {
            range = absl::StrCat(min, "..", max);
          }
          return absl::StrCat("must be ", range, ", got ", value);
        }
        text = absl::StrCat(value);  // what CLI11 converts: plain decimal
        return "";
      },
      Bounds(min, max, lowest, highest));
}

CLI::Option* AddSwitch(CLI::App& app, const std::string& name, bool& value,
                       const std::string& help) {
  return app.add_flag(name, value, help)->disable_flag_override();
}

std::optional<int> Parse(CLI::App& app, int argc, const char* const* argv,
                         std::ostream& out, std::ostream& err) {
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    const auto [at, path] = Reached(app);
    err << path << ": " << Why(e, *at) << "\nRun \"" << path
        << " --help\" for its flags.\n";
    return kUsageError;
  }
}

int Complain(std::string_view command, std::string_view why, int exit_status,
             std::ostream& err) {
  err << command << ": " << why << "\n";
  return exit_status;
}

int Complain(std::string_view command, const absl::Status& status,
             int exit_status, std::ostream& err) {
  const absl::string_view message = status.message();
  return Complain(command, std::string_view(message.data(), message.size()),
                  exit_status, err);
}

}  // namespace banca::cli
