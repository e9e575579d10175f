#include "tools/banca/token_key.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace banca::cli {

absl::StatusOr<auth::Key> LoadTokenKey(const std::string& key_file) {
  std::string hex;
  if (!key_file.empty()) {
    std::ifstream in(key_file);
    if (!in) {
      return absl::NotFoundError(
          absl::StrCat("cannot read the token key file ", key_file));
    }
    std::stringstream text;
    text << in.rdbuf();
    hex = text.str();
  } else if (const char* env = std::getenv("BANCA_TOKEN_KEY")) {
    hex = env;
  } else {
    return absl::InvalidArgumentError(
        "the table service checks signed tokens: give --token-key-file=PATH "
        "or BANCA_TOKEN_KEY (64 hex digits; `openssl rand -hex 32`)");
  }
  absl::StripAsciiWhitespace(&hex);
  return auth::KeyFromHex(hex);
}

}  // namespace banca::cli
