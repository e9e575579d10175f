// Record framing and encoding of the embedded journal.
//
// Frame: [u32 body length][u32 CRC32C(body)][body], little-endian. Body:
//   u8 flags | varint topic_len, topic | varint partition | varint offset |
//   varint timestamp_micros | varint key_len, key | varint header_count,
//   (varint klen, k, varint vlen, v)* | varint value_len, value
// and a decoder must consume the body exactly, so a frame whose length field
// disagrees with its contents is rejected even if its CRC matches.
#ifndef BANCA_LIBS_EVENTLOG_JOURNAL_FORMAT_H_
#define BANCA_LIBS_EVENTLOG_JOURNAL_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "libs/eventlog/event_log.h"

namespace banca::eventlog::internal {

inline constexpr size_t kFrameHeaderBytes = 8;
inline constexpr uint8_t kFlagEndOfBatch = 0x01;
inline constexpr uint8_t kKnownFlags = kFlagEndOfBatch;
// flags, 1-byte topic, and one byte for each other field.
inline constexpr size_t kMinBodyBytes = 9;
// The largest valid record plus every length prefix and the topic name; a
// length field above this is corrupt, never a record we wrote.
inline constexpr size_t kMaxBodyBytes = kMaxRecordBytes + 4096;

// Encoded bytes of one batch: bounds the memory one AppendAsync can pin
// (10'000 records of 1 MiB each would otherwise be 10 GiB).
inline constexpr size_t kMaxBatchBytes = 64 << 20;

// Internal topics, one partition each, present in every log.
inline constexpr std::string_view kTopicsTopic = "__topics";
inline constexpr std::string_view kOffsetsTopic = "__consumer_offsets";

// A decoded body; the views point into the decoded buffer.
struct RecordView {
  uint8_t flags = 0;
  std::string_view topic;
  int partition = 0;
  int64_t offset = 0;
  int64_t timestamp_micros = 0;
  std::string_view key;
  uint32_t header_count = 0;
  std::string_view encoded_headers;
  std::string_view value;
};

// The fields of one record to encode.
struct RecordFields {
  uint8_t flags = 0;
  std::string_view topic;
  int partition = 0;
  int64_t offset = 0;
  int64_t timestamp_micros = 0;
  std::string_view key;
  absl::Span<const Header> headers;
  std::string_view value;
};

// Body size of `r` when its offset is encoded in the widest varint: an upper
// bound that does not depend on the offset, for limits and buffer sizing.
size_t MaxBodySize(const RecordFields& r);

// Appends one frame to `out`.
void AppendFrame(const RecordFields& r, std::string* out);

uint32_t LoadU32(const char* p);

// Decodes a body whose CRC has been checked. False if it is malformed.
bool DecodeBody(std::string_view body, RecordView* out);

// Decodes the headers of a view DecodeBody produced.
bool DecodeHeaders(const RecordView& r, std::vector<Header>* out);

// Payloads of the internal topics. __topics: key = topic name, value =
// varint partitions. __consumer_offsets: key = group, value = varint group
// length, group, varint topic length, topic, varint partition, varint
// next_offset.
std::string EncodeTopicValue(int partitions);
bool DecodeTopicValue(std::string_view value, int* partitions);
std::string EncodeCommitValue(const OffsetCommit& c);
bool DecodeCommitValue(std::string_view value, OffsetCommit* out);

}  // namespace banca::eventlog::internal

#endif  // BANCA_LIBS_EVENTLOG_JOURNAL_FORMAT_H_
