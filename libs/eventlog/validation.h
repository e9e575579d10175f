// Shape checks of caller input against the limits in event_log.h. They need
// no log state, so they run before any lock is taken; whether a topic exists
// is checked later, under the log's lock.
#ifndef BANCA_LIBS_EVENTLOG_VALIDATION_H_
#define BANCA_LIBS_EVENTLOG_VALIDATION_H_

#include <string_view>

#include "absl/status/status.h"
#include "libs/eventlog/event_log.h"

namespace banca::eventlog::internal {

// Topic names follow Kafka's rules (1..200 of [A-Za-z0-9._-]) so a topic can
// move between backends unchanged.
absl::Status ValidateTopicName(std::string_view name);

// Names starting with "__" belong to the log itself.
bool IsInternalTopic(std::string_view name);

absl::Status ValidateRecord(const Record& r);
absl::Status ValidateCommit(const OffsetCommit& c);

}  // namespace banca::eventlog::internal

#endif  // BANCA_LIBS_EVENTLOG_VALIDATION_H_
