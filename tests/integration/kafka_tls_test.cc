// The event log on Kafka over TLS with SASL/SCRAM, as production clusters
// run: a kafka-local broker started with BANCA_KAFKA_TLS=1 (its SASL_SSL
// listener, certificates made by the script with openssl), the log opened
// as `banca serve --log=kafka://…` opens it, with the client properties
// (security.protocol, sasl.*, ssl.ca.location) in BANCA_KAFKA_PROPERTIES.
// Records appended are read back; a wrong password, or a client that does
// not trust the broker's CA, ends in a clear error within a bound, not a
// hang. Skipped unless BANCA_KAFKA_TLS_BOOTSTRAP names the listener
// (tools/run-tests sets it and BANCA_KAFKA_TLS_PROPERTIES, which the test
// passes on as BANCA_KAFKA_PROPERTIES: the other Kafka suites of the same
// run must not get SASL settings).
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/eventlog/event_log.h"
#include "libs/eventlog/kafka_log.h"

namespace banca::eventlog {
namespace {

using ::testing::HasSubstr;

// Each attempt to open is bounded by this (request_timeout_ms).
constexpr int kRequestTimeoutMs = 10'000;

class KafkaTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* bootstrap = std::getenv("BANCA_KAFKA_TLS_BOOTSTRAP");
    const char* properties = std::getenv("BANCA_KAFKA_TLS_PROPERTIES");
    if (bootstrap == nullptr || *bootstrap == '\0' || properties == nullptr) {
      GTEST_SKIP() << "BANCA_KAFKA_TLS_BOOTSTRAP is not set: start a broker "
                      "with BANCA_KAFKA_TLS=1 tools/kafka-local start, then "
                      "export BANCA_KAFKA_TLS_BOOTSTRAP=$(tools/kafka-local "
                      "tls-address) and BANCA_KAFKA_TLS_PROPERTIES="
                      "$(tools/kafka-local tls-properties)";
    }
    bootstrap_ = bootstrap;
    properties_ = properties;
  }
  void TearDown() override { ::unsetenv("BANCA_KAFKA_PROPERTIES"); }

  // The log as `banca serve --log=kafka://BOOTSTRAP?…` opens it, with
  // `properties` in BANCA_KAFKA_PROPERTIES.
  absl::StatusOr<std::unique_ptr<EventLog>> Open(
      const std::string& properties) {
    ::setenv("BANCA_KAFKA_PROPERTIES", properties.c_str(), 1);
    absl::StatusOr<KafkaLogOptions> options = ParseKafkaSpec(absl::StrCat(
        "kafka://", bootstrap_, "?client_id=banca-tls-test&transactional_id=",
        "banca-tls-", Run(), "&request_timeout_ms=", kRequestTimeoutMs));
    if (!options.ok()) return options.status();
    return OpenKafkaLog(*options);
  }

  // `properties_` with `key`'s value replaced by `value`.
  std::string With(const std::string& key, const std::string& value) const {
    std::vector<std::string> out;
    for (absl::string_view kv : absl::StrSplit(properties_, ';')) {
      if (absl::StartsWith(kv, key + "=")) {
        out.push_back(absl::StrCat(key, "=", value));
      } else {
        out.push_back(std::string(kv));
      }
    }
    return absl::StrJoin(out, ";");
  }

  static std::string Run() {
    static const std::string run = absl::StrCat(std::random_device{}());
    return run;
  }

  std::string bootstrap_;
  std::string properties_;
};

TEST_F(KafkaTlsTest, AppendsAndReadsOverSaslSsl) {
  ASSERT_THAT(properties_, HasSubstr("security.protocol=SASL_SSL"));
  // A fresh broker's transaction coordinator may still be loading.
  absl::StatusOr<std::unique_ptr<EventLog>> log = Open(properties_);
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (absl::IsUnavailable(log.status()) && absl::Now() < deadline) {
    absl::SleepFor(absl::Seconds(1));
    log = Open(properties_);
  }
  ASSERT_TRUE(log.ok()) << log.status();
  const std::string topic = absl::StrCat("tls.records.", Run());
  ASSERT_TRUE((*log)->EnsureTopic({topic, 1}).ok());
  std::vector<Record> records;
  for (int i = 0; i < 3; ++i) {
    records.push_back(Record{.topic = topic,
                             .key = "k",
                             .value = absl::StrCat("over tls ", i),
                             .partition = 0});
  }
  absl::StatusOr<std::vector<Position>> appended =
      (*log)->Append(std::move(records));
  ASSERT_TRUE(appended.ok()) << appended.status();
  ASSERT_EQ(appended->size(), 3u);
  absl::StatusOr<std::vector<StoredRecord>> read =
      (*log)->Read(topic, 0, 0, 10);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ((*read)[i].value, absl::StrCat("over tls ", i));
  }
}

TEST_F(KafkaTlsTest, AWrongPasswordIsAClearErrorNotAHang) {
  const absl::Time start = absl::Now();
  absl::StatusOr<std::unique_ptr<EventLog>> log =
      Open(With("sasl.password", "not-the-password"));
  ASSERT_FALSE(log.ok());
  EXPECT_LT(absl::Now() - start,
            absl::Milliseconds(3 * kRequestTimeoutMs) + absl::Seconds(10));
  EXPECT_TRUE(absl::IsUnauthenticated(log.status())) << log.status();
  EXPECT_THAT(log.status().message(), HasSubstr("SASL authentication"));
}

TEST_F(KafkaTlsTest, ABrokerCertificateFromAnotherCaIsRefused) {
  // The system's CA bundle never signed kafka-local's test CA.
  const absl::Time start = absl::Now();
  absl::StatusOr<std::unique_ptr<EventLog>> log =
      Open(With("ssl.ca.location", "/etc/ssl/certs/ca-certificates.crt"));
  ASSERT_FALSE(log.ok());
  EXPECT_LT(absl::Now() - start,
            absl::Milliseconds(3 * kRequestTimeoutMs) + absl::Seconds(10));
  EXPECT_THAT(log.status().message(), HasSubstr("certificate")) << log.status();
}

}  // namespace
}  // namespace banca::eventlog
