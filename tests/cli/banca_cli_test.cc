// The banca program's command line end to end (tools/cli/flags.h): the
// built binary, its help for every command, its version, and the errors a
// command line can make (exit 2, naming the flag).
#include <sys/stat.h>

#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/run_banca.h"

namespace banca::cli {
namespace {

using ::banca::testing::BancaOutput;
using ::banca::testing::RunBanca;
using ::testing::HasSubstr;
using ::testing::IsSupersetOf;
using ::testing::StartsWith;

constexpr int kUsage = 2;
constexpr int kMaxCommands = 100;

// The subcommands a help text lists, under its "Subcommands:" heading.
std::vector<std::string> ListedSubcommands(const std::string& help) {
  std::vector<std::string> names;
  bool listing = false;
  for (absl::string_view line : absl::StrSplit(help, '\n')) {
    if (line == "Subcommands:") {
      listing = true;
    } else if (listing && absl::StartsWith(line, "  ")) {
      std::vector<std::string> words =
          absl::StrSplit(absl::StripLeadingAsciiWhitespace(line), ' ');
      names.push_back(words.front());
    } else if (listing && !line.empty()) {
      break;
    }
  }
  return names;
}

std::string Dir(const std::string& name) {
  const std::string dir = absl::StrCat(::testing::TempDir(), "/cli_", name);
  mkdir(dir.c_str(), 0700);
  return dir;
}

// Every command and subcommand, found by walking the help texts: each
// `banca PATH --help` prints on stdout and exits 0.
TEST(BancaCli, HelpOfEveryCommandExitsZero) {
  std::vector<std::string> queue = {""};
  std::set<std::string> seen;
  for (size_t i = 0; i < queue.size() && i < kMaxCommands; ++i) {
    const std::string path = queue[i];
    const BancaOutput out = RunBanca(absl::StrCat(path, " --help"));
    EXPECT_EQ(out.exit_code, 0) << path << ": " << out.stderr_text;
    EXPECT_THAT(
        out.stdout_text,
        HasSubstr(absl::StrCat("Usage: banca", path.empty() ? "" : " ", path)))
        << path;
    EXPECT_EQ(out.stderr_text, "") << path;
    seen.insert(path);
    for (const std::string& sub : ListedSubcommands(out.stdout_text)) {
      queue.push_back(path.empty() ? sub : absl::StrCat(path, " ", sub));
    }
  }
  const std::vector<std::string> commands = {
      "serve",         "token issue",      "token public-key",
      "token new-key", "log stats",        "log tail",
      "audit verify",  "report ggr",       "report close",
      "bench ledger",  "bench log",        "bench wallet",
      "bench rebuild", "bench eval",       "bench holdem",
      "bench rtp",     "bench tournament", "demo",
      "scenario run",  "hands replay",     "hands export"};
  EXPECT_THAT(seen, IsSupersetOf(commands));
}

TEST(BancaCli, HelpListsEachCommandsFlagsWithDefaults) {
  BancaOutput out = RunBanca("serve --help");
  EXPECT_THAT(out.stdout_text, HasSubstr("--data-dir"));
  EXPECT_THAT(out.stdout_text, HasSubstr("REQUIRED"));
  EXPECT_THAT(out.stdout_text, HasSubstr("--grpc-port INT:0..65535=7070"));
  EXPECT_THAT(out.stdout_text, HasSubstr("--insecure-dev"));
  out = RunBanca("bench holdem --help");
  EXPECT_THAT(out.stdout_text, HasSubstr("--no-fsync"));
  EXPECT_THAT(out.stdout_text, HasSubstr("--tables INT:1..1000=100"));
  out = RunBanca("help");
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_THAT(out.stdout_text, HasSubstr("Subcommands:"));
}

TEST(BancaCli, VersionIsTheProjectVersion) {
  const BancaOutput out = RunBanca("--version");
  EXPECT_EQ(out.exit_code, 0) << out.stderr_text;
  EXPECT_EQ(out.stdout_text, absl::StrCat("banca ", BANCA_VERSION, "\n"));
}

TEST(BancaCli, NoCommandOrAnUnknownOneIsAUsageError) {
  BancaOutput out = RunBanca("");
  EXPECT_EQ(out.exit_code, kUsage);
  EXPECT_THAT(out.stderr_text, HasSubstr("Usage: banca"));
  out = RunBanca("frobnicate");
  EXPECT_EQ(out.exit_code, kUsage);
  EXPECT_THAT(out.stderr_text, HasSubstr("unknown command \"frobnicate\""));
  out = RunBanca("bench frobnicate");
  EXPECT_EQ(out.exit_code, kUsage);
  EXPECT_THAT(out.stderr_text, HasSubstr("banca bench: unknown command"));
  out = RunBanca("audit");
  EXPECT_EQ(out.exit_code, kUsage);
  EXPECT_THAT(out.stderr_text, HasSubstr("a command is required"));
}

TEST(BancaCli, AnUnknownFlagIsAUsageErrorNamingIt) {
  const std::string dir = Dir("unknown");
  for (const std::string& line :
       {absl::StrCat("audit verify --data-dir=", dir, " --frobnicate=1"),
        absl::StrCat("serve --data-dir=", dir, " --frobnicate"),
        std::string("bench ledger --events=5 --frobnicate")}) {
    const BancaOutput out = RunBanca(line);
    EXPECT_EQ(out.exit_code, kUsage) << line;
    EXPECT_THAT(out.stderr_text, HasSubstr("--frobnicate")) << line;
    EXPECT_EQ(out.stdout_text, "") << line;
  }
}

TEST(BancaCli, AMissingRequiredFlagIsAUsageErrorNamingIt) {
  for (const char* line : {"serve", "audit verify", "log stats", "log tail",
                           "token new-key", "bench rtp"}) {
    const BancaOutput out = RunBanca(line);
    EXPECT_EQ(out.exit_code, kUsage) << line;
    EXPECT_THAT(out.stderr_text, HasSubstr("is required")) << line;
  }
  EXPECT_THAT(RunBanca("serve").stderr_text,
              HasSubstr("banca serve: --data-dir is required"));
}

// Plaintext only where a flag says so: serve without a transport, with
// both, or with half of TLS does not start; certificate files that cannot
// be used are named (docs/security.md, "Transport").
TEST(BancaCli, ServeNeedsAnExplicitTransport) {
  const std::string dir = Dir("transport");
  const std::string serve = absl::StrCat("serve --data-dir=", dir,
                                         " --grpc-port=0 --metrics-port=0 ");
  struct Case {
    std::string flags;
    std::string error;
  };
  for (const Case& c : std::vector<Case>{
           {"", "choose the transport: --tls-cert-file and --tls-key-file"},
           {"--plaintext --tls-cert-file=c.pem --tls-key-file=k.pem",
            "--plaintext and the --tls-* flags exclude each other"},
           {"--tls-cert-file=c.pem", "needs both --tls-cert-file and"},
           {"--tls-client-ca-file=ca.pem", "needs both --tls-cert-file and"},
           {absl::StrCat("--tls-cert-file=", dir,
                         "/none.pem --tls-key-file=", dir, "/none.key"),
            "TLS: " + dir + "/none.pem: cannot be read"},
           {"--plaintext --tls-reload-seconds=0", "--tls-reload-seconds"}}) {
    const BancaOutput out = RunBanca(serve + c.flags);
    EXPECT_EQ(out.exit_code, kUsage) << c.flags;
    EXPECT_THAT(out.stderr_text, HasSubstr(c.error)) << c.flags;
    EXPECT_EQ(out.stdout_text, "") << c.flags;
  }
}

// A small tournament to a winner: one JSON object, the ledger at 0.
TEST(BancaCli, BenchTournamentPlaysToAWinnerWithTheLedgerAtZero) {
  for (const char* line : {"bench tournament --entrants=2 --seats=2",
                           "bench tournament --entrants=100 --rebuys",
                           "bench tournament --entrants=150 --seats=6 "
                           "--seed=7 --all-in-percent=10"}) {
    const BancaOutput out = RunBanca(line);
    EXPECT_EQ(out.exit_code, 0) << line << ": " << out.stderr_text;
    EXPECT_THAT(out.stdout_text, StartsWith("{\"bench\":\"tournament\""))
        << line;
    EXPECT_THAT(out.stdout_text, HasSubstr("\"finished\":true")) << line;
    EXPECT_THAT(out.stdout_text, HasSubstr("\"ledger_sum\":0,")) << line;
    EXPECT_THAT(out.stdout_text, HasSubstr("\"prize_pool_left\":0,")) << line;
  }
  const BancaOutput one = RunBanca("bench tournament --entrants=1");
  EXPECT_EQ(one.exit_code, kUsage);
  EXPECT_THAT(one.stderr_text, HasSubstr("--entrants"));
}

// The 5 used to be swallowed as the flag's value.
TEST(BancaCli, AnOnOffFlagTakesNoValue) {
  for (const char* line :
       {"bench log --no-fsync 5", "bench holdem --no-fsync 5"}) {
    const BancaOutput out = RunBanca(line);
    EXPECT_EQ(out.exit_code, kUsage) << line;
    EXPECT_THAT(out.stderr_text, HasSubstr("not expected: 5")) << line;
    EXPECT_EQ(out.stdout_text, "") << line;
  }
  BancaOutput out = RunBanca("bench log --no-fsync=5");
  EXPECT_EQ(out.exit_code, kUsage);
  EXPECT_THAT(out.stderr_text, HasSubstr("--no-fsync takes no value"));
  out = RunBanca("report ggr --data-dir=x --json yes");
  EXPECT_EQ(out.exit_code, kUsage);
  EXPECT_THAT(out.stderr_text, HasSubstr("not expected: yes"));
}

TEST(BancaCli, ABadNumberIsAUsageErrorNamingTheFlag) {
  const std::string dir = Dir("numbers");
  for (const std::string& line :
       {absl::StrCat("log tail --data-dir=", dir, " --n=abc"),
        absl::StrCat("log tail --data-dir=", dir, " --n 0"),
        absl::StrCat("log tail --data-dir=", dir, " --n=99999999999999999999"),
        absl::StrCat("serve --data-dir=", dir, " --grpc-port=12x"),
        absl::StrCat("serve --data-dir=", dir, " --grpc-port=70000"),
        std::string("bench holdem --tables=1.5"),
        std::string("demo --players=0x10")}) {
    const BancaOutput out = RunBanca(line);
    EXPECT_EQ(out.exit_code, kUsage) << line;
    EXPECT_THAT(
        out.stderr_text,
        ::testing::AnyOf(HasSubstr("--n:"), HasSubstr("--grpc-port:"),
                         HasSubstr("--tables:"), HasSubstr("--players:")))
        << line << ": " << out.stderr_text;
  }
}

TEST(BancaCli, AStrayArgumentIsAUsageError) {
  const std::string dir = Dir("stray");
  for (const std::string& line :
       {absl::StrCat("audit verify --data-dir=", dir, " extra"),
        absl::StrCat("serve --data-dir ", dir, " extra"),
        std::string("scenario run a.json b.json")}) {
    const BancaOutput out = RunBanca(line);
    EXPECT_EQ(out.exit_code, kUsage) << line;
    EXPECT_THAT(out.stderr_text,
                ::testing::AnyOf(HasSubstr("extra"), HasSubstr("b.json")))
        << line;
  }
}

TEST(BancaCli, AValueFollowsTheFlagAfterEqualsOrASpace) {
  const std::string dir = Dir("values");
  const std::string equals = dir + "/equals.key";
  const std::string space = dir + "/space.key";
  std::remove(equals.c_str());
  std::remove(space.c_str());
  EXPECT_EQ(RunBanca("token new-key --out=" + equals).exit_code, 0);
  EXPECT_EQ(RunBanca("token new-key --out " + space).exit_code, 0);
  struct stat st;
  EXPECT_EQ(stat(equals.c_str(), &st), 0);
  EXPECT_EQ(stat(space.c_str(), &st), 0);
  // An integer both ways: a token of a minute from the key just made.
  for (const char* ttl : {"--ttl-seconds=60", "--ttl-seconds 60"}) {
    const BancaOutput out =
        RunBanca(absl::StrCat("token issue --subject ana --role=player ", ttl,
                              " --token-key-file ", equals));
    EXPECT_EQ(out.exit_code, 0) << ttl << ": " << out.stderr_text;
    EXPECT_FALSE(out.stdout_text.empty());
  }
  const BancaOutput zero = RunBanca(absl::StrCat(
      "token issue --subject=ana --ttl-seconds 0 --token-key-file=", equals));
  EXPECT_EQ(zero.exit_code, kUsage);
  EXPECT_THAT(zero.stderr_text, HasSubstr("--ttl-seconds: must be 1..2678400"));
  // A string both ways, before and after the positional argument.
  const std::string hand = absl::StrCat(
      BANCA_SOURCE_DIR, "/tests/hands/testdata/pokerkit_style.phh");
  for (const std::string& line : {"hands replay --format json " + hand,
                                  "hands replay " + hand + " --format=json"}) {
    const BancaOutput out = RunBanca(line);
    EXPECT_EQ(out.exit_code, 0) << line << ": " << out.stderr_text;
    EXPECT_THAT(out.stdout_text, StartsWith("{")) << line;
  }
  EXPECT_EQ(RunBanca("hands replay --format text " + hand).exit_code, kUsage);
}

// banca report close refuses a bad date, zone or format before it reads
// anything (docs/reporting.md, "banca report close").
TEST(BancaCli, ReportCloseIsAUsageErrorOnABadDateZoneOrFormat) {
  const std::string dir = Dir("close");
  for (const std::string& flags :
       {std::string("--date=2026-02-30"), std::string("--date=yesterday"),
        std::string("--date=2026-10-25 --time-zone=Mars/Olympus_Mons"),
        std::string("--date=2026-10-25 --time-zone=../../etc/passwd"),
        std::string("--date=2026-10-25 --format=xml"), std::string("")}) {
    const BancaOutput out =
        RunBanca(absl::StrCat("report close --data-dir=", dir, " ", flags));
    EXPECT_EQ(out.exit_code, kUsage) << flags << ": " << out.stderr_text;
  }
  const BancaOutput zone =
      RunBanca(absl::StrCat("report close --data-dir=", dir,
                            " --date=2026-10-25 --time-zone=Nowhere"));
  EXPECT_THAT(zone.stderr_text, HasSubstr("no time zone named \"Nowhere\""));
}

}  // namespace
}  // namespace banca::cli
