// banca_log_append_errors_total{service}: a failed append is counted
// before its service's callback runs (a callback that stops the process
// finds it counted); a good one is not counted; each service its own.
#include "services/server/metered_log.h"

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "libs/eventlog/log_backend.h"

namespace banca::server {
namespace {

// The counter of `service`, or nullopt when it has none.
std::optional<double> AppendErrors(prometheus::Registry& registry,
                                   const std::string& service) {
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    if (family.name != "banca_log_append_errors_total") continue;
    for (const prometheus::ClientMetric& m : family.metric) {
      for (const auto& label : m.label) {
        if (label.name == "service" && label.value == service) {
          return m.counter.value;
        }
      }
    }
  }
  return std::nullopt;
}

TEST(MeteredLog, CountsAFailedAppendBeforeItsServiceHearsOfIt) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/metered_log_", getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  absl::StatusOr<std::unique_ptr<eventlog::EventLog>> log =
      eventlog::OpenLogBackend("embedded", dir);
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_TRUE((*log)->EnsureTopic({"t", 1}).ok());
  prometheus::Registry registry;
  MeteredLog tables(**log, registry, "banked tables");
  MeteredLog wallet(**log, registry, "wallet");
  EXPECT_EQ(AppendErrors(registry, "banked_tables"), 0);
  EXPECT_EQ(AppendErrors(registry, "wallet"), 0);

  eventlog::Record good;
  good.topic = "t";
  good.value = "ok";
  EXPECT_TRUE(tables.Append({good}).ok());
  EXPECT_EQ(AppendErrors(registry, "banked_tables"), 0);

  eventlog::Record bad = good;
  bad.topic = "no-such-topic";
  std::optional<double> seen;
  absl::Status failed;
  absl::Notification done;
  tables.AppendAsync({bad}, {},
                     [&](absl::Status s, std::vector<eventlog::Position>) {
                       failed = s;
                       seen = AppendErrors(registry, "banked_tables");
                       done.Notify();
                     });
  ASSERT_TRUE(done.WaitForNotificationWithTimeout(absl::Seconds(10)));
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(seen, 1);
  EXPECT_EQ(AppendErrors(registry, "wallet"), 0);
  std::filesystem::remove_all(dir);
}

TEST(ServiceLabel, SpacesBecomeUnderscores) {
  EXPECT_EQ(ServiceLabel("banked tables"), "banked_tables");
  EXPECT_EQ(ServiceLabel("wallet"), "wallet");
}

}  // namespace
}  // namespace banca::server
