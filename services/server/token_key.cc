#include "services/server/token_key.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"

namespace banca::server {
namespace {

// Creates `path` readable by its owner only (`mode`: O_TRUNC to replace a
// file, O_EXCL to refuse one).
absl::Status WritePrivateFile(const std::string& path, const std::string& text,
                              int mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | mode, 0600);
  if (fd < 0) {
    return absl::PermissionDeniedError(absl::StrCat("cannot create ", path));
  }
  const bool written = ::write(fd, text.data(), text.size()) ==
                       static_cast<ssize_t>(text.size());
  const bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    return absl::DataLossError(absl::StrCat("cannot write ", path));
  }
  return absl::OkStatus();
}

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
  // A seed is 32 random bytes in hex, as a deck key is.
  return WritePrivateFile(path, seal::DeckKeys::NewKeyHex() + "\n", O_TRUNC);
}

absl::StatusOr<seal::DeckKeys> LoadDeckKeys(const std::string& key_file,
                                            const std::string& data_dir,
                                            bool* created) {
  *created = false;
  std::string path = key_file;
  if (path.empty()) {
    path = data_dir + "/deck.key";
    if (::access(path.c_str(), F_OK) != 0) {
      RETURN_IF_ERROR(WritePrivateFile(
          path,
          absl::StrCat("# banca deck key (docs/security.md, \"Sealed "
                       "decks\")\n",
                       seal::DeckKeys::NewKeyHex(), "\n"),
          O_EXCL));
      *created = true;
    }
  }
  ASSIGN_OR_RETURN(const std::string text, ReadFile(path));
  return AsInvalidArgument(seal::DeckKeys::FromKeyFileText(text), path, ": ");
}

}  // namespace banca::server
