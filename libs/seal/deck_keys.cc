#include "libs/seal/deck_keys.h"

#include <sodium.h>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/common/string_view.h"

namespace banca::seal {
namespace {

// Keeps ids of deck keys apart from any other hash of the same bytes.
constexpr std::string_view kKeyIdPersonal = "banca deck key id";

bool EnsureSodium() {
  static const bool ok = sodium_init() >= 0;
  return ok;
}

std::string Hex(const uint8_t* bytes, size_t n) {
  std::string out(2 * n + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes, n);
  out.pop_back();
  return out;
}

std::string KeyIdOf(const std::array<uint8_t, kKeyBytes>& key) {
  uint8_t digest[32];
  crypto_generichash(digest, sizeof digest,
                     reinterpret_cast<const uint8_t*>(kKeyIdPersonal.data()),
                     kKeyIdPersonal.size(), key.data(), key.size());
  return Hex(digest, 8);
}

const uint8_t* Bytes(std::string_view s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

}  // namespace

absl::StatusOr<DeckKeys> DeckKeys::FromKeyFileText(std::string_view text) {
  if (!EnsureSodium()) return absl::InternalError("libsodium init failed");
  DeckKeys keys;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(ToAbsl(text), '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    Key key;
    size_t decoded = 0;
    if (line.size() != 2 * kKeyBytes ||
        sodium_hex2bin(key.bytes.data(), key.bytes.size(), line.data(),
                       line.size(), nullptr, &decoded, nullptr) != 0 ||
        decoded != kKeyBytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          "deck key file line ", line_number, ": a key is 64 hex digits"));
    }
    key.id = KeyIdOf(key.bytes);
    for (const Key& k : keys.keys_) {
      if (k.id == key.id) {
        return absl::InvalidArgumentError(absl::StrCat(
            "deck key file line ", line_number, ": the same key twice"));
      }
    }
    if (keys.keys_.size() == kMaxDeckKeys) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a deck key file holds at most ", kMaxDeckKeys, " keys"));
    }
    keys.keys_.push_back(std::move(key));
  }
  if (keys.empty()) {
    return absl::InvalidArgumentError("the deck key file holds no key");
  }
  return keys;
}

std::string DeckKeys::NewKeyHex() {
  EnsureSodium();
  std::array<uint8_t, kKeyBytes> key;
  crypto_aead_xchacha20poly1305_ietf_keygen(key.data());
  std::string hex = Hex(key.data(), key.size());
  sodium_memzero(key.data(), key.size());
  return hex;
}

std::string DeckKeys::sealing_key_id() const {
  return keys_.empty() ? "" : keys_.front().id;
}

absl::StatusOr<Sealed> DeckKeys::Seal(std::string_view plaintext,
                                      std::string_view context) const {
  static_assert(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES == kNonceBytes);
  static_assert(crypto_aead_xchacha20poly1305_ietf_ABYTES == kTagBytes);
  static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == kKeyBytes);
  if (!EnsureSodium()) return absl::InternalError("libsodium init failed");
  if (keys_.empty()) return absl::FailedPreconditionError("no deck key");
  if (plaintext.size() > kMaxSealedBytes) {
    return absl::InvalidArgumentError("too large to seal");
  }
  const Key& key = keys_.front();
  Sealed sealed;
  sealed.key_id = key.id;
  sealed.nonce.resize(kNonceBytes);
  randombytes_buf(sealed.nonce.data(), kNonceBytes);
  sealed.box.resize(plaintext.size() + kTagBytes);
  unsigned long long box_size = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(
      reinterpret_cast<uint8_t*>(sealed.box.data()), &box_size,
      Bytes(plaintext), plaintext.size(), Bytes(context), context.size(),
      nullptr, Bytes(sealed.nonce), key.bytes.data());
  if (box_size != sealed.box.size()) {
    return absl::InternalError("sealing produced an unexpected size");
  }
  return sealed;
}

absl::StatusOr<std::string> DeckKeys::Open(const Sealed& sealed,
                                           std::string_view context) const {
  if (!EnsureSodium()) return absl::InternalError("libsodium init failed");
  const Key* key = nullptr;
  for (const Key& k : keys_) {
    if (k.id == sealed.key_id) key = &k;
  }
  if (key == nullptr) {
    return absl::NotFoundError(absl::StrCat(
        "sealed with deck key ", ToAbsl(sealed.key_id.substr(0, 16)),
        ", which is not among the deck keys"));
  }
  if (sealed.nonce.size() != kNonceBytes || sealed.box.size() < kTagBytes ||
      sealed.box.size() > kMaxSealedBytes + kTagBytes) {
    return absl::DataLossError("a sealed deck of the wrong size");
  }
  std::string plaintext(sealed.box.size() - kTagBytes, '\0');
  unsigned long long size = 0;
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(
          reinterpret_cast<uint8_t*>(plaintext.data()), &size, nullptr,
          Bytes(sealed.box), sealed.box.size(), Bytes(context), context.size(),
          Bytes(sealed.nonce), key->bytes.data()) != 0 ||
      size != plaintext.size()) {
    return absl::DataLossError(
        "a sealed deck does not open: altered, or sealed for another deal");
  }
  return plaintext;
}

}  // namespace banca::seal
