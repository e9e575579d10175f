#include "services/common/page_tokens.h"

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"

namespace banca::edge {
namespace {

TEST(PageTokensTest, ATokenResumesItsOwnQueryOnly) {
  PageTokens tokens;
  const std::string token = tokens.Make("stmt|ana|0|0", "stmt/ana/00ff/tx/01");
  absl::StatusOr<std::string> key = tokens.Open("stmt|ana|0|0", token);
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(*key, "stmt/ana/00ff/tx/01");
  // Another query (another player, another range) refuses it.
  EXPECT_EQ(tokens.Open("stmt|bia|0|0", token).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(tokens.Open("stmt|ana|0|1", token).status().code(),
            absl::StatusCode::kInvalidArgument);
  // Another process's key refuses it too.
  EXPECT_EQ(PageTokens().Open("stmt|ana|0|0", token).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(PageTokensTest, ForgedAndMalformedTokensAreRefused) {
  PageTokens tokens;
  const std::string token = tokens.Make("q", "stmt/ana/01");
  std::string raw;
  ASSERT_TRUE(absl::WebSafeBase64Unescape(token, &raw));
  // The key changed to another player's rows, the MAC kept.
  std::string forged;
  absl::WebSafeBase64Escape(raw.substr(0, 32) + "stmt/bia/01", &forged);
  EXPECT_EQ(tokens.Open("q", forged).status().code(),
            absl::StatusCode::kInvalidArgument);
  // Unsigned, as the wallet's listing makes them.
  std::string plain;
  absl::WebSafeBase64Escape("stmt/ana/01", &plain);
  EXPECT_FALSE(tokens.Open("q", plain).ok());
  EXPECT_FALSE(tokens.Open("q", "not base64 !").ok());
  EXPECT_FALSE(tokens.Open("q", "").ok());
  EXPECT_FALSE(
      tokens.Open("q", std::string(PageTokens::kMaxTokenBytes + 1, 'A')).ok());
}

}  // namespace
}  // namespace banca::edge
