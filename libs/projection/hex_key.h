// Key pieces built without StrFormat, for the keys a projector writes per
// record (a format string parsed per key was a visible share of a bulk
// catch-up).
#ifndef BANCA_LIBS_PROJECTION_HEX_KEY_H_
#define BANCA_LIBS_PROJECTION_HEX_KEY_H_

#include <cstdint>
#include <string>

namespace banca::projection {

// Appends `v` as 16 lowercase hex digits (StrFormat's "%016x").
inline void AppendHex16(std::string& out, uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  char buf[16];
  for (int i = 15; i >= 0; --i) {
    buf[i] = kDigits[v & 0xf];
    v >>= 4;
  }
  out.append(buf, sizeof(buf));
}

// Appends `v` as 8 lowercase hex digits (StrFormat's "%08x").
inline void AppendHex8(std::string& out, uint32_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  char buf[8];
  for (int i = 7; i >= 0; --i) {
    buf[i] = kDigits[v & 0xf];
    v >>= 4;
  }
  out.append(buf, sizeof(buf));
}

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_HEX_KEY_H_
