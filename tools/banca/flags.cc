#include "tools/banca/flags.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace banca::cli {

absl::StatusOr<Flags> Flags::Parse(int argc, char** argv, int first,
                                   const std::set<std::string>& known) {
  Flags flags;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      flags.positional_.push_back(arg);
      continue;
    }
    arg = arg.substr(2);
    std::string name = arg, value = "true";
    if (const size_t eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0 &&
               known.count(name) && name != "follow" && name != "json") {
      value = argv[++i];
    }
    if (!known.count(name)) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", name));
    }
    flags.values_[name] = value;
  }
  return flags;
}

std::string Flags::Get(const std::string& name,
                       const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

absl::StatusOr<int64_t> Flags::GetInt(const std::string& name,
                                      int64_t fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  int64_t v;
  if (!absl::SimpleAtoi(it->second, &v)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", name, " expects an integer, got \"", it->second, "\""));
  }
  return v;
}

bool Flags::GetBool(const std::string& name) const {
  auto it = values_.find(name);
  return it != values_.end() && it->second != "false" && it->second != "0";
}

}  // namespace banca::cli
