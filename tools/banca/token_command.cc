// `banca token issue --subject=ID --role=ROLE [--ttl-seconds=N]
// [--token-key-file=PATH]`: prints a signed caller token for the services'
// "authorization: Bearer <token>" metadata (operators' tooling, the demo,
// tests). The key comes from the file or BANCA_TOKEN_KEY.
#include <cstdio>
#include <string>

#include "absl/time/clock.h"
#include "libs/auth/token.h"
#include "tools/banca/commands.h"
#include "tools/banca/flags.h"
#include "tools/banca/token_key.h"

namespace banca::cli {

int TokenCommand(int argc, char** argv) {
  if (argc < 3 || std::string(argv[2]) != "issue") {
    std::fprintf(stderr,
                 "usage: banca token issue --subject=ID --role=ROLE "
                 "[--ttl-seconds=N] [--token-key-file=PATH]\n");
    return 2;
  }
  auto flags = Flags::Parse(
      argc, argv, 3, {"subject", "role", "ttl-seconds", "token-key-file"});
  if (!flags.ok()) {
    std::fprintf(stderr, "banca token: %s\n",
                 std::string(flags.status().message()).c_str());
    return 2;
  }
  auto ttl = flags->GetInt("ttl-seconds", 3600);
  auto role = auth::ParseRole(flags->Get("role", "player"));
  auto key = LoadTokenKey(flags->Get("token-key-file", ""));
  for (const absl::Status& s : {ttl.status(), role.status(), key.status()}) {
    if (!s.ok()) {
      std::fprintf(stderr, "banca token: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
  }
  if (*ttl < 1 || *ttl > 31 * 86'400) {
    std::fprintf(stderr, "banca token: --ttl-seconds must be 1..2678400\n");
    return 2;
  }
  auto token =
      auth::IssueToken(*key, {flags->Get("subject", ""), *role,
                              absl::ToUnixSeconds(absl::Now()) + *ttl});
  if (!token.ok()) {
    std::fprintf(stderr, "banca token: %s\n",
                 std::string(token.status().message()).c_str());
    return 2;
  }
  std::printf("%s\n", token->c_str());
  return 0;
}

}  // namespace banca::cli
