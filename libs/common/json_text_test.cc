#include "libs/common/json_text.h"

#include <string>

#include "gtest/gtest.h"

namespace banca {
namespace {

// A name a client chose reaches JSON output as it is: quotes, backslashes
// and control characters escaped, so that the line parses back to it.
TEST(JsonText, EscapesWhatNeedsEscapingAndReadsBack) {
  const std::string name = std::string("a\"b\\c\nd\x01") + "e\x7f";
  nlohmann::ordered_json j;
  j["name"] = name;
  const std::string text = JsonText(j);
  EXPECT_EQ(text, "{\"name\":\"a\\\"b\\\\c\\nd\\u0001e\x7f\"}");
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(text)["name"], name);
}

// Bytes that are not UTF-8 are replaced, never thrown on.
TEST(JsonText, ReplacesBytesThatAreNotUtf8) {
  nlohmann::json j;
  j["name"] = std::string("ok\xff\xfe");
  const std::string text = JsonText(j);
  EXPECT_EQ(text, "{\"name\":\"ok\xEF\xBF\xBD\xEF\xBF\xBD\"}");
  EXPECT_TRUE(nlohmann::json::accept(text));
}

}  // namespace
}  // namespace banca
