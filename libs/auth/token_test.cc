#include "libs/auth/token.h"

#include "gtest/gtest.h"

namespace banca::auth {
namespace {

Key TestKey(unsigned char fill) {
  Key key;
  key.fill(fill);
  return key;
}

TEST(Token, IssuedTokenVerifiesWithItsClaims) {
  auto token = IssueToken(TestKey(7), {"ana", Role::kPlayer, 2000});
  ASSERT_TRUE(token.ok()) << token.status();
  auto claims = VerifyToken(TestKey(7), *token, 1999);
  ASSERT_TRUE(claims.ok()) << claims.status();
  EXPECT_EQ(claims->subject, "ana");
  EXPECT_EQ(claims->role, Role::kPlayer);
  EXPECT_EQ(claims->expires_unix_seconds, 2000);
}

TEST(Token, ExpiredTokenIsUnauthenticated) {
  auto token = IssueToken(TestKey(7), {"ana", Role::kPlayer, 2000});
  ASSERT_TRUE(token.ok());
  auto claims = VerifyToken(TestKey(7), *token, 2000);
  EXPECT_EQ(claims.status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_NE(claims.status().message().find("expired"), std::string::npos);
}

TEST(Token, OtherKeyOrChangedClaimsFailTheSignature) {
  auto token = IssueToken(TestKey(7), {"ana", Role::kPlayer, 2000});
  ASSERT_TRUE(token.ok());
  EXPECT_EQ(VerifyToken(TestKey(8), *token, 0).status().code(),
            absl::StatusCode::kUnauthenticated);
  // A player promoting itself to operator keeps the old signature.
  std::string forged = *token;
  forged.replace(forged.find("player"), 6, "operator");
  auto claims = VerifyToken(TestKey(7), forged, 0);
  EXPECT_EQ(claims.status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_NE(claims.status().message().find("signature"), std::string::npos);
}

TEST(Token, MalformedTokensAreRejected) {
  for (const char* bad : {"", "v1", "v2.ana.player.1.00", "v1.ana.player.1",
                          "a.b.c.d.e.f", "v1..player.1.00"}) {
    EXPECT_EQ(VerifyToken(TestKey(1), bad, 0).status().code(),
              absl::StatusCode::kUnauthenticated)
        << bad;
  }
  EXPECT_EQ(VerifyToken(TestKey(1), std::string(600, 'a'), 0).status().code(),
            absl::StatusCode::kUnauthenticated);
}

TEST(Token, SubjectsAndKeysAreChecked) {
  EXPECT_FALSE(IssueToken(TestKey(1), {"a.b", Role::kPlayer, 1}).ok());
  EXPECT_FALSE(IssueToken(TestKey(1), {"", Role::kPlayer, 1}).ok());
  EXPECT_FALSE(KeyFromHex("abc").ok());
  EXPECT_FALSE(KeyFromHex(std::string(64, 'g')).ok());
  auto key = KeyFromHex(std::string(64, 'A'));
  ASSERT_TRUE(key.ok());
  EXPECT_EQ((*key)[0], 0xaa);
  EXPECT_EQ(ParseRole("operator").value(), Role::kOperator);
  EXPECT_EQ(ParseRole("gateway").value(), Role::kGateway);
  EXPECT_FALSE(ParseRole("root").ok());
}

}  // namespace
}  // namespace banca::auth
