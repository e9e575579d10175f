// Fail-stop on a log failure. A service applies a decision in memory and then
// makes it durable in the log. If the log refuses it (or a follower cannot
// apply what the log holds), memory and log disagree. Only a restart, which
// rebuilds memory by replaying the log, is safe, so the process stops.
#ifndef BANCA_LIBS_EVENTLOG_FAIL_STOP_H_
#define BANCA_LIBS_EVENTLOG_FAIL_STOP_H_

#include <cstdlib>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/common/log_line.h"
#include "libs/common/string_view.h"

namespace banca::eventlog {

// Prints one JSON line naming `service` and what failed, then aborts.
[[noreturn]] inline void StopOnLogFailure(std::string_view service,
                                          std::string_view what,
                                          const absl::Status& status) {
  Log(LogLevel::kFatal, service,
      absl::StrCat("the event log failed (", ToAbsl(what),
                   "); stopping so that a restart replays the log"),
      {{"error", status.ToString()}});
  std::abort();
}

}  // namespace banca::eventlog

#endif  // BANCA_LIBS_EVENTLOG_FAIL_STOP_H_
