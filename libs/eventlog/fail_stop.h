// Fail-stop on a log failure. A service applies a decision in memory and then
// makes it durable in the log. If the log refuses it (or a follower cannot
// apply what the log holds), memory and log disagree. Only a restart, which
// rebuilds memory by replaying the log, is safe, so the process stops.
#ifndef BANCA_LIBS_EVENTLOG_FAIL_STOP_H_
#define BANCA_LIBS_EVENTLOG_FAIL_STOP_H_

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace banca::eventlog {

// Prints one JSON line naming `service` and what failed, then aborts.
[[noreturn]] inline void StopOnLogFailure(std::string_view service,
                                          std::string_view what,
                                          const absl::Status& status) {
  std::fprintf(stderr,
               "{\"level\":\"fatal\",\"service\":\"%.*s\",\"msg\":\"the event "
               "log failed (%.*s); stopping so that a restart replays the "
               "log\",\"error\":\"%s\"}\n",
               static_cast<int>(service.size()), service.data(),
               static_cast<int>(what.size()), what.data(),
               std::string(status.ToString()).c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace banca::eventlog

#endif  // BANCA_LIBS_EVENTLOG_FAIL_STOP_H_
