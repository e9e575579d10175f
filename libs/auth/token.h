// Signed caller tokens: who is calling (a subject namespaced by its role,
// "player:ana", "service:table"), for which audience, from when until when.
// Ed25519 (libsodium): the issuer holds a 32-byte seed, the services hold
// only public keys, so a service that verifies tokens cannot mint them.
//
// Text form (docs/security.md, "Tokens"):
//   v2.<key id>.<claims>.<signature>
// <claims> is base64url (no padding) of
//   "sub=<role>:<name>;aud=<audience>;iat=<unix s>;exp=<unix s>"
// <signature> is base64url of the Ed25519 signature over
//   "v2.<key id>.<claims>". The key id is the first 8 bytes (16 hex digits)
// of BLAKE2b-256 of the public key, so a verifier with several keys (a
// rotation) picks the one a token names. Pure: callers pass the time.
#ifndef BANCA_LIBS_AUTH_TOKEN_H_
#define BANCA_LIBS_AUTH_TOKEN_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

inline constexpr std::string_view kDefaultAudience = "banca";
// No token lives longer than this (expiry less issue time).
inline constexpr int64_t kMaxLifetimeSeconds = 31 * 86'400;
// How far a token's issue time may be ahead of the verifier's clock.
inline constexpr int64_t kMaxClockSkewSeconds = 60;
inline constexpr size_t kMaxTokenBytes = 512;
inline constexpr size_t kMaxNameBytes = 64;
// A verifier holds at most this many keys (a rotation needs two or three).
inline constexpr size_t kMaxVerifyingKeys = 16;
// Tokens a verifier remembers as verified (an Ed25519 check costs tens of
// microseconds; a client sends the same token with every call).
inline constexpr size_t kMaxCachedTokens = 8192;

struct Claims {
  // "<role>:<name>", e.g. "player:ana", "service:payments".
  std::string subject;
  Role role = Role::kPlayer;
  std::string audience = std::string(kDefaultAudience);
  int64_t issued_at_unix_seconds = 0;
  int64_t expires_unix_seconds = 0;

  // The part of the subject after "<role>:".
  std::string_view name() const;
  // The player a caller may act as: its name for a player token, and
  // otherwise the whole namespaced subject, which no player id can equal
  // (player ids have no ':'), so a non-player never matches a seat.
  std::string player_id() const;
};

// "player:ana" from (kPlayer, "ana").
std::string Subject(Role role, std::string_view name);
// A name: 1..64 of [A-Za-z0-9_.-], starting with a letter or digit (the
// ledger's ids).
bool IsValidName(std::string_view name);

inline constexpr size_t kSeedBytes = 32;
inline constexpr size_t kPublicKeyBytes = 32;

struct PublicKey {
  std::array<unsigned char, kPublicKeyBytes> bytes{};
  // 16 hex digits.
  std::string key_id;
};

// The issuer's key: a 32-byte Ed25519 seed (the 64 hex digits of a token
// key file) and the key pair it yields.
class SigningKey {
 public:
  static absl::StatusOr<SigningKey> FromSeed(
      const std::array<unsigned char, kSeedBytes>& seed);
  // INVALID_ARGUMENT unless `hex` is 64 hex digits.
  static absl::StatusOr<SigningKey> FromSeedHex(std::string_view hex);

  const PublicKey& public_key() const { return public_key_; }
  // 64 bytes: the signature of `message`.
  std::string Sign(std::string_view message) const;

 private:
  std::array<unsigned char, 64> secret_{};
  PublicKey public_key_;
};

// INVALID_ARGUMENT for a bad name, role mismatch, audience or lifetime.
absl::StatusOr<std::string> IssueToken(const SigningKey& key,
                                       const Claims& claims);

// The keys a service accepts tokens from. Thread-safe; copies share the
// cache of tokens already verified (each hit is still checked against the
// copy's own keys, the audience and the time).
class Verifier {
 public:
  Verifier();
  // The text of a key file: either 64 hex digits (an issuer's seed: its
  // public key is taken) or lines "ed25519-public <64 hex>" (one key a
  // line, for rotation), with '#' comments and blank lines.
  static absl::StatusOr<Verifier> FromKeyFileText(std::string_view text);
  // Adds a key; RESOURCE_EXHAUSTED past kMaxVerifyingKeys.
  absl::Status Add(const PublicKey& key);
  bool empty() const { return keys_.empty(); }
  const std::vector<PublicKey>& keys() const { return keys_; }

  // UNAUTHENTICATED (with the reason) for a malformed, forged, expired,
  // not-yet-valid, over-long-lived or other-audience token, or one signed
  // by a key this verifier does not hold.
  absl::StatusOr<Claims> Verify(
      std::string_view token, int64_t now_unix_seconds,
      std::string_view audience = kDefaultAudience) const;

 private:
  struct Cache;
  bool Holds(std::string_view key_id) const;
  std::vector<PublicKey> keys_;
  std::shared_ptr<Cache> cache_;
};

// "ed25519-public <hex>": a verifying-only key file line.
std::string PublicKeyLine(const PublicKey& key);
// Parses 64 hex digits into 32 bytes.
absl::StatusOr<std::array<unsigned char, 32>> BytesFromHex(
    std::string_view hex);

}  // namespace banca::auth

#endif  // BANCA_LIBS_AUTH_TOKEN_H_
