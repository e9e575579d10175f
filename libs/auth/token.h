// Signed caller tokens: who is calling (subject) and in what role, until
// when. HMAC-SHA-256 over the claims with a key the services share; enough
// until an identity provider's JWTs replace it (the claims map one to one).
//
// Text form: "v1.<subject>.<role>.<expires_unix_seconds>.<hmac hex>".
// Subjects are 1..64 of [A-Za-z0-9_-] (player ids; no dots, so the form
// splits unambiguously). Pure: the caller passes the time.
#ifndef BANCA_LIBS_AUTH_TOKEN_H_
#define BANCA_LIBS_AUTH_TOKEN_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace banca::auth {

enum class Role : uint8_t {
  kPlayer,
  kOperator,
  kFinance,
  kAuditor,
  kService,
  // A connection gateway: carries players' traffic (TableService.Relay)
  // but acts only with each player's own token.
  kGateway,
};

std::string_view RoleName(Role role);
absl::StatusOr<Role> ParseRole(std::string_view name);

struct Claims {
  std::string subject;
  Role role = Role::kPlayer;
  int64_t expires_unix_seconds = 0;
};

inline constexpr size_t kKeyBytes = 32;
using Key = std::array<unsigned char, kKeyBytes>;

// INVALID_ARGUMENT unless `hex` is 64 hex digits.
absl::StatusOr<Key> KeyFromHex(std::string_view hex);

// INVALID_ARGUMENT for a bad subject.
absl::StatusOr<std::string> IssueToken(const Key& key, const Claims& claims);

// UNAUTHENTICATED (with the reason) for a malformed, forged or expired
// token.
absl::StatusOr<Claims> VerifyToken(const Key& key, std::string_view token,
                                   int64_t now_unix_seconds);

bool IsValidSubject(std::string_view subject);

}  // namespace banca::auth

#endif  // BANCA_LIBS_AUTH_TOKEN_H_
