#include "libs/eventlog/murmur2.h"

#include "libs/common/check.h"
#include "libs/eventlog/event_log.h"

namespace banca::eventlog {
namespace internal {

int32_t Murmur2(std::string_view data) {
  // Unsigned arithmetic reproduces Java's wrapping int multiply without
  // signed-overflow UB; >> on uint32_t is Java's >>>.
  constexpr uint32_t kSeed = 0x9747b28c;
  constexpr uint32_t m = 0x5bd1e995;
  constexpr int r = 24;
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const size_t length = data.size();
  uint32_t h = kSeed ^ static_cast<uint32_t>(length);
  const size_t length4 = length / 4;
  for (size_t i = 0; i < length4; ++i) {
    const size_t i4 = i * 4;
    uint32_t k = static_cast<uint32_t>(p[i4]) |
                 static_cast<uint32_t>(p[i4 + 1]) << 8 |
                 static_cast<uint32_t>(p[i4 + 2]) << 16 |
                 static_cast<uint32_t>(p[i4 + 3]) << 24;
    k *= m;
    k ^= k >> r;
    k *= m;
    h *= m;
    h ^= k;
  }
  const size_t tail = length & ~static_cast<size_t>(3);
  switch (length % 4) {
    case 3:
      h ^= static_cast<uint32_t>(p[tail + 2]) << 16;
      [[fallthrough]];
    case 2:
      h ^= static_cast<uint32_t>(p[tail + 1]) << 8;
      [[fallthrough]];
    case 1:
      h ^= static_cast<uint32_t>(p[tail]);
      h *= m;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return static_cast<int32_t>(h);
}

}  // namespace internal

int PartitionForKey(std::string_view key, int partitions) {
  BANCA_CHECK(partitions > 0);
  // Kafka's Utils.toPositive: clear the sign bit (not abs()).
  const uint32_t positive =
      static_cast<uint32_t>(internal::Murmur2(key)) & 0x7fffffffu;
  return static_cast<int>(positive % static_cast<uint32_t>(partitions));
}

}  // namespace banca::eventlog
