#include "libs/eventlog/journal_format.h"

#include <cstring>

#include "libs/common/check.h"
#include "libs/common/crc32c.h"

namespace banca::eventlog::internal {
namespace {

constexpr size_t kMaxVarintBytes = 10;

size_t VarintSize(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

char* PutVarint(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

char* PutBytes(char* p, std::string_view s) {
  p = PutVarint(p, s.size());
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

void StoreU32(char* p, uint32_t v) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
  std::memcpy(p, &v, sizeof(v));
}

// Reads from a bounded view; every getter fails instead of running past the
// end, because the input may be a corrupt or hostile journal.
class Reader {
 public:
  explicit Reader(std::string_view s)
      : p_(s.data()), end_(s.data() + s.size()) {}

  bool Varint(uint64_t* v) {
    uint64_t result = 0;
    for (int shift = 0; shift < 64 && p_ < end_; shift += 7) {
      const uint8_t b = static_cast<uint8_t>(*p_++);
      if (shift == 63 && b > 1) return false;  // would overflow 64 bits
      result |= static_cast<uint64_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        *v = result;
        return true;
      }
    }
    return false;
  }
  bool Bytes(std::string_view* s, uint64_t max) {
    uint64_t n;
    if (!Varint(&n) || n > max || n > static_cast<uint64_t>(end_ - p_)) {
      return false;
    }
    *s = std::string_view(p_, n);
    p_ += n;
    return true;
  }
  bool Byte(uint8_t* b) {
    if (p_ == end_) return false;
    *b = static_cast<uint8_t>(*p_++);
    return true;
  }
  const char* pos() const { return p_; }
  bool done() const { return p_ == end_; }

 private:
  const char* p_;
  const char* end_;
};

}  // namespace

size_t MaxBodySize(const RecordFields& r) {
  size_t n = 1 + VarintSize(r.topic.size()) + r.topic.size() +
             VarintSize(static_cast<uint32_t>(r.partition)) + kMaxVarintBytes +
             VarintSize(static_cast<uint64_t>(r.timestamp_micros)) +
             VarintSize(r.key.size()) + r.key.size() +
             VarintSize(r.headers.size()) + VarintSize(r.value.size()) +
             r.value.size();
  for (const Header& h : r.headers) {
    n += VarintSize(h.key.size()) + h.key.size() + VarintSize(h.value.size()) +
         h.value.size();
  }
  return n;
}

void AppendFrame(const RecordFields& r, std::string* out) {
  BANCA_CHECK(r.partition >= 0 && r.offset >= 0 && r.timestamp_micros >= 0);
  const size_t max_body = MaxBodySize(r);
  const size_t start = out->size();
  out->resize(start + kFrameHeaderBytes + max_body);
  char* const body = out->data() + start + kFrameHeaderBytes;
  char* p = body;
  *p++ = static_cast<char>(r.flags);
  p = PutBytes(p, r.topic);
  p = PutVarint(p, static_cast<uint32_t>(r.partition));
  p = PutVarint(p, static_cast<uint64_t>(r.offset));
  p = PutVarint(p, static_cast<uint64_t>(r.timestamp_micros));
  p = PutBytes(p, r.key);
  p = PutVarint(p, r.headers.size());
  for (const Header& h : r.headers) {
    p = PutBytes(p, h.key);
    p = PutBytes(p, h.value);
  }
  p = PutBytes(p, r.value);
  const size_t body_len = static_cast<size_t>(p - body);
  BANCA_CHECK(body_len <= max_body && body_len >= kMinBodyBytes);
  StoreU32(out->data() + start, static_cast<uint32_t>(body_len));
  StoreU32(out->data() + start + 4, Crc32c(body, body_len));
  out->resize(start + kFrameHeaderBytes + body_len);
}

uint32_t LoadU32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

bool DecodeBody(std::string_view body, RecordView* out) {
  Reader r(body);
  uint64_t partition, offset, ts, count;
  if (!r.Byte(&out->flags) || (out->flags & ~kKnownFlags) != 0) return false;
  if (!r.Bytes(&out->topic, kMaxTopicNameBytes) || out->topic.empty()) {
    return false;
  }
  if (!r.Varint(&partition) || partition >= kMaxPartitions) return false;
  if (!r.Varint(&offset) || offset > static_cast<uint64_t>(INT64_MAX)) {
    return false;
  }
  if (!r.Varint(&ts) || ts > static_cast<uint64_t>(INT64_MAX)) return false;
  if (!r.Bytes(&out->key, kMaxKeyBytes)) return false;
  if (!r.Varint(&count) || count > kMaxHeaders) return false;
  const char* headers_begin = r.pos();
  for (uint64_t i = 0; i < count; ++i) {
    std::string_view k, v;
    if (!r.Bytes(&k, kMaxKeyBytes) || !r.Bytes(&v, kMaxRecordBytes)) {
      return false;
    }
  }
  out->encoded_headers = std::string_view(
      headers_begin, static_cast<size_t>(r.pos() - headers_begin));
  if (!r.Bytes(&out->value, kMaxRecordBytes) || !r.done()) return false;
  out->partition = static_cast<int>(partition);
  out->offset = static_cast<int64_t>(offset);
  out->timestamp_micros = static_cast<int64_t>(ts);
  out->header_count = static_cast<uint32_t>(count);
  return true;
}

bool DecodeHeaders(const RecordView& view, std::vector<Header>* out) {
  Reader r(view.encoded_headers);
  out->clear();
  out->reserve(view.header_count);
  for (uint32_t i = 0; i < view.header_count; ++i) {
    std::string_view k, v;
    if (!r.Bytes(&k, kMaxKeyBytes) || !r.Bytes(&v, kMaxRecordBytes)) {
      return false;
    }
    out->push_back(Header{std::string(k), std::string(v)});
  }
  return r.done();
}

std::string EncodeTopicValue(int partitions) {
  BANCA_CHECK(partitions > 0 && partitions <= kMaxPartitions);
  char buf[kMaxVarintBytes];
  return std::string(buf, PutVarint(buf, static_cast<uint64_t>(partitions)));
}

bool DecodeTopicValue(std::string_view value, int* partitions) {
  Reader r(value);
  uint64_t p;
  if (!r.Varint(&p) || !r.done() || p == 0 || p > kMaxPartitions) return false;
  *partitions = static_cast<int>(p);
  return true;
}

std::string EncodeCommitValue(const OffsetCommit& c) {
  BANCA_CHECK(c.partition >= 0 && c.next_offset >= 0);
  std::string out(4 * kMaxVarintBytes + c.group.size() + c.topic.size(), '\0');
  char* p = out.data();
  p = PutBytes(p, c.group);
  p = PutBytes(p, c.topic);
  p = PutVarint(p, static_cast<uint32_t>(c.partition));
  p = PutVarint(p, static_cast<uint64_t>(c.next_offset));
  out.resize(static_cast<size_t>(p - out.data()));
  return out;
}

bool DecodeCommitValue(std::string_view value, OffsetCommit* out) {
  Reader r(value);
  std::string_view group, topic;
  uint64_t partition, next;
  if (!r.Bytes(&group, kMaxKeyBytes) || group.empty() ||
      !r.Bytes(&topic, kMaxTopicNameBytes) || topic.empty() ||
      !r.Varint(&partition) || partition >= kMaxPartitions ||
      !r.Varint(&next) || next > static_cast<uint64_t>(INT64_MAX) ||
      !r.done()) {
    return false;
  }
  out->group = std::string(group);
  out->topic = std::string(topic);
  out->partition = static_cast<int>(partition);
  out->next_offset = static_cast<int64_t>(next);
  return true;
}

}  // namespace banca::eventlog::internal
