// Chooses the event log from --log: "embedded" (the default: a journal under
// DATA_DIR/log) or, once the Kafka backend lands, "kafka://host:port".
#ifndef BANCA_LIBS_EVENTLOG_LOG_BACKEND_H_
#define BANCA_LIBS_EVENTLOG_LOG_BACKEND_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"

namespace banca::eventlog {

absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenLogBackend(
    const std::string& spec, const std::string& data_dir);

}  // namespace banca::eventlog

#endif  // BANCA_LIBS_EVENTLOG_LOG_BACKEND_H_
