// Where `banca serve` and `banca token` find the key that signs caller
// tokens: a file holding 64 hex digits (--token-key-file), else the
// BANCA_TOKEN_KEY environment variable. Never a default: a service that
// checks identities must not run with a key everyone knows.
#ifndef BANCA_TOOLS_BANCA_TOKEN_KEY_H_
#define BANCA_TOOLS_BANCA_TOKEN_KEY_H_

#include <string>

#include "absl/status/statusor.h"
#include "libs/auth/token.h"

namespace banca::cli {

absl::StatusOr<auth::Key> LoadTokenKey(const std::string& key_file);

}  // namespace banca::cli

#endif  // BANCA_TOOLS_BANCA_TOKEN_KEY_H_
