// `banca hands replay` end to end: the built binary on the testdata files
// (exit status, one JSON object on stdout, the message on stderr), and the
// JSON the command prints (libs/hand_history/hands.h) without a process.
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/hand_history/hands.h"
#include "nlohmann/json.hpp"
#include "tests/run_banca.h"

namespace banca::cli {
namespace {

using Json = nlohmann::json;
using ::testing::HasSubstr;

using Output = ::banca::testing::BancaOutput;
using ::banca::testing::RunBanca;

std::string Testdata(const std::string& name) {
  return absl::StrCat(BANCA_SOURCE_DIR, "/tests/hands/testdata/", name);
}

// Exactly one JSON object on one line.
Json ParseOne(const std::string& text) {
  EXPECT_EQ(text.find('\n'), text.size() - 1) << text;
  return Json::parse(text, nullptr, /*allow_exceptions=*/false);
}

TEST(HandsReplayCli, ReplaysAPokerKitFileAndPrintsTheResult) {
  const Output out =
      RunBanca(absl::StrCat("hands replay ", Testdata("pokerkit_style.phh")));
  EXPECT_EQ(out.exit_code, 0) << out.stderr_text;
  const Json j = ParseOne(out.stdout_text);
  ASSERT_TRUE(j.is_object()) << out.stdout_text;
  EXPECT_EQ(j["matches_file"], true);
  EXPECT_EQ(j["players"][1]["player"], "rui");
  EXPECT_EQ(j["players"][1]["finishing_stack"], 5700);
  EXPECT_EQ(j["pots"][0]["winners"][0]["seat"], 2);
  EXPECT_EQ(j["winning_hand"], "Pair of kings");
  EXPECT_EQ(out.stderr_text, "");
}

TEST(HandsReplayCli, FormatJsonIsAccepted) {
  const Output out = RunBanca(absl::StrCat("hands replay --format=json ",
                                           Testdata("side_pots_split.phh")));
  EXPECT_EQ(out.exit_code, 0) << out.stderr_text;
  const Json j = ParseOne(out.stdout_text);
  ASSERT_TRUE(j.is_object()) << out.stdout_text;
  EXPECT_EQ(j["pots"].size(), 3u);
}

TEST(HandsReplayCli, IllegalActionExitsTwoWithItsIndex_HE23) {
  const Output out = RunBanca(
      absl::StrCat("hands replay ", Testdata("illegal_min_raise.phh")));
  EXPECT_EQ(out.exit_code, 2);
  const Json j = ParseOne(out.stdout_text);
  ASSERT_TRUE(j.is_object()) << out.stdout_text;
  EXPECT_EQ(j["action_index"], 4);
  EXPECT_EQ(j["action"], "p1 cbr 150");
  EXPECT_EQ(j["code"], "INVALID_ARGUMENT");
  EXPECT_THAT(j["error"].get<std::string>(),
              HasSubstr("below the minimum raise to 200"));
  EXPECT_THAT(out.stderr_text, HasSubstr(j["error"].get<std::string>()));
}

TEST(HandsReplayCli, MalformedFileExitsTwo) {
  const Output out =
      RunBanca(absl::StrCat("hands replay ", Testdata("malformed.phh")));
  EXPECT_EQ(out.exit_code, 2);
  const Json j = ParseOne(out.stdout_text);
  ASSERT_TRUE(j.is_object()) << out.stdout_text;
  EXPECT_THAT(j["error"].get<std::string>(), HasSubstr("unterminated array"));
  EXPECT_FALSE(j.contains("action_index"));
}

TEST(HandsReplayCli, DisagreeingFinishingStacksStillExitZero) {
  const Output out = RunBanca(
      absl::StrCat("hands replay ", Testdata("wrong_finishing_stacks.phh")));
  EXPECT_EQ(out.exit_code, 0);
  const Json j = ParseOne(out.stdout_text);
  ASSERT_TRUE(j.is_object()) << out.stdout_text;
  EXPECT_EQ(j["matches_file"], false);
  ASSERT_EQ(j["differences"].size(), 2u);
  EXPECT_EQ(j["differences"][0]["file"], 5600);
  EXPECT_EQ(j["differences"][0]["engine"], 5700);
}

TEST(HandsReplayCli, UnreadableFileExitsOne) {
  const Output out = RunBanca("hands replay /nonexistent/hand.phh");
  EXPECT_EQ(out.exit_code, 1);
  const Json j = ParseOne(out.stdout_text);
  ASSERT_TRUE(j.is_object()) << out.stdout_text;
  EXPECT_THAT(j["error"].get<std::string>(), HasSubstr("cannot read"));
  const Output dir =
      RunBanca(absl::StrCat("hands replay ", BANCA_SOURCE_DIR, "/tests/hands"));
  EXPECT_EQ(dir.exit_code, 1);
}

TEST(HandsReplayCli, UsageErrorsExitTwo) {
  EXPECT_EQ(RunBanca("hands").exit_code, 2);
  EXPECT_EQ(RunBanca("hands frobnicate x.phh").exit_code, 2);
  EXPECT_EQ(RunBanca("hands replay").exit_code, 2);
  EXPECT_EQ(RunBanca(absl::StrCat("hands replay --format=text ",
                                  Testdata("pokerkit_style.phh")))
                .exit_code,
            2);
}

// Without a process: names from the file never make the JSON throw.
TEST(HandsReplayText, InvalidUtf8PlayerNameIsReplacedNotThrown) {
  const std::string text =
      "variant = 'NT'\n"
      "antes = [0, 0]\n"
      "blinds_or_straddles = [100, 50]\n"
      "starting_stacks = [5000, 5000]\n"
      "actions = ['d dh p1 AhAd', 'd dh p2 KcKd', 'p1 f']\n"
      "players = ['\xff\xfe', 'bob']\n";
  const hand_history::HandsRun run = hand_history::ReplayHandText(text);
  EXPECT_EQ(run.exit_code, hand_history::kHandsOk) << run.json;
  const Json j = Json::parse(run.json, nullptr, false);
  ASSERT_TRUE(j.is_object()) << run.json;
  EXPECT_EQ(j["players"][1]["finishing_stack"], 5050);
}

}  // namespace
}  // namespace banca::cli
