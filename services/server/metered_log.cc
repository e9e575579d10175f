#include "services/server/metered_log.h"

#include <utility>

#include "absl/strings/str_replace.h"
#include "libs/common/string_view.h"

namespace banca::server {
namespace {

// The callback `done`, counting a failure before it runs.
eventlog::AppendCallback Counting(prometheus::Counter& errors,
                                  eventlog::AppendCallback done) {
  return [&errors, done = std::move(done)](
             absl::Status status, std::vector<eventlog::Position> positions) {
    if (!status.ok()) errors.Increment();
    done(std::move(status), std::move(positions));
  };
}

// A group member whose appends are counted the same way.
class MeteredMember final : public eventlog::GroupMember {
 public:
  MeteredMember(std::unique_ptr<eventlog::GroupMember> member,
                prometheus::Counter& errors)
      : GroupMember(member->group(), member->topic()),
        member_(std::move(member)),
        errors_(errors) {}

  absl::StatusOr<eventlog::Assignment> Poll() override {
    return member_->Poll();
  }
  void AppendAsync(std::vector<eventlog::Record> records,
                   std::vector<eventlog::OffsetCommit> commits,
                   eventlog::AppendCallback done) override {
    member_->AppendAsync(std::move(records), std::move(commits),
                         Counting(errors_, std::move(done)));
  }

 private:
  std::unique_ptr<eventlog::GroupMember> member_;
  prometheus::Counter& errors_;
};

}  // namespace

std::string ServiceLabel(std::string_view name) {
  return absl::StrReplaceAll(ToAbsl(name), {{" ", "_"}});
}

MeteredLog::MeteredLog(eventlog::EventLog& log, prometheus::Registry& registry,
                       std::string_view service)
    : ForwardingLog(log),
      append_errors_(prometheus::BuildCounter()
                         .Name("banca_log_append_errors_total")
                         .Help("Appends the event log failed, by service")
                         .Register(registry)
                         .Add({{"service", ServiceLabel(service)}})) {}

void MeteredLog::AppendAsync(std::vector<eventlog::Record> records,
                             std::vector<eventlog::OffsetCommit> commits,
                             eventlog::AppendCallback done) {
  forwarded().AppendAsync(std::move(records), std::move(commits),
                          Counting(append_errors_, std::move(done)));
}

absl::StatusOr<std::unique_ptr<eventlog::GroupMember>> MeteredLog::JoinGroup(
    const eventlog::GroupOptions& options) {
  absl::StatusOr<std::unique_ptr<eventlog::GroupMember>> member =
      forwarded().JoinGroup(options);
  if (!member.ok()) return member.status();
  return std::unique_ptr<eventlog::GroupMember>(
      std::make_unique<MeteredMember>(*std::move(member), append_errors_));
}

}  // namespace banca::server
