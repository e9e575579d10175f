// The table services as a server hosts them
// (services/common/hosted_service.h): one table process hosts the poker
// tables (TableService) and the banked tables (BankedTableService), each
// with its options built from the server's settings and keys.
#ifndef BANCA_SERVICES_TABLE_HOSTED_TABLES_H_
#define BANCA_SERVICES_TABLE_HOSTED_TABLES_H_

#include <vector>

#include "services/common/hosted_service.h"

namespace banca::table {

// "table": a TableService on the server's partitions, verifier and deck
// keys.
edge::HostedServiceSpec HostedPokerTables();

// "banked tables": a BankedTableService, likewise.
edge::HostedServiceSpec HostedBankedTables();

// Both, in the order they start: the poker tables, then the banked ones.
std::vector<edge::HostedServiceSpec> HostedTables();

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_HOSTED_TABLES_H_
