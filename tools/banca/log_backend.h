// Chooses the event log from --log: "embedded" (the default: a journal under
// DATA_DIR/log) or, once the Kafka backend lands, "kafka://host:port".
#ifndef BANCA_TOOLS_BANCA_LOG_BACKEND_H_
#define BANCA_TOOLS_BANCA_LOG_BACKEND_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"

namespace banca::cli {

absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenLogBackend(
    const std::string& spec, const std::string& data_dir);

}  // namespace banca::cli

#endif  // BANCA_TOOLS_BANCA_LOG_BACKEND_H_
