#include "libs/auth/token.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace banca::auth {
namespace {

SigningKey TestKey(unsigned char fill) {
  std::array<unsigned char, kSeedBytes> seed;
  seed.fill(fill);
  return *SigningKey::FromSeed(seed);
}

Verifier VerifierOf(const SigningKey& key) {
  Verifier v;
  EXPECT_TRUE(v.Add(key.public_key()).ok());
  return v;
}

Claims PlayerClaims(std::string name = "ana") {
  Claims c;
  c.subject = Subject(Role::kPlayer, name);
  c.role = Role::kPlayer;
  c.issued_at_unix_seconds = 1000;
  c.expires_unix_seconds = 2000;
  return c;
}

TEST(Token, IssuedTokenVerifiesWithItsClaims) {
  auto token = IssueToken(TestKey(7), PlayerClaims());
  ASSERT_TRUE(token.ok()) << token.status();
  auto claims = VerifierOf(TestKey(7)).Verify(*token, 1999);
  ASSERT_TRUE(claims.ok()) << claims.status();
  EXPECT_EQ(claims->subject, "player:ana");
  EXPECT_EQ(claims->name(), "ana");
  EXPECT_EQ(claims->player_id(), "ana");
  EXPECT_EQ(claims->role, Role::kPlayer);
  EXPECT_EQ(claims->audience, "banca");
  EXPECT_EQ(claims->expires_unix_seconds, 2000);
}

TEST(Token, ANonPlayerNeverActsAsAPlayerOfTheSameName) {
  Claims c = PlayerClaims();
  c.role = Role::kAuditor;
  c.subject = Subject(Role::kAuditor, "ana");
  auto token = IssueToken(TestKey(7), c);
  ASSERT_TRUE(token.ok()) << token.status();
  auto claims = VerifierOf(TestKey(7)).Verify(*token, 1500);
  ASSERT_TRUE(claims.ok());
  EXPECT_EQ(claims->player_id(), "auditor:ana");
}

TEST(Token, ExpiredOrFutureTokenIsUnauthenticated) {
  auto token = IssueToken(TestKey(7), PlayerClaims());
  ASSERT_TRUE(token.ok());
  auto expired = VerifierOf(TestKey(7)).Verify(*token, 2000);
  EXPECT_EQ(expired.status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_NE(expired.status().message().find("expired"), std::string::npos);
  auto early = VerifierOf(TestKey(7)).Verify(*token, 1000 - 61);
  EXPECT_EQ(early.status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_NE(early.status().message().find("future"), std::string::npos);
}

TEST(Token, LifetimeIsBounded) {
  Claims c = PlayerClaims();
  c.expires_unix_seconds = c.issued_at_unix_seconds + kMaxLifetimeSeconds + 1;
  EXPECT_EQ(IssueToken(TestKey(7), c).status().code(),
            absl::StatusCode::kInvalidArgument);
  c.expires_unix_seconds = c.issued_at_unix_seconds;
  EXPECT_FALSE(IssueToken(TestKey(7), c).ok());
}

TEST(Token, OtherKeyOrChangedClaimsFailTheSignature) {
  auto token = IssueToken(TestKey(7), PlayerClaims());
  ASSERT_TRUE(token.ok());
  EXPECT_EQ(VerifierOf(TestKey(8)).Verify(*token, 1500).status().code(),
            absl::StatusCode::kUnauthenticated);
  // A player promoting itself to operator keeps the old signature.
  std::vector<std::string> parts = absl::StrSplit(*token, '.');
  ASSERT_EQ(parts.size(), 4u);
  std::string forged_claims;
  absl::WebSafeBase64Escape("sub=operator:ana;aud=banca;iat=1000;exp=2000",
                            &forged_claims);
  const std::string forged =
      absl::StrCat(parts[0], ".", parts[1], ".", forged_claims, ".", parts[3]);
  auto claims = VerifierOf(TestKey(7)).Verify(forged, 1500);
  EXPECT_EQ(claims.status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_NE(claims.status().message().find("signature"), std::string::npos);
}

TEST(Token, AnotherAudienceIsRefused) {
  Claims c = PlayerClaims();
  c.audience = "staging";
  auto token = IssueToken(TestKey(7), c);
  ASSERT_TRUE(token.ok());
  EXPECT_FALSE(VerifierOf(TestKey(7)).Verify(*token, 1500).ok());
  EXPECT_TRUE(VerifierOf(TestKey(7)).Verify(*token, 1500, "staging").ok());
}

TEST(Token, RotationAcceptsEveryListedKey) {
  auto old_token = IssueToken(TestKey(1), PlayerClaims());
  auto new_token = IssueToken(TestKey(2), PlayerClaims());
  ASSERT_TRUE(old_token.ok() && new_token.ok());
  auto verifier = Verifier::FromKeyFileText(
      absl::StrCat("# rotation\n", PublicKeyLine(TestKey(1).public_key()),
                   "\n\n", PublicKeyLine(TestKey(2).public_key()), "\n"));
  ASSERT_TRUE(verifier.ok()) << verifier.status();
  EXPECT_TRUE(verifier->Verify(*old_token, 1500).ok());
  EXPECT_TRUE(verifier->Verify(*new_token, 1500).ok());
  // Dropping the old key ends the old tokens.
  auto after =
      Verifier::FromKeyFileText(PublicKeyLine(TestKey(2).public_key()));
  ASSERT_TRUE(after.ok());
  EXPECT_FALSE(after->Verify(*old_token, 1500).ok());
}

TEST(Token, ASeedFileVerifiesAndAPublicFileCannotSign) {
  const std::string seed_hex(64, 'a');
  auto verifier = Verifier::FromKeyFileText(seed_hex + "\n");
  ASSERT_TRUE(verifier.ok()) << verifier.status();
  auto key = SigningKey::FromSeedHex(seed_hex);
  ASSERT_TRUE(key.ok());
  auto token = IssueToken(*key, PlayerClaims());
  ASSERT_TRUE(token.ok());
  EXPECT_TRUE(verifier->Verify(*token, 1500).ok());
  // A verifying-only line is not a seed.
  EXPECT_FALSE(SigningKey::FromSeedHex(PublicKeyLine(key->public_key())).ok());
}

TEST(Token, ARememberedTokenIsStillCheckedForTimeAudienceAndKey) {
  Verifier verifier = VerifierOf(TestKey(7));
  auto token = IssueToken(TestKey(7), PlayerClaims());
  ASSERT_TRUE(token.ok());
  ASSERT_TRUE(verifier.Verify(*token, 1500).ok());  // now remembered
  EXPECT_TRUE(verifier.Verify(*token, 1600).ok());
  EXPECT_EQ(verifier.Verify(*token, 2000).status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_FALSE(verifier.Verify(*token, 1500, "staging").ok());
  // A copy shares what was verified, but only for the keys it holds: a
  // verifier rebuilt without the key refuses the token.
  Verifier copy = verifier;
  EXPECT_TRUE(copy.Verify(*token, 1500).ok());
  Verifier other = VerifierOf(TestKey(8));
  EXPECT_FALSE(other.Verify(*token, 1500).ok());
  // A token one character off is not the remembered one.
  std::string changed = *token;
  changed.back() = changed.back() == 'A' ? 'B' : 'A';
  EXPECT_FALSE(verifier.Verify(changed, 1500).ok());
}

TEST(Token, MalformedTokensAreRejected) {
  const Verifier verifier = VerifierOf(TestKey(1));
  for (const char* bad : {"", "v2", "v1.ana.player.1.00", "v2.x.y.z",
                          "a.b.c.d.e.f", "v2...", "v2.0000000000000000.a.b"}) {
    EXPECT_EQ(verifier.Verify(bad, 0).status().code(),
              absl::StatusCode::kUnauthenticated)
        << bad;
  }
  EXPECT_EQ(verifier.Verify(std::string(600, 'a'), 0).status().code(),
            absl::StatusCode::kUnauthenticated);
}

TEST(Token, SubjectsKeysAndRolesAreChecked) {
  Claims c = PlayerClaims("a/b");
  EXPECT_FALSE(IssueToken(TestKey(1), c).ok());
  c = PlayerClaims();
  c.subject = "ana";  // not namespaced
  EXPECT_FALSE(IssueToken(TestKey(1), c).ok());
  c.subject = "operator:ana";  // namespace differs from the role
  EXPECT_FALSE(IssueToken(TestKey(1), c).ok());
  EXPECT_FALSE(SigningKey::FromSeedHex("abc").ok());
  EXPECT_FALSE(SigningKey::FromSeedHex(std::string(64, 'g')).ok());
  EXPECT_FALSE(Verifier::FromKeyFileText("").ok());
  EXPECT_FALSE(Verifier::FromKeyFileText("ed25519-public zz").ok());
  EXPECT_EQ(ParseRole("operator").value(), Role::kOperator);
  EXPECT_EQ(ParseRole("gateway").value(), Role::kGateway);
  EXPECT_FALSE(ParseRole("root").ok());
}

}  // namespace
}  // namespace banca::auth
