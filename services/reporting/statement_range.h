// The player and time range of a statement query (GetStatement,
// ExportReport): INVALID_ARGUMENT for an id that is not one, a negative
// time or a reversed range (to_micros 0: no end).
#ifndef BANCA_SERVICES_REPORTING_STATEMENT_RANGE_H_
#define BANCA_SERVICES_REPORTING_STATEMENT_RANGE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace banca::reporting {

absl::Status CheckStatementRange(const std::string& player_id,
                                 int64_t from_micros, int64_t to_micros);

}  // namespace banca::reporting

#endif  // BANCA_SERVICES_REPORTING_STATEMENT_RANGE_H_
