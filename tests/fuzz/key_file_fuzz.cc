// The token key file parser (libs/auth/token.h): Verifier::FromKeyFileText
// on any text, and a token verified with whatever keys it yields. Errors
// are expected; a crash or UB is a finding, and so is a verifier holding
// more keys than kMaxVerifyingKeys.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "libs/auth/token.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace banca::auth;
  absl::StatusOr<Verifier> verifier = Verifier::FromKeyFileText(
      std::string_view(reinterpret_cast<const char*>(data), size));
  if (!verifier.ok()) return 0;
  if (verifier->empty() || verifier->keys().size() > kMaxVerifyingKeys) {
    std::abort();
  }
  (void)verifier->Verify("v2.0000000000000000.c3ViPXBsYXllcjphbmE.AAAA",
                         1'700'000'000);
  for (const PublicKey& key : verifier->keys()) (void)PublicKeyLine(key);
  return 0;
}
