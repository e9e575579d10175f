#include "libs/eventlog/kafka_topic_check.h"

#include <librdkafka/rdkafka.h>
#include <stdlib.h>

#include <memory>
#include <random>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/eventlog/kafka_log.h"

namespace banca::eventlog {
namespace {

TopicSettings Forever() {
  TopicSettings s;
  s.configs = {{"retention.ms", "-1"},
               {"retention.bytes", "-1"},
               {"cleanup.policy", "delete"},
               {"min.insync.replicas", "2"}};
  s.min_replicas = 3;
  return s;
}

void ExpectRefused(const TopicSettings& s, const TopicRequirements& want,
                   std::string_view named) {
  const absl::Status status =
      CheckTopicSettings("banca.wallet.events", s, want);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_NE(std::string(status.message()).find(named), std::string::npos)
      << status;
  EXPECT_NE(status.message().find("banca.wallet.events"),
            absl::string_view::npos);
}

TEST(KafkaTopicCheck, ATopicThatKeepsEverythingAndMeetsTheAskIsTaken) {
  EXPECT_TRUE(CheckTopicSettings("t", Forever(), {3, 2}).ok());
  EXPECT_TRUE(CheckTopicSettings("t", Forever(), {}).ok());
}

TEST(KafkaTopicCheck, AFiniteRetentionIsRefusedWithTheSetting) {
  TopicSettings s = Forever();
  s.configs["retention.ms"] = "604800000";  // the broker's default week
  ExpectRefused(s, {}, "retention.ms=604800000");
  s = Forever();
  s.configs["retention.bytes"] = "1073741824";
  ExpectRefused(s, {}, "retention.bytes=1073741824");
  s = Forever();
  s.configs.erase("retention.ms");
  ExpectRefused(s, {}, "retention.ms is not reported");
}

TEST(KafkaTopicCheck, CompactionIsRefused) {
  TopicSettings s = Forever();
  s.configs["cleanup.policy"] = "compact";
  ExpectRefused(s, {}, "cleanup.policy=compact");
  s.configs["cleanup.policy"] = "delete,compact";
  ExpectRefused(s, {}, "cleanup.policy=delete,compact");
}

TEST(KafkaTopicCheck, FewerReplicasThanAskedAreRefused) {
  TopicSettings s = Forever();
  s.min_replicas = 1;
  ExpectRefused(s, {3, -1}, "1 replicas (replication_factor=3 asked)");
  EXPECT_TRUE(CheckTopicSettings("t", s, {-1, 2}).ok());
  s = Forever();
  s.configs["min.insync.replicas"] = "1";
  ExpectRefused(s, {3, 2}, "min.insync.replicas=1 (min_insync_replicas=2");
}

// A topic made behind banca's back, with a week's retention, as a broker's
// defaults or an operator's script would make it.
void CreateWithRetention(const std::string& bootstrap, const std::string& name,
                         const char* retention_ms) {
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  ASSERT_EQ(rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), err,
                              sizeof(err)),
            RD_KAFKA_CONF_OK);
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
  ASSERT_NE(rk, nullptr) << err;
  rd_kafka_NewTopic_t* topic =
      rd_kafka_NewTopic_new(name.c_str(), 1, 1, err, sizeof(err));
  rd_kafka_NewTopic_set_config(topic, "retention.ms", retention_ms);
  rd_kafka_queue_t* q = rd_kafka_queue_new(rk);
  rd_kafka_CreateTopics(rk, &topic, 1, nullptr, q);
  rd_kafka_event_t* ev = rd_kafka_queue_poll(q, 30'000);
  ASSERT_NE(ev, nullptr);
  EXPECT_EQ(rd_kafka_event_error(ev), RD_KAFKA_RESP_ERR_NO_ERROR);
  size_t n = 0;
  const rd_kafka_topic_result_t** results = rd_kafka_CreateTopics_result_topics(
      rd_kafka_event_CreateTopics_result(ev), &n);
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(rd_kafka_topic_result_error(results[0]),
            RD_KAFKA_RESP_ERR_NO_ERROR);
  rd_kafka_event_destroy(ev);
  rd_kafka_queue_destroy(q);
  rd_kafka_NewTopic_destroy(topic);
  rd_kafka_destroy(rk);
}

// On a broker (BANCA_KAFKA_BOOTSTRAP; skipped without): EnsureTopic on a
// topic that would let events expire, or with fewer replicas than asked,
// is refused with the reason (a service then does not start).
TEST(KafkaTopicCheckOnABroker, AnExistingTopicThatWouldLoseEventsIsRefused) {
  const char* bootstrap = getenv("BANCA_KAFKA_BOOTSTRAP");
  if (bootstrap == nullptr || *bootstrap == '\0') {
    GTEST_SKIP() << "BANCA_KAFKA_BOOTSTRAP is not set: run `tools/kafka-local "
                    "start` and export its address";
  }
  const std::string tag = absl::StrCat(std::random_device{}());
  const std::string expiring = "banca.test.expiring." + tag;
  CreateWithRetention(bootstrap, expiring, "604800000");
  KafkaLogOptions options;
  options.bootstrap_servers = bootstrap;
  absl::StatusOr<std::unique_ptr<EventLog>> log = OpenKafkaLog(options);
  ASSERT_TRUE(log.ok()) << log.status();
  absl::Status refused = (*log)->EnsureTopic({expiring, 1});
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_NE(std::string(refused.message()).find("retention.ms=604800000"),
            std::string::npos)
      << refused;

  // banca's own topic, then a log that asks for 3 replicas of it.
  const std::string own = "banca.test.own." + tag;
  ASSERT_TRUE((*log)->EnsureTopic({own, 1}).ok());
  KafkaLogOptions more = options;
  more.replication_factor = 3;
  absl::StatusOr<std::unique_ptr<EventLog>> strict = OpenKafkaLog(more);
  ASSERT_TRUE(strict.ok()) << strict.status();
  refused = (*strict)->EnsureTopic({own, 1});
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_NE(std::string(refused.message()).find("replication_factor=3"),
            std::string::npos)
      << refused;
}

}  // namespace
}  // namespace banca::eventlog
