// Where `banca serve` and `banca token` find the token keys: a file
// holding an issuer's 64 hex digits (an Ed25519 seed: --token-key-file),
// else the BANCA_TOKEN_KEY environment variable; and, for services that
// only verify, a file of "ed25519-public <hex>" lines
// (--token-verify-key-file). Never a default: a service that checks
// identities must not run with a key everyone knows.
//
// Also the table hosts' deck keys (libs/seal/deck_keys.h): --deck-key-file,
// else DATA_DIR/deck.key, made the first time a table host starts there.
#ifndef BANCA_SERVICES_SERVER_TOKEN_KEY_H_
#define BANCA_SERVICES_SERVER_TOKEN_KEY_H_

#include <string>

#include "absl/status/statusor.h"
#include "libs/auth/token.h"
#include "libs/seal/deck_keys.h"

namespace banca::server {

// The issuer's key from `key_file` or BANCA_TOKEN_KEY. NOT_FOUND when
// neither is given.
absl::StatusOr<auth::SigningKey> LoadSigningKey(const std::string& key_file);

// The keys a service accepts: the public key of the seed in `key_file` (or
// BANCA_TOKEN_KEY) and every key of `verify_key_file`. NOT_FOUND when no
// key is given at all.
absl::StatusOr<auth::Verifier> LoadVerifier(const std::string& key_file,
                                            const std::string& verify_key_file);

// Writes a new random seed to `path` (0600), for the demo and tests.
absl::Status WriteNewSeedFile(const std::string& path);

// The deck keys in `key_file`; with none given, those of
// `data_dir`/deck.key, which is created (0600, one new random key) if it
// does not exist, and `*created` says so. Table hosts that share tables
// (one Kafka log) must be given the same --deck-key-file.
absl::StatusOr<seal::DeckKeys> LoadDeckKeys(const std::string& key_file,
                                            const std::string& data_dir,
                                            bool* created);

}  // namespace banca::server

#endif  // BANCA_SERVICES_SERVER_TOKEN_KEY_H_
