// Chooses the event log from --log: "embedded" (the default: a journal under
// DATA_DIR/log) or "kafka://host:port[?options]".
#ifndef BANCA_LIBS_EVENTLOG_LOG_BACKEND_H_
#define BANCA_LIBS_EVENTLOG_LOG_BACKEND_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"

namespace banca::eventlog {

absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenLogBackend(
    const std::string& spec, const std::string& data_dir);

// As OpenLogBackend, for a reader that must change nothing: an embedded
// log is opened read-only (EmbeddedLogOptions::read_only), so a stopped
// server's data directory or a read-only snapshot of it can be read.
absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenLogBackendReadOnly(
    const std::string& spec, const std::string& data_dir);

// The embedded log at `dir`, or at `dir`/log when that is one, for a reader
// that must not create a log where there is none, opened read-only:
// NOT_FOUND when `dir` is not a directory or holds no journal.
absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenExistingEmbeddedLog(
    std::string dir);

}  // namespace banca::eventlog

#endif  // BANCA_LIBS_EVENTLOG_LOG_BACKEND_H_
