// Deck keys: what the table hosts seal hidden cards with while a hand or
// round is in play (docs/security.md, "Sealed decks"). Symmetric: whoever
// holds a key can seal and open, so only the table hosts hold one; the
// wallet, the audit and the reporting side never need it, because a deal's
// cards are revealed in clear in the event that ends it.
//
// Sealing is XChaCha20-Poly1305 (libsodium's crypto_aead_xchacha20poly1305
// _ietf) with a random 24-byte nonce and the caller's `context` as
// associated data (the table, the kind of deal, its number), so a sealed
// deck opens only for the deal it was drawn for and any change to it is
// refused.
//
// Key file (`--deck-key-file`): one key per line, 64 hex digits (32 random
// bytes); '#' starts a comment. The first key seals; every key opens, so a
// rotation puts the new key first and keeps the old ones until no deal
// sealed with them is in play. A key's id is 16 hex digits of BLAKE2b of
// the key, recorded beside each sealed deck.
#ifndef BANCA_LIBS_SEAL_DECK_KEYS_H_
#define BANCA_LIBS_SEAL_DECK_KEYS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace banca::seal {

inline constexpr size_t kKeyBytes = 32;
inline constexpr size_t kNonceBytes = 24;
inline constexpr size_t kTagBytes = 16;
// A key file holds at most this many keys (a rotation needs two).
inline constexpr size_t kMaxDeckKeys = 16;
// Nothing larger is sealed or opened: an eight-deck shoe in DeckCards
// form is about 2.5 KiB.
inline constexpr size_t kMaxSealedBytes = 16 * 1024;

struct Sealed {
  std::string key_id;  // 16 hex digits
  std::string nonce;   // kNonceBytes
  std::string box;     // ciphertext and tag
};

class DeckKeys {
 public:
  // No keys: Seal and Open fail. A table host refuses to start with it.
  DeckKeys() = default;

  // The key file's text (see above). INVALID_ARGUMENT names the line.
  static absl::StatusOr<DeckKeys> FromKeyFileText(std::string_view text);
  // A fresh random key, as a key file's line (64 hex digits).
  static std::string NewKeyHex();

  bool empty() const { return keys_.empty(); }
  // The id of the key that seals ("" when empty).
  std::string sealing_key_id() const;

  // Seals `plaintext` (at most kMaxSealedBytes) for `context`.
  absl::StatusOr<Sealed> Seal(std::string_view plaintext,
                              std::string_view context) const;
  // The plaintext, or NOT_FOUND for a key id this set does not hold and
  // DATA_LOSS for a box that does not open for `context`.
  absl::StatusOr<std::string> Open(const Sealed& sealed,
                                   std::string_view context) const;

 private:
  struct Key {
    std::string id;
    std::array<uint8_t, kKeyBytes> bytes;
  };
  std::vector<Key> keys_;
};

}  // namespace banca::seal

#endif  // BANCA_LIBS_SEAL_DECK_KEYS_H_
