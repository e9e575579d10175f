#include "tools/cli/flags.h"

#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace banca::cli {
namespace {

// A small program with banca's conventions: `prog run --n=INT --name=S
// [--quiet] FILE` and `prog other`.
class FlagsTest : public ::testing::Test {
 protected:
  FlagsTest() {
    ConfigureApp(app_, "1.2.3");
    CLI::App* run = app_.add_subcommand("run", "run it");
    AddInt(*run, "--n", n_, "a count", 1, 100);
    AddInt(*run, "--big", big_, "any int64");
    AddInt(*run, "--small", small_, "any int");
    run->add_option("--name", name_, "a name")->required();
    AddSwitch(*run, "--quiet", quiet_, "say less");
    run->add_option("FILE", file_, "a file");
    OnParsed(*run, &action_, [] { return 7; });
    CLI::App* other = app_.add_subcommand("other", "the other one");
    OnParsed(*other, &action_, [] { return 9; });
  }

  // Parses `args` after the program's name; the exit status if it stops.
  std::optional<int> Parse(const std::vector<std::string>& args) {
    std::vector<const char*> argv = {"prog"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    out_.str("");
    err_.str("");
    return banca::cli::Parse(app_, static_cast<int>(argv.size()), argv.data(),
                             out_, err_);
  }

  CLI::App app_{"a test program", "prog"};
  Action action_;
  int64_t n_ = 5;
  int64_t big_ = 0;
  int small_ = 0;
  std::string name_;
  bool quiet_ = false;
  std::string file_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(FlagsTest, EqualsAndSpaceBothGiveAValue) {
  EXPECT_EQ(Parse({"run", "--n=12", "--name", "ana"}), std::nullopt)
      << err_.str();
  EXPECT_EQ(n_, 12);
  EXPECT_EQ(name_, "ana");
  EXPECT_EQ(Parse({"run", "--n", "13", "--name=rui"}), std::nullopt)
      << err_.str();
  EXPECT_EQ(n_, 13);
  EXPECT_EQ(name_, "rui");
  ASSERT_TRUE(action_);
  EXPECT_EQ(action_(), 7);
}

TEST_F(FlagsTest, DefaultsStayWhenAFlagIsAbsentAndTheLastOfTwoWins) {
  EXPECT_EQ(Parse({"run", "--name=a", "--name=b"}), std::nullopt);
  EXPECT_EQ(n_, 5);
  EXPECT_EQ(name_, "b");
  EXPECT_FALSE(quiet_);
}

TEST_F(FlagsTest, TheParsedSubcommandChoosesTheAction) {
  EXPECT_EQ(Parse({"other"}), std::nullopt);
  ASSERT_TRUE(action_);
  EXPECT_EQ(action_(), 9);
}

TEST_F(FlagsTest, HelpAtEveryLevelPrintsOnStdoutAndExitsZero) {
  EXPECT_EQ(Parse({"--help"}), 0);
  EXPECT_NE(out_.str().find("run"), std::string::npos) << out_.str();
  EXPECT_EQ(Parse({"run", "--help"}), 0);
  EXPECT_NE(out_.str().find("--quiet"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find("--n INT:1..100=5"), std::string::npos)
      << out_.str();
  EXPECT_TRUE(err_.str().empty()) << err_.str();
  EXPECT_FALSE(action_);
}

TEST_F(FlagsTest, VersionPrintsTheNameAndVersion) {
  EXPECT_EQ(Parse({"--version"}), 0);
  EXPECT_EQ(out_.str(), "prog 1.2.3\n");
}

TEST_F(FlagsTest, AnUnknownFlagIsAnErrorNamingIt) {
  EXPECT_EQ(Parse({"run", "--name=a", "--frobnicate=1"}), kUsageError);
  EXPECT_NE(err_.str().find("prog run: "), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("--frobnicate"), std::string::npos) << err_.str();
  EXPECT_FALSE(action_);
}

TEST_F(FlagsTest, AMissingRequiredFlagIsAnErrorNamingIt) {
  EXPECT_EQ(Parse({"run"}), kUsageError);
  EXPECT_NE(err_.str().find("--name is required"), std::string::npos)
      << err_.str();
}

TEST_F(FlagsTest, ASwitchTakesNoValue) {
  EXPECT_EQ(Parse({"run", "--name=a", "--quiet"}), std::nullopt);
  EXPECT_TRUE(quiet_);
  // The 5 is not swallowed: with FILE taken, it is one argument too many.
  EXPECT_EQ(Parse({"run", "--name=a", "f", "--quiet", "5"}), kUsageError);
  EXPECT_NE(err_.str().find("5"), std::string::npos) << err_.str();
  EXPECT_EQ(Parse({"run", "--name=a", "--quiet=5"}), kUsageError);
  EXPECT_NE(err_.str().find("--quiet takes no value"), std::string::npos)
      << err_.str();
  EXPECT_EQ(Parse({"run", "--name=a", "--quiet=false"}), kUsageError);
}

TEST_F(FlagsTest, IntegersAreDecimalAndInRange) {
  for (const char* bad : {"abc", "1.5", "", "0x10", "1e3", "12abc"}) {
    EXPECT_EQ(Parse({"run", "--name=a", std::string("--big=") + bad}),
              kUsageError)
        << bad;
    EXPECT_NE(err_.str().find("--big"), std::string::npos) << err_.str();
  }
  // Past int64 is an error, not a clamp.
  EXPECT_EQ(Parse({"run", "--name=a", "--big=9223372036854775808"}),
            kUsageError);
  EXPECT_EQ(Parse({"run", "--name=a", "--big=9223372036854775807"}),
            std::nullopt);
  EXPECT_EQ(big_, std::numeric_limits<int64_t>::max());
  // Leading zeros are decimal, not octal.
  EXPECT_EQ(Parse({"run", "--name=a", "--big=010"}), std::nullopt);
  EXPECT_EQ(big_, 10);
  EXPECT_EQ(Parse({"run", "--name=a", "--big", "-3"}), std::nullopt);
  EXPECT_EQ(big_, -3);
  // An int flag refuses what does not fit an int.
  EXPECT_EQ(Parse({"run", "--name=a", "--small=2147483648"}), kUsageError);
  EXPECT_EQ(Parse({"run", "--name=a", "--small=-2147483648"}), std::nullopt);
  EXPECT_EQ(small_, std::numeric_limits<int>::min());
  // The flag's own range.
  EXPECT_EQ(Parse({"run", "--name=a", "--n=0"}), kUsageError);
  EXPECT_NE(err_.str().find("--n: must be 1..100, got 0"), std::string::npos)
      << err_.str();
  EXPECT_EQ(Parse({"run", "--name=a", "--n=101"}), kUsageError);
  EXPECT_EQ(Parse({"run", "--name=a", "--n=100"}), std::nullopt);
}

TEST_F(FlagsTest, AStrayArgumentIsAnError) {
  EXPECT_EQ(Parse({"run", "--name=a", "f", "g"}), kUsageError);
  EXPECT_NE(err_.str().find("g"), std::string::npos) << err_.str();
}

TEST_F(FlagsTest, AnUnknownOrMissingCommandIsNamed) {
  EXPECT_EQ(Parse({"frobnicate"}), kUsageError);
  EXPECT_NE(err_.str().find("unknown command \"frobnicate\" (one of run, "
                            "other)"),
            std::string::npos)
      << err_.str();
  EXPECT_EQ(Parse({}), kUsageError);
  EXPECT_NE(err_.str().find("a command is required"), std::string::npos)
      << err_.str();
}

TEST(Complain, NamesTheCommandAndReturnsTheExitStatus) {
  std::ostringstream err;
  EXPECT_EQ(Complain("prog run", "no such file", 3, err), 3);
  EXPECT_EQ(Complain("prog run", absl::NotFoundError("gone"), 1, err), 1);
  EXPECT_EQ(err.str(), "prog run: no such file\nprog run: gone\n");
}

}  // namespace
}  // namespace banca::cli
