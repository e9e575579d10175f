// Which hosted services `banca serve --services=wallet,table` runs: the
// program offers its catalog (the names it knows, each with the services
// it stands for), this picks from it without naming a service itself.
#ifndef BANCA_SERVICES_SERVER_SERVICE_SELECTION_H_
#define BANCA_SERVICES_SERVER_SERVICE_SELECTION_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "services/common/hosted_service.h"

namespace banca::server {

// A name --services accepts and the services it starts, in order (e.g.
// "table": the poker tables, then the banked tables).
struct ServiceChoice {
  std::string name;
  std::vector<edge::HostedServiceSpec> services;
};

// The services of the choices the comma-separated `list` names, in the
// catalog's order whatever the list's, each choice once. INVALID_ARGUMENT
// naming a service the catalog does not have.
absl::StatusOr<std::vector<edge::HostedServiceSpec>> SelectServices(
    std::string_view list, const std::vector<ServiceChoice>& catalog);

}  // namespace banca::server

#endif  // BANCA_SERVICES_SERVER_SERVICE_SELECTION_H_
