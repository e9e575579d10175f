// The --wallet-target, --table-target, --tournament-target and
// --reporting-target flags of the commands whose bots call several
// services (`banca demo games`, `banca tournament-bots`): each a list of
// a service's processes, HOST:PORT,HOST:PORT (tools/bench/service_route.h);
// a service not listed is at --target.
#ifndef BANCA_TOOLS_BANCA_SERVICE_TARGET_FLAGS_H_
#define BANCA_TOOLS_BANCA_SERVICE_TARGET_FLAGS_H_

#include <string>

#include "absl/status/statusor.h"
#include "tools/bench/service_route.h"
#include "tools/cli/flags.h"

namespace banca::cli {

struct ServiceTargetFlags {
  std::string wallet, table, tournament, reporting;
};

void AddServiceTargetFlags(CLI::App& command, ServiceTargetFlags& flags);

// The lists parsed; INVALID_ARGUMENT naming the flag and the bad address.
absl::StatusOr<bench::ServiceTargets> ParseServiceTargets(
    const ServiceTargetFlags& flags);

// Where the calls go, for a progress line: `target`, then each service
// listed apart ("127.0.0.1:7070; wallet a:1,b:2; table c:3").
std::string DescribeTargets(const ServiceTargetFlags& flags,
                            const std::string& target);

}  // namespace banca::cli

#endif  // BANCA_TOOLS_BANCA_SERVICE_TARGET_FLAGS_H_
