// Chooses the event log from --log: "embedded" (the default: a journal under
// DATA_DIR/log) or "kafka://host:port[?options]".
#ifndef BANCA_LIBS_EVENTLOG_LOG_BACKEND_H_
#define BANCA_LIBS_EVENTLOG_LOG_BACKEND_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/event_log.h"

namespace banca::eventlog {

absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenLogBackend(
    const std::string& spec, const std::string& data_dir);

// As OpenLogBackend, for a reader that must change nothing: an embedded
// log is opened read-only (EmbeddedLogOptions::read_only), so a stopped
// server's data directory or a read-only snapshot of it can be read.
absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenLogBackendReadOnly(
    const std::string& spec, const std::string& data_dir);

// As OpenLogBackendReadOnly, for a reader beside a running server (`banca
// audit verify` while `banca serve` runs): an embedded log is read
// without its lock, as the prefix of complete batches it held on open
// (EmbeddedLogOptions::beside_writer; `scan` gets what its scan found);
// Kafka with a read-only, read_committed client that commits and writes
// nothing (KafkaLogOptions::read_only). Where a Kafka reader stops is the
// caller's choice (the end offsets it saw first).
absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenLogBackendBesideWriter(
    const std::string& spec, const std::string& data_dir,
    JournalScanReport* scan = nullptr);

// The embedded log at `dir`, or at `dir`/log when that is one, for a reader
// that must not create a log where there is none, opened read-only:
// NOT_FOUND when `dir` is not a directory or holds no journal.
absl::StatusOr<std::unique_ptr<eventlog::EventLog>> OpenExistingEmbeddedLog(
    std::string dir);

}  // namespace banca::eventlog

#endif  // BANCA_LIBS_EVENTLOG_LOG_BACKEND_H_
