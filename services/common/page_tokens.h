// Page tokens a client can neither forge nor carry to another query: the
// key of the next row to read, with a MAC (libsodium's crypto_auth,
// HMAC-SHA-512-256) over it and the query that made it, under a key the
// process draws at start. A token therefore dies with the process: a
// client then starts the listing again.
#ifndef BANCA_SERVICES_COMMON_PAGE_TOKENS_H_
#define BANCA_SERVICES_COMMON_PAGE_TOKENS_H_

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace banca::edge {

class PageTokens {
 public:
  // A token is at most this long; a longer one is refused unread.
  static constexpr size_t kMaxTokenBytes = 1024;

  PageTokens();  // a fresh random key

  // The token that resumes `query` (any bytes naming the query and its
  // parameters) at `next_key`.
  std::string Make(std::string_view query, std::string_view next_key) const;
  // The key `token` resumes at: INVALID_ARGUMENT unless Make gave it for
  // this very query.
  absl::StatusOr<std::string> Open(std::string_view query,
                                   std::string_view token) const;

 private:
  std::string Mac(std::string_view query, std::string_view next_key) const;

  std::array<unsigned char, 32> key_;
};

}  // namespace banca::edge

#endif  // BANCA_SERVICES_COMMON_PAGE_TOKENS_H_
