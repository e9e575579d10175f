// A Kafka broker of a test's own (tools/kafka-local in the test's own state
// directory), so that the fault and multi-process tests never disturb the
// shared CI broker, and the fixture that starts one per test. The tests
// run when BANCA_KAFKA_BOOTSTRAP is set (tools/run-tests starts a broker,
// which also means the Kafka jars are cached for tools/kafka-local).
#ifndef BANCA_TESTS_INTEGRATION_PRIVATE_BROKER_H_
#define BANCA_TESTS_INTEGRATION_PRIVATE_BROKER_H_

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "tests/integration/wallet_test_util.h"

namespace banca::testing {

// A broker in its own state directory, stopped (and its state removed)
// with the object.
class PrivateBroker {
 public:
  explicit PrivateBroker(std::string home) : home_(std::move(home)) {}
  ~PrivateBroker() { Run("stop"); }
  PrivateBroker(const PrivateBroker&) = delete;
  PrivateBroker& operator=(const PrivateBroker&) = delete;

  // Runs `tools/kafka-local <command>`; returns its last stdout line.
  std::string Run(const std::string& command) {
    const std::string cmd =
        absl::StrCat("BANCA_KAFKA_HOME=", home_, " ", BANCA_SOURCE_DIR,
                     "/tools/kafka-local ", command, " 2>>", home_, ".log");
    FILE* pipe = popen(cmd.c_str(), "r");
    if (pipe == nullptr) return "";
    std::string out;
    char buf[256];
    while (fgets(buf, sizeof(buf), pipe) != nullptr) out = buf;
    last_status_ = pclose(pipe);
    return std::string(absl::StripAsciiWhitespace(out));
  }
  bool ok() const { return last_status_ == 0; }

 private:
  std::string home_;
  int last_status_ = -1;
};

// Each test gets a fresh directory (dir_) and a private broker started in
// it: address_ is its bootstrap, spec_ the `--log` that names it.
class PrivateBrokerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* bootstrap = std::getenv("BANCA_KAFKA_BOOTSTRAP");
    if (bootstrap == nullptr || *bootstrap == '\0') {
      GTEST_SKIP() << "BANCA_KAFKA_BOOTSTRAP is not set: tools/run-tests "
                      "starts a broker (and caches the Kafka jars)";
    }
    dir_ = FreshDir(
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    broker_ = std::make_unique<PrivateBroker>(dir_ + "/kafka");
    address_ = broker_->Run("start");
    ASSERT_TRUE(broker_->ok())
        << "tools/kafka-local start failed; see " << dir_ << "/kafka.log";
    spec_ = absl::StrCat("kafka://", address_);
  }

  std::string dir_, address_, spec_;
  std::unique_ptr<PrivateBroker> broker_;
};

}  // namespace banca::testing

#endif  // BANCA_TESTS_INTEGRATION_PRIVATE_BROKER_H_
