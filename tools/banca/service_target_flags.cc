#include "tools/banca/service_target_flags.h"

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"

namespace banca::cli {
namespace {

absl::Status ParseInto(const std::string& flag, const std::string& list,
                       std::vector<std::string>& members) {
  if (list.empty()) return absl::OkStatus();
  absl::StatusOr<std::vector<std::string>> parsed =
      bench::ParseRouteMembers(list);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, ": ", parsed.status().message()));
  }
  members = *std::move(parsed);
  return absl::OkStatus();
}

}  // namespace

void AddServiceTargetFlags(CLI::App& command, ServiceTargetFlags& flags) {
  command.add_option("--wallet-target", flags.wallet,
                     "the wallet's processes (a --wallet-group), "
                     "HOST:PORT,HOST:PORT (default: --target)");
  command.add_option("--table-target", flags.table,
                     "the table processes (a --table-group), "
                     "HOST:PORT,HOST:PORT (default: --target)");
  command.add_option("--tournament-target", flags.tournament,
                     "the tournament processes, HOST:PORT,HOST:PORT "
                     "(default: --target)");
  command.add_option("--reporting-target", flags.reporting,
                     "the reporting processes, HOST:PORT,HOST:PORT "
                     "(default: --target)");
}

std::string DescribeTargets(const ServiceTargetFlags& flags,
                            const std::string& target) {
  std::string out = target;
  for (const auto& [name, list] :
       {std::pair{"wallet", &flags.wallet}, std::pair{"table", &flags.table},
        std::pair{"tournament", &flags.tournament},
        std::pair{"reporting", &flags.reporting}}) {
    if (!list->empty()) absl::StrAppend(&out, "; ", name, " ", *list);
  }
  return out;
}

absl::StatusOr<bench::ServiceTargets> ParseServiceTargets(
    const ServiceTargetFlags& flags) {
  bench::ServiceTargets out;
  for (auto [flag, list, members] :
       {std::tuple{"--wallet-target", &flags.wallet, &out.wallet},
        std::tuple{"--table-target", &flags.table, &out.table},
        std::tuple{"--tournament-target", &flags.tournament, &out.tournament},
        std::tuple{"--reporting-target", &flags.reporting, &out.reporting}}) {
    RETURN_IF_ERROR(ParseInto(flag, *list, *members));
  }
  return out;
}

}  // namespace banca::cli
