// The tests' token keys: one fixed issuer key, its verifier, and tokens
// issued at a clock of the test's choosing (fixtures use ManualClock).
#ifndef BANCA_TESTS_INTEGRATION_TEST_KEYS_H_
#define BANCA_TESTS_INTEGRATION_TEST_KEYS_H_

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <string>
#include <string_view>

#include "absl/time/clock.h"
#include "libs/auth/token.h"
#include "libs/seal/deck_keys.h"
#include "services/common/authorized_channel.h"

namespace banca::testing {

inline const auth::SigningKey& TestSigningKey() {
  static const auth::SigningKey key = [] {
    std::array<unsigned char, auth::kSeedBytes> seed;
    seed.fill(42);
    return *auth::SigningKey::FromSeed(seed);
  }();
  return key;
}

// The seed above as a key file's text.
inline std::string TestKeyHex() {
  std::string hex;
  for (int i = 0; i < 32; ++i) hex += "2a";
  return hex;
}

// Writes the key to DIR/token.key (0600) and returns the path, for a
// `banca serve --token-key-file=` child.
inline std::string WriteTestKeyFile(const std::string& dir) {
  const std::string path = dir + "/token.key";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd >= 0) {
    const std::string hex = TestKeyHex() + "\n";
    (void)!::write(fd, hex.data(), hex.size());
    ::close(fd);
  }
  return path;
}

inline auth::Verifier TestVerifier() {
  auth::Verifier v;
  (void)v.Add(TestSigningKey().public_key());
  return v;
}

// The table hosts' deck key (sealed_decks.h): fixed, like the token key.
inline std::string TestDeckKeyHex() { return std::string(64, '7'); }
inline seal::DeckKeys TestDeckKeys() {
  return *seal::DeckKeys::FromKeyFileText(TestDeckKeyHex());
}

// A token for `name` in `role`, issued at `now_seconds` (-1: wall clock).
inline std::string TestToken(auth::Role role, std::string_view name,
                             int64_t now_seconds = -1) {
  return *edge::DayToken(TestSigningKey(), role, name, now_seconds);
}

}  // namespace banca::testing

#endif  // BANCA_TESTS_INTEGRATION_TEST_KEYS_H_
