// Input an attacker sends past the schema: bytes under a field number the
// schema does not know. The servers drop them before any service sees the
// request (services/common/request_limits.h), so none reach the log.
#ifndef BANCA_TESTS_INTEGRATION_UNKNOWN_FIELDS_H_
#define BANCA_TESTS_INTEGRATION_UNKNOWN_FIELDS_H_

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

#include "google/protobuf/message.h"
#include "google/protobuf/unknown_field_set.h"
#include "libs/eventlog/event_log.h"

namespace banca::testing {

// Field numbers no banca message uses.
inline constexpr int kUnknownField = 1000;

inline void AddUnknownField(google::protobuf::Message& message, size_t bytes,
                            int number = kUnknownField) {
  message.GetReflection()->MutableUnknownFields(&message)->AddLengthDelimited(
      number, std::string(bytes, 'u'));
}

// The largest record value on `topic`, across its partitions (0 when the
// topic is empty).
inline size_t LargestRecord(eventlog::EventLog& log, std::string_view topic) {
  size_t largest = 0;
  const int partitions = log.PartitionCount(topic).value_or(0);
  for (int p = 0; p < partitions; ++p) {
    auto records = log.Read(topic, p, 0, 100'000);
    if (!records.ok()) continue;
    for (const eventlog::StoredRecord& r : *records) {
      largest = std::max(largest, r.value.size());
    }
  }
  return largest;
}

// Every record of a request with no unknown fields is well under this.
inline constexpr size_t kSmallRecordBytes = 4 << 10;

}  // namespace banca::testing

#endif  // BANCA_TESTS_INTEGRATION_UNKNOWN_FIELDS_H_
