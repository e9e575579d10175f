#include "libs/auth/token.h"

#include <sodium.h>

#include <cstring>
#include <mutex>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"

namespace banca::auth {
namespace {

constexpr std::string_view kVersion = "v2";
constexpr std::string_view kPublicKeyTag = "ed25519-public";
constexpr Role kRoles[] = {Role::kPlayer,  Role::kOperator, Role::kFinance,
                           Role::kAuditor, Role::kService,  Role::kGateway};

std::string Hex(const unsigned char* bytes, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return out;
}

absl::Status Unauthenticated(std::string_view why) {
  return absl::UnauthenticatedError(
      absl::StrCat("invalid token: ", ToAbsl(why)));
}

bool EnsureSodium() {
  static const bool ok = sodium_init() >= 0;
  return ok;
}

std::string KeyIdOf(const std::array<unsigned char, kPublicKeyBytes>& pk) {
  unsigned char digest[32];
  crypto_generichash(digest, sizeof digest, pk.data(), pk.size(), nullptr, 0);
  return Hex(digest, 8);
}

std::string ClaimsText(const Claims& c) {
  return absl::StrCat("sub=", c.subject, ";aud=", c.audience,
                      ";iat=", c.issued_at_unix_seconds,
                      ";exp=", c.expires_unix_seconds);
}

absl::Status CheckClaims(const Claims& c) {
  const size_t colon = c.subject.find(':');
  if (colon == std::string::npos ||
      c.subject.substr(0, colon) != RoleName(c.role) ||
      !IsValidName(std::string_view(c.subject).substr(colon + 1))) {
    return absl::InvalidArgumentError(
        absl::StrCat("subject must be \"", ToAbsl(RoleName(c.role)),
                     ":<name>\" with a name of 1-64 of [A-Za-z0-9_.-], got \"",
                     c.subject.substr(0, 80), "\""));
  }
  if (!IsValidName(c.audience)) {
    return absl::InvalidArgumentError(
        "audience must be 1-64 of [A-Za-z0-9_.-]");
  }
  const int64_t lifetime = c.expires_unix_seconds - c.issued_at_unix_seconds;
  if (c.issued_at_unix_seconds <= 0 || lifetime <= 0 ||
      lifetime > kMaxLifetimeSeconds) {
    return absl::InvalidArgumentError(
        absl::StrCat("a token lives 1..", kMaxLifetimeSeconds,
                     " seconds after it is issued"));
  }
  return absl::OkStatus();
}

// "sub=..;aud=..;iat=..;exp=.." in exactly that order.
absl::StatusOr<Claims> ParseClaims(std::string_view text) {
  std::vector<absl::string_view> fields = absl::StrSplit(ToAbsl(text), ';');
  constexpr absl::string_view kKeys[] = {"sub=", "aud=", "iat=", "exp="};
  if (fields.size() != 4) return Unauthenticated("malformed claims");
  for (int i = 0; i < 4; ++i) {
    if (!absl::ConsumePrefix(&fields[i], kKeys[i])) {
      return Unauthenticated("malformed claims");
    }
  }
  Claims c;
  c.subject = std::string(fields[0]);
  c.audience = std::string(fields[1]);
  const size_t colon = c.subject.find(':');
  absl::StatusOr<Role> role =
      ParseRole(std::string_view(c.subject).substr(0, colon));
  if (colon == std::string::npos || !role.ok() ||
      !absl::SimpleAtoi(fields[2], &c.issued_at_unix_seconds) ||
      !absl::SimpleAtoi(fields[3], &c.expires_unix_seconds)) {
    return Unauthenticated("malformed claims");
  }
  c.role = *role;
  if (!CheckClaims(c).ok()) return Unauthenticated("malformed claims");
  return c;
}

// A signed token's claims are valid now, for this audience.
absl::StatusOr<Claims> CheckTimeAndAudience(Claims claims,
                                            int64_t now_unix_seconds,
                                            std::string_view audience) {
  if (claims.audience != audience) {
    return Unauthenticated(absl::StrCat("for audience \"", claims.audience,
                                        "\", not \"", ToAbsl(audience), "\""));
  }
  if (claims.expires_unix_seconds <= now_unix_seconds) {
    return Unauthenticated("expired");
  }
  if (claims.issued_at_unix_seconds > now_unix_seconds + kMaxClockSkewSeconds) {
    return Unauthenticated("issued in the future");
  }
  return claims;
}

// Base64url without padding, refusing any other spelling of the same bytes.
bool DecodeCanonical(std::string_view text, std::string* out) {
  if (!absl::WebSafeBase64Unescape(ToAbsl(text), out)) return false;
  std::string again;
  absl::WebSafeBase64Escape(*out, &again);
  return again == text;
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
  for (Role r : kRoles) {
    if (RoleName(r) == name) return r;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown role \"", ToAbsl(name.substr(0, 32)),
      "\" (player, operator, finance, auditor, service, gateway)"));
}

std::string_view Claims::name() const {
  const size_t colon = subject.find(':');
  return colon == std::string::npos
             ? std::string_view(subject)
             : std::string_view(subject).substr(colon + 1);
}

std::string Claims::player_id() const {
  return std::string(role == Role::kPlayer ? name()
                                           : std::string_view(subject));
}

std::string Subject(Role role, std::string_view name) {
  return absl::StrCat(ToAbsl(RoleName(role)), ":", ToAbsl(name));
}

bool IsValidName(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameBytes) return false;
  if (!absl::ascii_isalnum(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' &&
        c != '-' && c != '.') {
      return false;
    }
  }
  return true;
}

absl::StatusOr<std::array<unsigned char, 32>> BytesFromHex(
    std::string_view hex) {
  if (hex.size() != 64) {
    return absl::InvalidArgumentError("a key is 64 hex digits");
  }
  std::array<unsigned char, 32> bytes{};
  for (size_t i = 0; i < 32; ++i) {
    int byte = 0;
    for (int j = 0; j < 2; ++j) {
      const char c =
          absl::ascii_tolower(static_cast<unsigned char>(hex[2 * i + j]));
      int v = -1;
      if (c >= '0' && c <= '9') v = c - '0';
      if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
      if (v < 0) return absl::InvalidArgumentError("a key must be hex");
      byte = byte * 16 + v;
    }
    bytes[i] = static_cast<unsigned char>(byte);
  }
  return bytes;
}

absl::StatusOr<SigningKey> SigningKey::FromSeed(
    const std::array<unsigned char, kSeedBytes>& seed) {
  if (!EnsureSodium()) return absl::InternalError("libsodium init failed");
  SigningKey key;
  crypto_sign_seed_keypair(key.public_key_.bytes.data(), key.secret_.data(),
                           seed.data());
  key.public_key_.key_id = KeyIdOf(key.public_key_.bytes);
  return key;
}

absl::StatusOr<SigningKey> SigningKey::FromSeedHex(std::string_view hex) {
  ASSIGN_OR_RETURN(const auto seed, BytesFromHex(hex));
  return FromSeed(seed);
}

std::string SigningKey::Sign(std::string_view message) const {
  unsigned char sig[crypto_sign_BYTES];
  crypto_sign_detached(sig, nullptr,
                       reinterpret_cast<const unsigned char*>(message.data()),
                       message.size(), secret_.data());
  return std::string(reinterpret_cast<const char*>(sig), sizeof sig);
}

absl::StatusOr<std::string> IssueToken(const SigningKey& key,
                                       const Claims& claims) {
  RETURN_IF_ERROR(CheckClaims(claims));
  std::string claims_b64;
  absl::WebSafeBase64Escape(ClaimsText(claims), &claims_b64);
  const std::string signed_part = absl::StrCat(
      ToAbsl(kVersion), ".", key.public_key().key_id, ".", claims_b64);
  std::string sig_b64;
  absl::WebSafeBase64Escape(key.Sign(signed_part), &sig_b64);
  std::string token = absl::StrCat(signed_part, ".", sig_b64);
  if (token.size() > kMaxTokenBytes) {
    return absl::InvalidArgumentError("token would be too long");
  }
  return token;
}

std::string PublicKeyLine(const PublicKey& key) {
  return absl::StrCat(ToAbsl(kPublicKeyTag), " ",
                      Hex(key.bytes.data(), key.bytes.size()));
}

struct Verifier::Cache {
  std::mutex mu;
  // A token (its whole text) -> its claims and the id of the key that
  // signed it.
  absl::flat_hash_map<std::string, std::pair<Claims, std::string>> verified;
};

Verifier::Verifier() : cache_(std::make_shared<Cache>()) {}

bool Verifier::Holds(std::string_view key_id) const {
  for (const PublicKey& k : keys_) {
    if (k.key_id == key_id) return true;
  }
  return false;
}

absl::Status Verifier::Add(const PublicKey& key) {
  for (const PublicKey& k : keys_) {
    if (k.bytes == key.bytes) return absl::OkStatus();
  }
  if (keys_.size() >= kMaxVerifyingKeys) {
    return absl::ResourceExhaustedError(
        absl::StrCat("a verifier holds at most ", kMaxVerifyingKeys, " keys"));
  }
  keys_.push_back(key);
  return absl::OkStatus();
}

absl::StatusOr<Verifier> Verifier::FromKeyFileText(std::string_view text) {
  Verifier verifier;
  for (absl::string_view line : absl::StrSplit(ToAbsl(text), '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    if (line.size() == 64) {  // an issuer's seed
      ASSIGN_OR_RETURN(SigningKey key, SigningKey::FromSeedHex(ToStd(line)));
      RETURN_IF_ERROR(verifier.Add(key.public_key()));
      continue;
    }
    std::vector<absl::string_view> parts =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (parts.size() != 2 || parts[0] != ToAbsl(kPublicKeyTag)) {
      return absl::InvalidArgumentError(
          absl::StrCat("a key file holds 64 hex digits (a seed) or lines \"",
                       ToAbsl(kPublicKeyTag), " <64 hex digits>\""));
    }
    PublicKey key;
    ASSIGN_OR_RETURN(key.bytes, BytesFromHex(ToStd(parts[1])));
    key.key_id = KeyIdOf(key.bytes);
    RETURN_IF_ERROR(verifier.Add(key));
  }
  if (verifier.empty()) {
    return absl::InvalidArgumentError("the key file holds no key");
  }
  return verifier;
}

absl::StatusOr<Claims> Verifier::Verify(std::string_view token,
                                        int64_t now_unix_seconds,
                                        std::string_view audience) const {
  if (!EnsureSodium()) return absl::InternalError("libsodium init failed");
  if (token.size() > kMaxTokenBytes) return Unauthenticated("too long");
  std::optional<std::pair<Claims, std::string>> cached;
  if (cache_ != nullptr) {
    std::lock_guard<std::mutex> lock(cache_->mu);
    auto it = cache_->verified.find(ToAbsl(token));
    if (it != cache_->verified.end()) cached = it->second;
  }
  if (cached.has_value() && Holds(cached->second)) {
    return CheckTimeAndAudience(std::move(cached->first), now_unix_seconds,
                                audience);
  }
  std::vector<absl::string_view> parts = absl::StrSplit(ToAbsl(token), '.');
  if (parts.size() != 4 || parts[0] != ToAbsl(kVersion)) {
    return Unauthenticated("expected v2.<key id>.<claims>.<signature>");
  }
  const PublicKey* key = nullptr;
  for (const PublicKey& k : keys_) {
    if (ToAbsl(k.key_id) == parts[1]) key = &k;
  }
  if (key == nullptr) return Unauthenticated("signed by an unknown key");
  std::string claims_text;
  std::string signature;
  if (!DecodeCanonical(ToStd(parts[2]), &claims_text) ||
      !DecodeCanonical(ToStd(parts[3]), &signature) ||
      signature.size() != crypto_sign_BYTES) {
    return Unauthenticated("malformed encoding");
  }
  const size_t signed_bytes = token.size() - parts[3].size() - 1;
  if (crypto_sign_verify_detached(
          reinterpret_cast<const unsigned char*>(signature.data()),
          reinterpret_cast<const unsigned char*>(token.data()), signed_bytes,
          key->bytes.data()) != 0) {
    return Unauthenticated("bad signature");
  }
  ASSIGN_OR_RETURN(Claims claims, ParseClaims(claims_text));
  if (cache_ != nullptr) {
    std::lock_guard<std::mutex> lock(cache_->mu);
    if (cache_->verified.size() >= kMaxCachedTokens) cache_->verified.clear();
    cache_->verified.try_emplace(std::string(token), claims, key->key_id);
  }
  return CheckTimeAndAudience(std::move(claims), now_unix_seconds, audience);
}

}  // namespace banca::auth
