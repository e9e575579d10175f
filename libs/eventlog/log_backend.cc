#include "libs/eventlog/log_backend.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/kafka_log.h"

namespace banca::eventlog {

absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenLogBackend(
    const std::string& spec, const std::string& data_dir) {
  if (spec.empty() || spec == "embedded") {
    return eventlog::OpenEmbeddedLog(data_dir + "/log");
  }
  if (absl::StartsWith(spec, "kafka://")) {
    // kafka://host:port[,host:port][?options]; see docs/eventlog.md.
    absl::StatusOr<eventlog::KafkaLogOptions> options =
        eventlog::ParseKafkaSpec(spec);
    if (!options.ok()) return options.status();
    return eventlog::OpenKafkaLog(*options);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "--log must be \"embedded\" or kafka://host:port, got \"", spec, "\""));
}

}  // namespace banca::eventlog
