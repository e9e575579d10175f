#include "libs/eventlog/log_backend.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/eventlog/embedded_log.h"

namespace banca::eventlog {
namespace {

std::string NewDir() {
  std::string tmpl = ::testing::TempDir() + "/log_backend_XXXXXX";
  char* d = mkdtemp(tmpl.data());
  EXPECT_NE(d, nullptr);
  return d;
}

TEST(OpenExistingEmbeddedLog, CreatesNothingWhereThereIsNoLog) {
  const std::string dir = NewDir();
  absl::StatusOr<std::unique_ptr<EventLog>> log =
      OpenExistingEmbeddedLog(dir + "/missing");
  EXPECT_EQ(log.status(), absl::NotFoundError(absl::StrCat("no event log at ",
                                                           dir, "/missing")));
  EXPECT_FALSE(std::filesystem::exists(dir + "/missing"));

  std::ofstream(dir + "/notes.txt") << "not a journal";
  log = OpenExistingEmbeddedLog(dir);
  EXPECT_EQ(log.status(),
            absl::NotFoundError(absl::StrCat(
                dir, " is not an event log (no journal segments)")));
  EXPECT_FALSE(std::filesystem::exists(dir + "/LOCK"));
}

TEST(OpenExistingEmbeddedLog, OpensALogOrTheLogOfADataDirectory) {
  const std::string data_dir = NewDir();
  {
    absl::StatusOr<std::unique_ptr<EventLog>> made =
        OpenEmbeddedLog(data_dir + "/log");
    ASSERT_TRUE(made.ok()) << made.status();
    ASSERT_TRUE((*made)->EnsureTopic({"t", 1}).ok());
  }
  for (const std::string& dir : {data_dir, data_dir + "/log"}) {
    absl::StatusOr<std::unique_ptr<EventLog>> log =
        OpenExistingEmbeddedLog(dir);
    ASSERT_TRUE(log.ok()) << dir << ": " << log.status();
    EXPECT_EQ(*(*log)->PartitionCount("t"), 1);
  }
}

}  // namespace
}  // namespace banca::eventlog
