#include "libs/wire/ownership.h"

#include "libs/eventlog/event_log.h"
#include "libs/ledger/ledger.h"

namespace banca::wire {

std::string_view OwnershipKey(std::string_view owner) {
  const size_t first = owner.find('/');
  if (first == std::string_view::npos) return owner;
  const std::string_view cls = owner.substr(0, first);
  if (cls != "player" && cls != "table" && cls != "game" &&
      cls != "tournament") {
    return owner;
  }
  const size_t second = owner.find('/', first + 1);
  return second == std::string_view::npos ? owner : owner.substr(0, second);
}

int OwnershipPartition(std::string_view owner, int partitions) {
  return eventlog::PartitionForKey(
      ledger::Ledger::StreamFor(OwnershipKey(owner)), partitions);
}

}  // namespace banca::wire
