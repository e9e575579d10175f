// Fail-stop on a broken ledger invariant. A decision is validated against the
// locked state before anything is applied, so applying it cannot fail; if it
// does, the ledger has a bug and its memory can no longer be trusted. Nothing
// of the decision has been applied or committed at that point, but serving
// on would risk a divergence between memory and log: the process stops, and
// a restart rebuilds memory from the log (the pattern of
// libs/eventlog/fail_stop.h). No client input reaches this: every input is
// refused with a status before the decision.
#ifndef BANCA_LIBS_LEDGER_INVARIANT_H_
#define BANCA_LIBS_LEDGER_INVARIANT_H_

#include <cstdlib>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/common/log_line.h"
#include "libs/common/string_view.h"

namespace banca::ledger {

// Prints one JSON line naming what broke, then aborts.
[[noreturn]] inline void StopOnInvariantBreak(std::string_view what,
                                              const absl::Status& status) {
  Log(LogLevel::kFatal, "ledger",
      absl::StrCat("ledger invariant broken (", ToAbsl(what),
                   "); stopping so that a restart replays the log"),
      {{"error", status.ToString()}});
  std::abort();
}

}  // namespace banca::ledger

#endif  // BANCA_LIBS_LEDGER_INVARIANT_H_
