#include "services/common/page_tokens.h"

#include <sodium.h>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/string_view.h"

namespace banca::edge {

static_assert(crypto_auth_KEYBYTES == 32);

PageTokens::PageTokens() {
  BANCA_CHECK(sodium_init() >= 0);
  randombytes_buf(key_.data(), key_.size());
}

std::string PageTokens::Mac(std::string_view query,
                            std::string_view next_key) const {
  // Length-prefixed, so that no (query, key) pair reads as another.
  const std::string message =
      absl::StrCat(query.size(), ":", ToAbsl(query), ToAbsl(next_key));
  std::string mac(crypto_auth_BYTES, '\0');
  crypto_auth(reinterpret_cast<unsigned char*>(mac.data()),
              reinterpret_cast<const unsigned char*>(message.data()),
              message.size(), key_.data());
  return mac;
}

std::string PageTokens::Make(std::string_view query,
                             std::string_view next_key) const {
  std::string token;
  absl::WebSafeBase64Escape(
      absl::StrCat(Mac(query, next_key), ToAbsl(next_key)), &token);
  return token;
}

absl::StatusOr<std::string> PageTokens::Open(std::string_view query,
                                             std::string_view token) const {
  std::string raw;
  if (token.size() > kMaxTokenBytes ||
      !absl::WebSafeBase64Unescape(ToAbsl(token), &raw) ||
      raw.size() < crypto_auth_BYTES) {
    return absl::InvalidArgumentError("page_token is not a page token");
  }
  std::string next_key = raw.substr(crypto_auth_BYTES);
  const std::string mac = Mac(query, next_key);
  if (sodium_memcmp(raw.data(), mac.data(), crypto_auth_BYTES) != 0) {
    return absl::InvalidArgumentError(
        "page_token is not from this query (or from before a restart): "
        "start the listing again");
  }
  return next_key;
}

}  // namespace banca::edge
