#include "libs/common/crc32c.h"

#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace banca {
namespace {

constexpr uint32_t kPoly = 0x82F63B78;  // Castagnoli, reflected.

// Slicing-by-8 tables: the fallback still has to keep up with a journal
// scan on machines without SSE4.2.
struct Tables {
  uint32_t t[8][256];
  constexpr Tables() : t() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kPoly : c >> 1;
      t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i) {
      for (int s = 1; s < 8; ++s) {
        t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFF];
      }
    }
  }
};
constexpr Tables kTables;

uint64_t LoadLE64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
  return v;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t Crc32cSse42(const void* data,
                                                       size_t n,
                                                       uint32_t init) {
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t c = ~init;
  while (n > 0 && (reinterpret_cast<uintptr_t>(p) & 7) != 0) {
    c = _mm_crc32_u8(static_cast<uint32_t>(c), *p++);
    --n;
  }
  while (n >= 8) {
    c = _mm_crc32_u64(c, LoadLE64(p));
    p += 8;
    n -= 8;
  }
  while (n > 0) {
    c = _mm_crc32_u8(static_cast<uint32_t>(c), *p++);
    --n;
  }
  return ~static_cast<uint32_t>(c);
}
#endif

using CrcFn = uint32_t (*)(const void*, size_t, uint32_t);

CrcFn Choose() {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("sse4.2")) return &Crc32cSse42;
#endif
  return &Crc32cPortable;
}

CrcFn Impl() {
  static const CrcFn fn = Choose();
  return fn;
}

}  // namespace

uint32_t Crc32cPortable(const void* data, size_t n, uint32_t init) {
  const auto* p = static_cast<const unsigned char*>(data);
  uint32_t c = ~init;
  const auto& t = kTables.t;
  while (n >= 8) {
    const uint64_t v = LoadLE64(p) ^ c;
    c = t[7][v & 0xFF] ^ t[6][(v >> 8) & 0xFF] ^ t[5][(v >> 16) & 0xFF] ^
        t[4][(v >> 24) & 0xFF] ^ t[3][(v >> 32) & 0xFF] ^
        t[2][(v >> 40) & 0xFF] ^ t[1][(v >> 48) & 0xFF] ^ t[0][v >> 56];
    p += 8;
    n -= 8;
  }
  while (n > 0) {
    c = (c >> 8) ^ t[0][(c ^ *p++) & 0xFF];
    --n;
  }
  return ~c;
}

uint32_t Crc32c(const void* data, size_t n, uint32_t init) {
  return Impl()(data, n, init);
}

bool Crc32cIsHardwareAccelerated() { return Impl() != &Crc32cPortable; }

}  // namespace banca
