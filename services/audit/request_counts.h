// What `banca audit verify`'s two checks of the tables' money requests
// (table_audit.h for the poker tables, banked_audit.h for the banked ones)
// count alike, and where both put what is wrong.
#ifndef BANCA_SERVICES_AUDIT_REQUEST_COUNTS_H_
#define BANCA_SERVICES_AUDIT_REQUEST_COUNTS_H_

#include <cstdint>

#include "services/audit/audit_problem.h"

namespace banca::audit {

struct RequestCounts {
  // Records on the table topic, and tables created there.
  int64_t events = 0;
  int64_t tables = 0;
  // Of the money requests: carried out by the wallet exactly once;
  // quarantined by it (reported with the wallet's events); logged after
  // the position of the wallet reader that decides them: not read yet.
  int64_t carried_out = 0;
  int64_t quarantined = 0;
  int64_t pending = 0;
  Problems problems;
  bool ok() const { return problems.empty(); }
};

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_REQUEST_COUNTS_H_
