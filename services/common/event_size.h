// The size check every event a service builds from a client's request
// passes before the decision is applied (docs/security.md "Input limits").
// An append the log refuses stops the process (libs/eventlog/fail_stop.h),
// so an event too large for the log must be the client's error, refused
// with INVALID_ARGUMENT before anything changes, never an append failure.
#ifndef BANCA_SERVICES_COMMON_EVENT_SIZE_H_
#define BANCA_SERVICES_COMMON_EVENT_SIZE_H_

#include <cstddef>

#include "absl/status/status.h"
#include "google/protobuf/message.h"
#include "libs/eventlog/event_log.h"

namespace banca::edge {

// The largest encoded event (the payload, before its envelope). Legal
// events are a few KiB at most (a table's settings, a hand's settlement of
// ten seats); the rest of a record, the envelope and its headers, is
// bounded by the ids it carries (at most a few KiB more).
inline constexpr size_t kMaxEventBytes = 64 << 10;  // 64 KiB
static_assert(4 * kMaxEventBytes <= eventlog::kMaxRecordBytes,
              "an event and its envelope fit in one log record");

// INVALID_ARGUMENT, naming the event type and its size, when `event`
// encodes to more than kMaxEventBytes.
absl::Status CheckEventSize(const google::protobuf::Message& event);

}  // namespace banca::edge

#endif  // BANCA_SERVICES_COMMON_EVENT_SIZE_H_
