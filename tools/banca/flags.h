// A small --key=value parser for the banca subcommands. Unknown flags are
// errors, so a typo never silently falls back to a default.
#ifndef BANCA_TOOLS_BANCA_FLAGS_H_
#define BANCA_TOOLS_BANCA_FLAGS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace banca::cli {

class Flags {
 public:
  // Parses argv[first..]; `known` lists the flag names the command accepts.
  // Positional arguments are kept in order.
  static absl::StatusOr<Flags> Parse(int argc, char** argv, int first,
                                     const std::set<std::string>& known);

  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  std::string Get(const std::string& name, const std::string& fallback) const;
  absl::StatusOr<int64_t> GetInt(const std::string& name,
                                 int64_t fallback) const;
  bool GetBool(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

}  // namespace banca::cli

#endif  // BANCA_TOOLS_BANCA_FLAGS_H_
