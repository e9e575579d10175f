#include "services/server/service_selection.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "libs/common/string_view.h"

namespace banca::server {

absl::StatusOr<std::vector<edge::HostedServiceSpec>> SelectServices(
    std::string_view list, const std::vector<ServiceChoice>& catalog) {
  std::vector<bool> chosen(catalog.size(), false);
  for (absl::string_view name : absl::StrSplit(ToAbsl(list), ',')) {
    auto it = std::find_if(
        catalog.begin(), catalog.end(),
        [name](const ServiceChoice& choice) { return choice.name == name; });
    if (it == catalog.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown or not yet available service \"", name, "\" (available: ",
          absl::StrJoin(catalog, ", ",
                        [](std::string* out, const ServiceChoice& choice) {
                          out->append(choice.name);
                        }),
          ")"));
    }
    chosen[it - catalog.begin()] = true;
  }
  std::vector<edge::HostedServiceSpec> services;
  for (size_t i = 0; i < catalog.size(); ++i) {
    if (!chosen[i]) continue;
    services.insert(services.end(), catalog[i].services.begin(),
                    catalog[i].services.end());
  }
  return services;
}

}  // namespace banca::server
