// Runs the built `banca` program (BANCA_BINARY, set by tests/CMakeLists.txt)
// as a user would, for the tests of its command-line behaviour.
#ifndef BANCA_TESTS_RUN_BANCA_H_
#define BANCA_TESTS_RUN_BANCA_H_

#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace banca::testing {

struct BancaOutput {
  int exit_code = -1;
  std::string stdout_text;
  std::string stderr_text;
};

// Runs `banca ARGS` through the shell, capturing both streams (stderr goes
// through a file named after the running test).
inline BancaOutput RunBanca(const std::string& args) {
  const std::string err_path = absl::StrCat(
      ::testing::TempDir(), "/banca_stderr_",
      ::testing::UnitTest::GetInstance()->current_test_info()->name());
  const std::string cmd =
      absl::StrCat(BANCA_BINARY, " ", args, " 2>", err_path);
  BancaOutput out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) {
    out.stdout_text.append(buf, n);
  }
  const int status = pclose(pipe);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (FILE* err = std::fopen(err_path.c_str(), "r")) {
    while ((n = fread(buf, 1, sizeof(buf), err)) > 0) {
      out.stderr_text.append(buf, n);
    }
    std::fclose(err);
  }
  std::remove(err_path.c_str());
  return out;
}

}  // namespace banca::testing

#endif  // BANCA_TESTS_RUN_BANCA_H_
