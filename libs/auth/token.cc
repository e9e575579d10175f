#include "libs/auth/token.h"

#include <sodium.h>

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/common/string_view.h"

namespace banca::auth {
namespace {

constexpr std::string_view kVersion = "v1";
constexpr size_t kMaxTokenBytes = 512;

std::string Hex(const unsigned char* bytes, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return out;
}

std::string Mac(const Key& key, std::string_view signed_part) {
  unsigned char mac[crypto_auth_hmacsha256_BYTES];
  crypto_auth_hmacsha256(
      mac, reinterpret_cast<const unsigned char*>(signed_part.data()),
      signed_part.size(), key.data());
  return Hex(mac, sizeof mac);
}

absl::Status Unauthenticated(std::string_view why) {
  return absl::UnauthenticatedError(
      absl::StrCat("invalid token: ", ToAbsl(why)));
}

}  // namespace

std::string_view RoleName(Role role) {
  switch (role) {
    case Role::kPlayer:
      return "player";
    case Role::kOperator:
      return "operator";
    case Role::kFinance:
      return "finance";
    case Role::kAuditor:
      return "auditor";
    case Role::kService:
      return "service";
    case Role::kGateway:
      return "gateway";
  }
  return "?";
}

absl::StatusOr<Role> ParseRole(std::string_view name) {
  for (Role r : {Role::kPlayer, Role::kOperator, Role::kFinance, Role::kAuditor,
                 Role::kService, Role::kGateway}) {
    if (RoleName(r) == name) return r;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown role \"", ToAbsl(name),
      "\" (player, operator, finance, auditor, service, gateway)"));
}

bool IsValidSubject(std::string_view subject) {
  if (subject.empty() || subject.size() > 64) return false;
  for (char c : subject) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' &&
        c != '-') {
      return false;
    }
  }
  return true;
}

absl::StatusOr<Key> KeyFromHex(std::string_view hex) {
  if (hex.size() != 2 * kKeyBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("token key must be ", 2 * kKeyBytes, " hex digits"));
  }
  Key key{};
  for (size_t i = 0; i < kKeyBytes; ++i) {
    int byte = 0;
    for (int j = 0; j < 2; ++j) {
      const char c =
          absl::ascii_tolower(static_cast<unsigned char>(hex[2 * i + j]));
      int v = -1;
      if (c >= '0' && c <= '9') v = c - '0';
      if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
      if (v < 0) return absl::InvalidArgumentError("token key must be hex");
      byte = byte * 16 + v;
    }
    key[i] = static_cast<unsigned char>(byte);
  }
  return key;
}

absl::StatusOr<std::string> IssueToken(const Key& key, const Claims& claims) {
  if (!IsValidSubject(claims.subject)) {
    return absl::InvalidArgumentError(
        "token subject must be 1-64 of [A-Za-z0-9_-]");
  }
  const std::string signed_part = absl::StrCat(
      ToAbsl(kVersion), ".", claims.subject, ".", ToAbsl(RoleName(claims.role)),
      ".", claims.expires_unix_seconds);
  return absl::StrCat(signed_part, ".", Mac(key, signed_part));
}

absl::StatusOr<Claims> VerifyToken(const Key& key, std::string_view token,
                                   int64_t now_unix_seconds) {
  if (token.size() > kMaxTokenBytes) return Unauthenticated("too long");
  std::vector<absl::string_view> parts = absl::StrSplit(ToAbsl(token), '.');
  if (parts.size() != 5 || parts[0] != ToAbsl(kVersion)) {
    return Unauthenticated("expected v1.<subject>.<role>.<expiry>.<mac>");
  }
  const size_t mac_at = token.size() - parts[4].size();
  const std::string expected = Mac(key, token.substr(0, mac_at - 1));
  if (expected.size() != parts[4].size() ||
      sodium_memcmp(expected.data(), parts[4].data(), expected.size()) != 0) {
    return Unauthenticated("bad signature");
  }
  Claims claims;
  claims.subject = std::string(parts[1]);
  absl::StatusOr<Role> role = ParseRole(ToStd(parts[2]));
  if (!role.ok() || !IsValidSubject(claims.subject) ||
      !absl::SimpleAtoi(parts[3], &claims.expires_unix_seconds)) {
    return Unauthenticated("malformed claims");
  }
  claims.role = *role;
  if (claims.expires_unix_seconds <= now_unix_seconds) {
    return Unauthenticated("expired");
  }
  return claims;
}

}  // namespace banca::auth
