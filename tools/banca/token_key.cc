#include "tools/banca/token_key.h"

#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"

namespace banca::cli {
namespace {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("cannot read the key file ", path));
  }
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().size() > 64 * 1024) {
    return absl::InvalidArgumentError(absl::StrCat(path, " is too large"));
  }
  return text.str();
}

// The seed's hex: from the file, else the environment; empty when neither.
absl::StatusOr<std::string> SeedHex(const std::string& key_file) {
  std::string hex;
  if (!key_file.empty()) {
    ASSIGN_OR_RETURN(hex, ReadFile(key_file));
  } else if (const char* env = std::getenv("BANCA_TOKEN_KEY")) {
    hex = env;
  }
  absl::StripAsciiWhitespace(&hex);
  return hex;
}

}  // namespace

absl::StatusOr<auth::SigningKey> LoadSigningKey(const std::string& key_file) {
  ASSIGN_OR_RETURN(const std::string hex, SeedHex(key_file));
  if (hex.empty()) {
    return absl::NotFoundError(
        "signing tokens needs the issuer's key: --token-key-file=PATH or "
        "BANCA_TOKEN_KEY (64 hex digits; `openssl rand -hex 32`)");
  }
  return auth::SigningKey::FromSeedHex(hex);
}

absl::StatusOr<auth::Verifier> LoadVerifier(
    const std::string& key_file, const std::string& verify_key_file) {
  auth::Verifier verifier;
  ASSIGN_OR_RETURN(const std::string hex, SeedHex(key_file));
  if (!hex.empty()) {
    ASSIGN_OR_RETURN(auth::SigningKey key, auth::SigningKey::FromSeedHex(hex));
    RETURN_IF_ERROR(verifier.Add(key.public_key()));
  }
  if (!verify_key_file.empty()) {
    ASSIGN_OR_RETURN(const std::string text, ReadFile(verify_key_file));
    ASSIGN_OR_RETURN(auth::Verifier listed,
                     auth::Verifier::FromKeyFileText(text));
    for (const auth::PublicKey& k : listed.keys()) {
      RETURN_IF_ERROR(verifier.Add(k));
    }
  }
  if (verifier.empty()) {
    return absl::NotFoundError(
        "the services check signed tokens: give --token-key-file=PATH (the "
        "issuer's 64 hex digits) or --token-verify-key-file=PATH (lines "
        "\"ed25519-public <hex>\"), or BANCA_TOKEN_KEY; --insecure-dev "
        "turns the wallet's checks off for a developer's machine");
  }
  return verifier;
}

absl::Status WriteNewSeedFile(const std::string& path) {
  if (sodium_init() < 0) return absl::InternalError("libsodium init failed");
  unsigned char seed[auth::kSeedBytes];
  randombytes_buf(seed, sizeof seed);
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char b : seed) {
    hex.push_back(kDigits[b >> 4]);
    hex.push_back(kDigits[b & 15]);
  }
  hex.push_back('\n');
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) {
    return absl::PermissionDeniedError(absl::StrCat("cannot create ", path));
  }
  const bool written =
      ::write(fd, hex.data(), hex.size()) == static_cast<ssize_t>(hex.size());
  ::close(fd);
  if (!written) return absl::DataLossError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

}  // namespace banca::cli
