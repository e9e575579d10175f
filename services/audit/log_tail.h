// `banca log tail`: the last records of a topic, merged by time, as a
// person reads them (a line each) or as JSON (an object each, every string
// escaped by the JSON library: a player's or a client's text cannot break
// the line). The wallet's events are decoded; the other topics' payloads
// are not shown (their events carry cards and decks).
#ifndef BANCA_SERVICES_AUDIT_LOG_TAIL_H_
#define BANCA_SERVICES_AUDIT_LOG_TAIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"

namespace banca::audit {

inline constexpr int64_t kMaxTail = 100'000;

// The last `n` records of `topic` over all its partitions, oldest first
// (by time, then partition and offset). NOT_FOUND when there is no such
// topic, INVALID_ARGUMENT for `n` outside 1..kMaxTail.
absl::StatusOr<std::vector<eventlog::StoredRecord>> TailTopic(
    eventlog::EventLog& log, const std::string& topic, int64_t n);

// "2026-11-20T10:00:00.000Z 0@12 wallet/player/ana#3 TransactionPosted ..."
// for a wallet event, "... 0@12 312 bytes" for another topic's record.
std::string TailLine(const eventlog::StoredRecord& record);

// One JSON object: topic, partition, offset, time (UTC), key, headers, and
// for a wallet event its event_id, stream, sequence, type ("hold_placed"),
// request_id, actor, description (TailLine's) and every field of the event
// (protobuf's JSON form: 64-bit integers as strings); for another topic's
// record, its size in bytes. A record that does not decode has "error".
std::string TailJson(const eventlog::StoredRecord& record);

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_LOG_TAIL_H_
