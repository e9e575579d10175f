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
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "libs/auth/token.h"
#include "services/server/token_key.h"
#include "tools/banca/commands.h"

namespace banca::cli {
namespace {

struct IssueFlags {
  std::string subject;
  std::string role = "player";
  int64_t ttl_seconds = 3600;
  std::string audience = std::string(auth::kDefaultAudience);
  std::string token_key_file;
};

constexpr char kKeyFileHelp[] =
    "the issuer's key file (else BANCA_TOKEN_KEY; docs/security.md)";

int Fail(const absl::Status& s) {
  return Complain("banca token", s, kUsageError);
}

int Issue(const IssueFlags& flags) {
  auto role = auth::ParseRole(flags.role);
  auto key = server::LoadSigningKey(flags.token_key_file);
  for (const absl::Status& s : {role.status(), key.status()}) {
    if (!s.ok()) return Fail(s);
  }
  std::string subject = flags.subject;
  if (!absl::StrContains(subject, ':')) {
    subject = auth::Subject(*role, subject);
  }
  auth::Claims claims;
  claims.subject = subject;
  claims.role = *role;
  claims.audience = flags.audience;
  claims.issued_at_unix_seconds = absl::ToUnixSeconds(absl::Now());
  claims.expires_unix_seconds =
      claims.issued_at_unix_seconds + flags.ttl_seconds;
  auto token = auth::IssueToken(*key, claims);
  if (!token.ok()) return Fail(token.status());
  std::printf("%s\n", token->c_str());
  return 0;
}

int PublicKey(const std::string& key_file) {
  auto key = server::LoadSigningKey(key_file);
  if (!key.ok()) return Fail(key.status());
  std::printf("%s\n", auth::PublicKeyLine(key->public_key()).c_str());
  return 0;
}

int NewKey(const std::string& out) {
  if (absl::Status s = server::WriteNewSeedFile(out); !s.ok()) return Fail(s);
  return 0;
}

void AddIssue(CLI::App& token, Action* action) {
  CLI::App* issue =
      token.add_subcommand("issue", "print a signed caller token");
  auto flags = std::make_shared<IssueFlags>();
  issue->add_option("--subject", flags->subject,
                    "who calls: \"ana\" is namespaced by the role "
                    "(player:ana), \"player:ana\" is taken as it is");
  issue->add_option("--role", flags->role,
                    "player, operator, finance, auditor, service or gateway");
  AddInt(*issue, "--ttl-seconds", flags->ttl_seconds,
         "lifetime (at most 31 days)", 1, auth::kMaxLifetimeSeconds);
  issue->add_option("--audience", flags->audience,
                    "the services that accept it");
  issue->add_option("--token-key-file", flags->token_key_file, kKeyFileHelp);
  OnParsed(*issue, action, [flags] { return Issue(*flags); });
}

}  // namespace

void AddTokenCommand(CLI::App& banca, Action* action) {
  CLI::App* token =
      banca.add_subcommand("token", "caller tokens and their keys");
  token->require_subcommand(1);
  token->footer("Exit 0 done, 2 usage or a key that cannot be read.");
  AddIssue(*token, action);

  CLI::App* public_key = token->add_subcommand(
      "public-key", "print the issuer key's verifying-only line");
  auto key_file = std::make_shared<std::string>();
  public_key->add_option("--token-key-file", *key_file, kKeyFileHelp);
  OnParsed(*public_key, action, [key_file] { return PublicKey(*key_file); });

  CLI::App* new_key =
      token->add_subcommand("new-key", "write a new random issuer key (0600)");
  auto out = std::make_shared<std::string>();
  new_key->add_option("--out", *out, "the key file to write")->required();
  OnParsed(*new_key, action, [out] { return NewKey(*out); });
}

}  // namespace banca::cli
