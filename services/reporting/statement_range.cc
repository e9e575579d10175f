#include "services/reporting/statement_range.h"

#include "libs/ledger/account.h"

namespace banca::reporting {

absl::Status CheckStatementRange(const std::string& player_id,
                                 int64_t from_micros, int64_t to_micros) {
  if (!ledger::IsValidId(player_id)) {
    return absl::InvalidArgumentError(
        "player_id must be a valid id (1-64 of [a-z0-9._-])");
  }
  if (from_micros < 0 || to_micros < 0) {
    return absl::InvalidArgumentError("from_micros and to_micros are >= 0");
  }
  if (to_micros != 0 && from_micros > to_micros) {
    return absl::InvalidArgumentError(
        "the range is reversed: from_micros is after to_micros");
  }
  return absl::OkStatus();
}

}  // namespace banca::reporting
