#include "libs/wire/table_owners.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"

namespace banca::wire {

// Key "<consumer group>/<partition>"; value the address.
eventlog::Record TableOwnerRecord(const TableOwnerAnnouncement& announcement) {
  eventlog::Record r;
  r.topic = std::string(kTableOwnersTopic);
  r.key =
      absl::StrCat(announcement.consumer_group, "/", announcement.partition);
  r.value = announcement.address;
  r.partition = 0;
  return r;
}

std::optional<TableOwnerAnnouncement> DecodeTableOwner(
    const eventlog::StoredRecord& record) {
  const size_t slash = record.key.rfind('/');
  if (slash == std::string::npos || record.value.empty()) return std::nullopt;
  TableOwnerAnnouncement a;
  a.consumer_group = record.key.substr(0, slash);
  if (!absl::SimpleAtoi(ToAbsl(std::string_view(record.key).substr(slash + 1)),
                        &a.partition) ||
      a.partition < 0) {
    return std::nullopt;
  }
  a.address = record.value;
  return a;
}

}  // namespace banca::wire
