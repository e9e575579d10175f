// The one error of replay: a recorded event the ledger could not have
// decided is DATA_LOSS, and nothing of it is applied.
#ifndef BANCA_LIBS_LEDGER_REPLAY_ERROR_H_
#define BANCA_LIBS_LEDGER_REPLAY_ERROR_H_

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace banca::ledger {

inline absl::Status Corrupt(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("ledger replay: ", what));
}

}  // namespace banca::ledger

#endif  // BANCA_LIBS_LEDGER_REPLAY_ERROR_H_
