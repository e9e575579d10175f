// The table groups' owner announcements (docs/architecture.md, "Several
// table processes"): when a process of a table group takes partitions of
// a game's topic, it appends one record per partition to this topic,
// fenced by its group membership, naming the address clients reach it at.
// The last announcement of a partition names its owner (LocateTable).
#ifndef BANCA_LIBS_WIRE_TABLE_OWNERS_H_
#define BANCA_LIBS_WIRE_TABLE_OWNERS_H_

#include <optional>
#include <string>
#include <string_view>

#include "libs/eventlog/event_log.h"

namespace banca::wire {

// One partition: announcements are read in the order they were made.
inline constexpr std::string_view kTableOwnersTopic = "banca.table.owners";

struct TableOwnerAnnouncement {
  std::string consumer_group;  // "<table group>.<game topic>"
  int partition = 0;
  std::string address;  // host:port
};

eventlog::Record TableOwnerRecord(const TableOwnerAnnouncement& announcement);
// nullopt for a record that is not an announcement (skipped by readers).
std::optional<TableOwnerAnnouncement> DecodeTableOwner(
    const eventlog::StoredRecord& record);

}  // namespace banca::wire

#endif  // BANCA_LIBS_WIRE_TABLE_OWNERS_H_
