// --services picks from the program's catalog: in the catalog's order,
// each once, and a name it does not have is refused by name.
#include "services/server/service_selection.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace banca::server {
namespace {

using ::testing::ElementsAre;

edge::HostedServiceSpec Named(std::string name) {
  edge::HostedServiceSpec spec;
  spec.name = std::move(name);
  return spec;
}

std::vector<ServiceChoice> Catalog() {
  return {{"wallet", {Named("wallet")}},
          {"table", {Named("table"), Named("banked tables")}}};
}

std::vector<std::string> Names(
    const absl::StatusOr<std::vector<edge::HostedServiceSpec>>& services) {
  std::vector<std::string> names;
  if (!services.ok()) return {services.status().ToString()};
  for (const edge::HostedServiceSpec& spec : *services) {
    names.push_back(spec.name);
  }
  return names;
}

TEST(ServiceSelection, PicksInTheCatalogsOrderEachOnce) {
  EXPECT_THAT(Names(SelectServices("wallet", Catalog())),
              ElementsAre("wallet"));
  EXPECT_THAT(Names(SelectServices("table", Catalog())),
              ElementsAre("table", "banked tables"));
  EXPECT_THAT(Names(SelectServices("table,wallet,table", Catalog())),
              ElementsAre("wallet", "table", "banked tables"));
}

TEST(ServiceSelection, AnUnknownNameIsRefusedByName) {
  for (const char* list : {"wallet,tournament", "", "wallet,", "Wallet"}) {
    const auto services = SelectServices(list, Catalog());
    EXPECT_TRUE(absl::IsInvalidArgument(services.status())) << list;
  }
  EXPECT_EQ(SelectServices("wallet,tournament", Catalog()).status().message(),
            "unknown or not yet available service \"tournament\" "
            "(available: wallet, table)");
}

}  // namespace
}  // namespace banca::server
