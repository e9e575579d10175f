// The event log as one hosted service sees it: every call passed to the
// server's log, and every append the log fails (its own or a fenced one
// of a group member) counted in banca_log_append_errors_total{service}
// before the service hears of it, so a failure that stops the process
// (libs/eventlog/fail_stop.h) is counted first.
#ifndef BANCA_SERVICES_SERVER_METERED_LOG_H_
#define BANCA_SERVICES_SERVER_METERED_LOG_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libs/eventlog/forwarding_log.h"
#include "prometheus/counter.h"
#include "prometheus/registry.h"

namespace banca::server {

class MeteredLog final : public eventlog::ForwardingLog {
 public:
  // The counter of `service` in `registry` (made, at 0, now).
  MeteredLog(eventlog::EventLog& log, prometheus::Registry& registry,
             std::string_view service);

  void AppendAsync(std::vector<eventlog::Record> records,
                   std::vector<eventlog::OffsetCommit> commits,
                   eventlog::AppendCallback done) override;
  absl::StatusOr<std::unique_ptr<eventlog::GroupMember>> JoinGroup(
      const eventlog::GroupOptions& options) override;

 private:
  prometheus::Counter& append_errors_;
};

// The label a service's metrics carry: its name, spaces as underscores
// ("banked tables": banked_tables).
std::string ServiceLabel(std::string_view name);

}  // namespace banca::server

#endif  // BANCA_SERVICES_SERVER_METERED_LOG_H_
