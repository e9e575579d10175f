// The deck key the fuzzing harness's table hosts seal with (service_harness),
// so that the replay targets open the sealed decks of the seeds
// fuzz_make_seeds writes and fuzz what is inside them too.
#ifndef BANCA_TESTS_FUZZ_FUZZ_DECK_KEYS_H_
#define BANCA_TESTS_FUZZ_FUZZ_DECK_KEYS_H_

#include <cstdlib>
#include <string>

#include "libs/seal/deck_keys.h"

namespace banca::fuzz {

inline const seal::DeckKeys& FuzzDeckKeys() {
  static const seal::DeckKeys* keys = [] {
    absl::StatusOr<seal::DeckKeys> k =
        seal::DeckKeys::FromKeyFileText(std::string(64, '5'));
    if (!k.ok()) std::abort();
    return new seal::DeckKeys(*std::move(k));
  }();
  return *keys;
}

}  // namespace banca::fuzz

#endif  // BANCA_TESTS_FUZZ_FUZZ_DECK_KEYS_H_
