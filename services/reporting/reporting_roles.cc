#include "services/reporting/reporting_roles.h"

#include "absl/strings/str_cat.h"

namespace banca::reporting {

using auth::Role;

absl::Status MayReadFinance(const auth::Claims& caller) {
  if (caller.role == Role::kFinance || caller.role == Role::kAuditor ||
      caller.role == Role::kOperator) {
    return absl::OkStatus();
  }
  return absl::PermissionDeniedError(
      absl::StrCat(caller.subject,
                   " may not read the finance reports (finance, auditor, "
                   "operator)"));
}

absl::Status MayReadPlayer(const auth::Claims& caller,
                           const std::string& player) {
  if (MayReadFinance(caller).ok()) return absl::OkStatus();
  if (caller.role == Role::kPlayer && caller.name() == player) {
    return absl::OkStatus();
  }
  return absl::PermissionDeniedError(absl::StrCat(
      caller.subject, " may not read the reports of player ", player));
}

}  // namespace banca::reporting
