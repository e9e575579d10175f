#include "libs/common/log_line.h"

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace banca {
namespace {

// Every line the log wrote to `out`, parsed: each must be one JSON object.
std::vector<nlohmann::json> Lines(const std::ostringstream& out) {
  std::vector<nlohmann::json> lines;
  const std::vector<std::string> text =
      absl::StrSplit(out.str(), '\n', absl::SkipEmpty());
  for (const std::string& line : text) {
    EXPECT_TRUE(nlohmann::json::accept(line)) << line;
    if (nlohmann::json::accept(line)) {
      lines.push_back(nlohmann::json::parse(line));
    }
  }
  return lines;
}

class LogLineTest : public ::testing::Test {
 protected:
  void SetUp() override { RedirectLogForTesting(&out_); }
  void TearDown() override {
    SetLogLevel(LogLevel::kInfo);
    RedirectLogForTesting(nullptr);
  }
  std::ostringstream out_;
};

// One object a line: time (RFC 3339, UTC, milliseconds), level, service,
// msg, then the fields with their types.
TEST_F(LogLineTest, OneJsonObjectPerLineWithTimeAndLevel) {
  Log(LogLevel::kInfo, "wallet", "started", {{"port", 7070}, {"ok", true}});
  Log(LogLevel::kWarning, "table", "second", {{"table", "t1"}});
  const std::vector<nlohmann::json> lines = Lines(out_);
  ASSERT_EQ(lines.size(), 2u);
  static const std::regex kRfc3339(
      R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)");
  for (const nlohmann::json& j : lines) {
    ASSERT_TRUE(j.contains("time") && j["time"].is_string()) << j;
    EXPECT_TRUE(std::regex_match(j["time"].get<std::string>(), kRfc3339))
        << j["time"];
  }
  EXPECT_EQ(lines[0]["level"], "info");
  EXPECT_EQ(lines[0]["service"], "wallet");
  EXPECT_EQ(lines[0]["msg"], "started");
  EXPECT_EQ(lines[0]["port"], 7070);
  EXPECT_EQ(lines[0]["ok"], true);
  EXPECT_EQ(lines[1]["level"], "warning");
  EXPECT_EQ(lines[1]["table"], "t1");
}

// A log line's fields come from statuses and request ids a client chose:
// escaped, so that a quote or a newline cannot end the line's JSON early
// or start a line of its own.
TEST_F(LogLineTest, EscapesEveryField) {
  Log(LogLevel::kFatal, "table", "a \"msg\"\n{\"level\":\"info\"}",
      {{"request_id", "r\",\"x\":\"1"}});
  const std::vector<nlohmann::json> lines = Lines(out_);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["level"], "fatal");
  EXPECT_EQ(lines[0]["msg"], "a \"msg\"\n{\"level\":\"info\"}");
  EXPECT_EQ(lines[0]["request_id"], "r\",\"x\":\"1");
  EXPECT_FALSE(lines[0].contains("x"));
}

// --log-level: lines below it are dropped; fatal ones and announcements
// never are.
TEST_F(LogLineTest, LevelDropsWhatIsBelowIt) {
  SetLogLevel(LogLevel::kError);
  Log(LogLevel::kInfo, "wallet", "dropped");
  Log(LogLevel::kWarning, "wallet", "dropped too");
  Log(LogLevel::kError, "wallet", "kept");
  Log(LogLevel::kFatal, "wallet", "kept too");
  Announce("serve", "serving", {{"grpc_port", 1}});
  SetLogLevel(LogLevel::kDebug);
  Log(LogLevel::kDebug, "wallet", "debug kept");
  std::vector<std::string> msgs;
  for (const nlohmann::json& j : Lines(out_)) msgs.push_back(j["msg"]);
  EXPECT_EQ(msgs, (std::vector<std::string>{"kept", "kept too", "serving",
                                            "debug kept"}));
}

TEST(LogLevelNames, ParseWhatTheyName) {
  for (LogLevel l : {LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarning,
                     LogLevel::kError, LogLevel::kFatal}) {
    EXPECT_EQ(ParseLogLevel(LogLevelName(l)), l);
  }
  EXPECT_EQ(ParseLogLevel("warn"), std::nullopt);
  EXPECT_EQ(ParseLogLevel(""), std::nullopt);
  EXPECT_EQ(ParseLogLevel("INFO"), std::nullopt);
}

}  // namespace
}  // namespace banca
