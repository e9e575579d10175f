#include "services/wallet/wallet_access.h"

#include <initializer_list>

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"
#include "libs/ledger/posting_rules.h"

namespace banca::wallet {
namespace {

using auth::Role;

absl::Status Denied(const Caller& caller, std::string_view what) {
  return absl::PermissionDeniedError(
      absl::StrCat(caller.claims.subject, " may not ", ToAbsl(what),
                   " (docs/security.md, \"The wallet's matrix\")"));
}

bool HasRole(const Caller& caller, std::initializer_list<Role> roles) {
  for (Role r : roles) {
    if (caller.claims.role == r) return true;
  }
  return false;
}

bool IsService(const Caller& caller, std::string_view name) {
  return caller.claims.role == Role::kService && caller.claims.name() == name;
}

bool IsPlayer(const Caller& caller, std::string_view player_id) {
  return caller.claims.role == Role::kPlayer &&
         caller.claims.name() == player_id;
}

}  // namespace

std::string Caller::actor() const {
  return insecure ? std::string("insecure-dev") : claims.subject;
}

std::string Caller::ClientKey(std::string_view request_id) const {
  return absl::StrCat("client/", actor(), "/", ToAbsl(request_id));
}

absl::Status MayManageAccounts(const Caller& caller) {
  if (caller.insecure || HasRole(caller, {Role::kOperator})) {
    return absl::OkStatus();
  }
  return Denied(caller, "open or close accounts");
}

absl::Status MayDeposit(const Caller& caller) {
  if (caller.insecure || IsService(caller, kPaymentsService)) {
    return absl::OkStatus();
  }
  return Denied(caller, "deposit");
}

absl::Status MayWithdraw(const Caller& caller, std::string_view player_id) {
  if (caller.insecure || IsService(caller, kPaymentsService) ||
      IsPlayer(caller, player_id)) {
    return absl::OkStatus();
  }
  return Denied(caller, "withdraw from another player's account");
}

absl::Status MayRead(const Caller& caller, std::string_view player_id) {
  if (caller.insecure || IsPlayer(caller, player_id) ||
      HasRole(caller, {Role::kOperator, Role::kFinance, Role::kAuditor,
                       Role::kService})) {
    return absl::OkStatus();
  }
  return Denied(caller, "read another player's account");
}

absl::Status MayPlaceHold(const Caller& caller) {
  if (caller.insecure || HasRole(caller, {Role::kService})) {
    return absl::OkStatus();
  }
  return Denied(caller, "place holds");
}

absl::Status MayCaptureHold(const Caller& caller, std::string_view placed_by) {
  if (caller.insecure) return absl::OkStatus();
  if (caller.claims.role == Role::kService && !placed_by.empty() &&
      caller.claims.subject == placed_by) {
    return absl::OkStatus();
  }
  return Denied(caller, "capture a hold another caller placed");
}

absl::Status MayReleaseHold(const Caller& caller, std::string_view placed_by) {
  if (caller.insecure) return absl::OkStatus();
  if (caller.claims.role == Role::kService && !placed_by.empty() &&
      caller.claims.subject == placed_by) {
    return absl::OkStatus();
  }
  // An operator frees a stuck hold, but not one a table's saga is using.
  if (caller.claims.role == Role::kOperator &&
      placed_by != wire::kWalletActor) {
    return absl::OkStatus();
  }
  return Denied(caller, "release a hold another caller placed");
}

absl::Status MayTransferAtAll(const Caller& caller) {
  if (caller.insecure || HasRole(caller, {Role::kOperator, Role::kService})) {
    return absl::OkStatus();
  }
  return Denied(caller, "transfer");
}

absl::Status MayTransfer(const Caller& caller, v1::PostingReason reason,
                         ledger::AccountClass from, ledger::AccountClass to) {
  if (caller.insecure) return absl::OkStatus();
  if (absl::Status s = MayTransferAtAll(caller); !s.ok()) return s;
  ledger::Asker asker;
  asker.is_operator = caller.claims.role == Role::kOperator;
  if (caller.claims.role == Role::kService)
    asker.service = caller.claims.name();
  return ledger::CheckTransferRule(reason, from, to, asker);
}

absl::Status MaySummarize(const Caller& caller) {
  if (caller.insecure ||
      HasRole(caller, {Role::kOperator, Role::kFinance, Role::kAuditor})) {
    return absl::OkStatus();
  }
  return Denied(caller, "read the ledger summary");
}

}  // namespace banca::wallet
