// Who may read what from the reporting service (docs/reporting.md, "Who
// may read what").
#ifndef BANCA_SERVICES_REPORTING_REPORTING_ROLES_H_
#define BANCA_SERVICES_REPORTING_REPORTING_ROLES_H_

#include <string>

#include "absl/status/status.h"
#include "libs/auth/token.h"

namespace banca::reporting {

// Finance, auditors and operators read every player's; a player only
// their own.
absl::Status MayReadPlayer(const auth::Claims& caller,
                           const std::string& player);
// The finance reports and the daily close: finance, auditor, operator.
absl::Status MayReadFinance(const auth::Claims& caller);

}  // namespace banca::reporting

#endif  // BANCA_SERVICES_REPORTING_REPORTING_ROLES_H_
