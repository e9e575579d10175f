// Debian 12's Abseil is built with its own absl::string_view (not an alias
// of std::string_view), and the two do not convert implicitly. Project APIs
// use std::string_view; this bridges them at calls into Abseil (StrCat,
// hash-map lookups, Status messages).
#ifndef BANCA_LIBS_COMMON_STRING_VIEW_H_
#define BANCA_LIBS_COMMON_STRING_VIEW_H_

#include <string_view>

#include "absl/strings/string_view.h"

namespace banca {

inline absl::string_view ToAbsl(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}

inline std::string_view ToStd(absl::string_view s) {
  return std::string_view(s.data(), s.size());
}

}  // namespace banca

#endif  // BANCA_LIBS_COMMON_STRING_VIEW_H_
