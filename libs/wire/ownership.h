// Which wallet partition decides for an owner of money. Every reader of the
// wallet's log agrees on it: the wallet processes of a group (each decides
// for the partitions it is assigned) and the audit (which judges each
// request where its outcome must be).
#ifndef BANCA_LIBS_WIRE_OWNERSHIP_H_
#define BANCA_LIBS_WIRE_OWNERSHIP_H_

#include <string_view>

namespace banca::wire {

// "player/<id>" for a player owner; "<class>/<id>" for an account of a
// table, game or tournament ("table/t1/seat/ana" -> "table/t1"); the name
// itself otherwise.
std::string_view OwnershipKey(std::string_view owner);

// The wallet partition an owner belongs to: the one its ownership key's
// stream lands on, so a player's own events are on the partition that
// decides for the player.
int OwnershipPartition(std::string_view owner, int partitions);

}  // namespace banca::wire

#endif  // BANCA_LIBS_WIRE_OWNERSHIP_H_
