// `banca token issue --subject=S --role=R [--ttl-seconds=N]
//   [--audience=banca] [--token-key-file=PATH]`: prints a signed caller
//   token for the services' "authorization: Bearer <token>" metadata. The
//   subject is namespaced by the role ("ana" with --role=player is
//   "player:ana"; "player:ana" is taken as it is).
// `banca token public-key [--token-key-file=PATH]`: prints the
//   "ed25519-public <hex>" line of the issuer's key, for the verifying-only
//   key file of production services (docs/security.md, "Rotation").
// `banca token new-key --out=PATH`: writes a new random issuer key (0600).
#include <cstdio>
#include <string>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "libs/auth/token.h"
#include "tools/banca/commands.h"
#include "tools/banca/flags.h"
#include "tools/banca/token_key.h"

namespace banca::cli {
namespace {

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "banca token: %s\n", std::string(s.message()).c_str());
  return 2;
}

int Usage() {
  std::fprintf(stderr,
               "usage: banca token issue --subject=ID --role=ROLE "
               "[--ttl-seconds=N] [--audience=banca] [--token-key-file=PATH]\n"
               "       banca token public-key [--token-key-file=PATH]\n"
               "       banca token new-key --out=PATH\n");
  return 2;
}

int Issue(const Flags& flags) {
  auto ttl = flags.GetInt("ttl-seconds", 3600);
  auto role = auth::ParseRole(flags.Get("role", "player"));
  auto key = LoadSigningKey(flags.Get("token-key-file", ""));
  for (const absl::Status& s : {ttl.status(), role.status(), key.status()}) {
    if (!s.ok()) return Fail(s);
  }
  if (*ttl < 1 || *ttl > auth::kMaxLifetimeSeconds) {
    return Fail(absl::InvalidArgumentError(
        "--ttl-seconds must be 1..2678400 (31 days)"));
  }
  std::string subject = flags.Get("subject", "");
  if (!absl::StrContains(subject, ':')) {
    subject = auth::Subject(*role, subject);
  }
  auth::Claims claims;
  claims.subject = subject;
  claims.role = *role;
  claims.audience = flags.Get("audience", std::string(auth::kDefaultAudience));
  claims.issued_at_unix_seconds = absl::ToUnixSeconds(absl::Now());
  claims.expires_unix_seconds = claims.issued_at_unix_seconds + *ttl;
  auto token = auth::IssueToken(*key, claims);
  if (!token.ok()) return Fail(token.status());
  std::printf("%s\n", token->c_str());
  return 0;
}

}  // namespace

int TokenCommand(int argc, char** argv) {
  if (argc < 3) return Usage();
  const std::string verb = argv[2];
  auto flags = Flags::Parse(
      argc, argv, 3,
      {"subject", "role", "ttl-seconds", "token-key-file", "audience", "out"});
  if (!flags.ok()) return Fail(flags.status());
  if (verb == "issue") return Issue(*flags);
  if (verb == "public-key") {
    auto key = LoadSigningKey(flags->Get("token-key-file", ""));
    if (!key.ok()) return Fail(key.status());
    std::printf("%s\n", auth::PublicKeyLine(key->public_key()).c_str());
    return 0;
  }
  if (verb == "new-key") {
    const std::string out = flags->Get("out", "");
    if (out.empty()) return Usage();
    if (absl::Status s = WriteNewSeedFile(out); !s.ok()) return Fail(s);
    return 0;
  }
  return Usage();
}

}  // namespace banca::cli
