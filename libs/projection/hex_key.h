// Key pieces built without StrFormat, for the keys a projector writes per
// record (a format string parsed per key was a visible share of a bulk
// catch-up).
#ifndef BANCA_LIBS_PROJECTION_HEX_KEY_H_
#define BANCA_LIBS_PROJECTION_HEX_KEY_H_

#include <cassert>
#include <cstdint>
#include <string>

namespace banca::projection {

// Appends the low `digits` hex digits of `v`, lowercase, zero-padded.
inline void AppendHex(std::string& out, uint64_t v, int digits) {
  assert(digits > 0 && digits <= 16);
  static constexpr char kDigits[] = "0123456789abcdef";
  char buf[16];
  for (int i = digits - 1; i >= 0; --i) {
    buf[i] = kDigits[v & 0xf];
    v >>= 4;
  }
  out.append(buf, static_cast<size_t>(digits));
}

// StrFormat's "%016x" and "%08x".
inline void AppendHex16(std::string& out, uint64_t v) { AppendHex(out, v, 16); }
inline void AppendHex8(std::string& out, uint32_t v) { AppendHex(out, v, 8); }

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_HEX_KEY_H_
