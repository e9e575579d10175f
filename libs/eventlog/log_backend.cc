#include "libs/eventlog/log_backend.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/kafka_log.h"

namespace banca::eventlog {

namespace {

enum class Access { kWrite, kReadOnly, kBesideWriter };

absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenBackend(
    const std::string& spec, const std::string& data_dir, Access access,
    JournalScanReport* scan = nullptr) {
  if (spec.empty() || spec == "embedded") {
    return eventlog::OpenEmbeddedLog(
        data_dir + "/log",
        {.read_only = access != Access::kWrite,
         .beside_writer = access == Access::kBesideWriter},
        scan);
  }
  if (absl::StartsWith(spec, "kafka://")) {
    // kafka://host:port[,host:port][?options]; see docs/eventlog.md.
    ASSIGN_OR_RETURN(eventlog::KafkaLogOptions options,
                     eventlog::ParseKafkaSpec(spec));
    options.read_only = access == Access::kBesideWriter;
    return eventlog::OpenKafkaLog(options);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "--log must be \"embedded\" or kafka://host:port, got \"", spec, "\""));
}

}  // namespace

absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenLogBackend(
    const std::string& spec, const std::string& data_dir) {
  return OpenBackend(spec, data_dir, Access::kWrite);
}

absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenLogBackendReadOnly(
    const std::string& spec, const std::string& data_dir) {
  return OpenBackend(spec, data_dir, Access::kReadOnly);
}

absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenLogBackendBesideWriter(
    const std::string& spec, const std::string& data_dir,
    JournalScanReport* scan) {
  return OpenBackend(spec, data_dir, Access::kBesideWriter, scan);
}

absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenExistingEmbeddedLog(
    std::string dir) {
  std::error_code ec;
  if (std::filesystem::is_directory(dir + "/log", ec)) dir += "/log";
  if (!std::filesystem::is_directory(dir, ec)) {
    return absl::NotFoundError(absl::StrCat("no event log at ", dir));
  }
  bool journal = false;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    journal |= name == "LOCK" || absl::EndsWith(name, ".seg");
  }
  if (!journal) {
    return absl::NotFoundError(
        absl::StrCat(dir, " is not an event log (no journal segments)"));
  }
  return eventlog::OpenEmbeddedLog(dir, {.read_only = true});
}

}  // namespace banca::eventlog
