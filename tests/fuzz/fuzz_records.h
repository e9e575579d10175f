// What the replay targets (table_replay_fuzz, banked_replay_fuzz,
// wallet_replay_fuzz) share: their input is a sequence (fuzz_input.h) of
// event envelopes, each read as a record of one topic, keyed by its stream,
// and decoded by that topic's codec, as a service's replay reads its log.
#ifndef BANCA_TESTS_FUZZ_FUZZ_RECORDS_H_
#define BANCA_TESTS_FUZZ_FUZZ_RECORDS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/envelope.pb.h"
#include "libs/eventlog/event_log.h"
#include "tests/fuzz/fuzz_input.h"

namespace banca::fuzz {

// The records of the sequence that `decode` (DecodeTableRecord,
// DecodeBankedRecord, DecodeWalletRecord) accepts as events of `topic`, in
// order; a value that is no envelope, or that the codec refuses, is passed
// over (a replay reports it as DATA_LOSS).
template <typename Decoded>
std::vector<Decoded> DecodedSequence(
    const uint8_t* data, size_t size, std::string_view topic,
    absl::StatusOr<Decoded> (*decode)(const eventlog::StoredRecord&)) {
  std::vector<Decoded> out;
  for (const std::string& value : SplitSequence(data, size)) {
    v1::EventEnvelope envelope;
    if (!envelope.ParseFromString(value)) continue;
    eventlog::StoredRecord record;
    record.topic = std::string(topic);
    record.key = envelope.stream_id();
    record.value = value;
    absl::StatusOr<Decoded> decoded = decode(record);
    if (decoded.ok()) out.push_back(*std::move(decoded));
  }
  return out;
}

}  // namespace banca::fuzz

#endif  // BANCA_TESTS_FUZZ_FUZZ_RECORDS_H_
