// The token parser (libs/auth/token.h): auth::Verifier::Verify on any text.
// Byte 0 picks the mode:
//   even: the rest is a token, verified as a service would (a forged
//         signature stops it early: this fuzzes the framing and encodings);
//   odd:  the rest is the claims text, which the harness signs with the
//         verifier's own key so that the claims parser behind the
//         signature check sees mutated claims too.
// Rejections (UNAUTHENTICATED) are expected; a crash or UB is a finding,
// and so is an accepted token whose claims break the documented limits.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "libs/auth/token.h"

namespace {

constexpr int64_t kNow = 1'700'000'000;

const banca::auth::SigningKey& Key() {
  static const auto* key = [] {
    std::array<unsigned char, banca::auth::kSeedBytes> seed;
    seed.fill(0x5a);
    return new banca::auth::SigningKey(
        *banca::auth::SigningKey::FromSeed(seed));
  }();
  return *key;
}

const banca::auth::Verifier& TheVerifier() {
  static const auto* verifier = [] {
    auto* v = new banca::auth::Verifier;
    if (!v->Add(Key().public_key()).ok()) std::abort();
    return v;
  }();
  return *verifier;
}

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "accepted token breaks: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace banca::auth;
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1,
                              size - 1);
  std::string token;
  if ((data[0] & 1) == 0) {
    token = std::string(rest);
  } else {
    const std::string head = absl::StrCat(
        "v2.", Key().public_key().key_id, ".",
        absl::WebSafeBase64Escape(absl::string_view(rest.data(), rest.size())));
    token =
        absl::StrCat(head, ".", absl::WebSafeBase64Escape(Key().Sign(head)));
  }
  absl::StatusOr<Claims> claims = TheVerifier().Verify(token, kNow);
  if (!claims.ok()) return 0;
  Check(token.size() <= kMaxTokenBytes, "size");
  Check(claims->audience == kDefaultAudience, "audience");
  Check(claims->expires_unix_seconds > kNow, "expiry");
  Check(claims->issued_at_unix_seconds <= kNow + kMaxClockSkewSeconds,
        "issue time");
  Check(claims->expires_unix_seconds - claims->issued_at_unix_seconds <=
            kMaxLifetimeSeconds,
        "lifetime");
  Check(claims->subject == Subject(claims->role, claims->name()), "subject");
  Check(IsValidName(claims->name()), "name");
  (void)claims->player_id();
  return 0;
}
