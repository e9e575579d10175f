// Who may call what on the wallet, on whose money (docs/security.md, "The
// wallet's matrix"). Pure: the service authenticates the caller and asks
// here before it validates or decides anything.
//
//   OpenAccount, CloseAccount     operator
//   Deposit                       service:payments
//   Withdraw                      service:payments, or the player itself
//   GetBalance, ListTransactions  the player itself, operator, finance,
//                                 auditor, any service
//   PlaceHold                     any service (recorded as the placer)
//   CaptureHold                   the service that placed the hold
//   ReleaseHold                   the service that placed the hold, or an
//                                 operator (not the wallet's own holds)
//   Transfer                      by (reason, from class, to class):
//                                 libs/ledger/posting_rules.h
//   TransferBatch                 operator or any service; then each item
//                                 as Transfer
//   GetLedgerSummary              operator, finance, auditor
#ifndef BANCA_SERVICES_WALLET_WALLET_ACCESS_H_
#define BANCA_SERVICES_WALLET_WALLET_ACCESS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "banca/v1/ledger.pb.h"
#include "libs/auth/token.h"
#include "libs/ledger/account.h"
#include "libs/wire/wallet_codec.h"

namespace banca::wallet {

// The payment provider's integration: the only depositor.
inline constexpr std::string_view kPaymentsService = "payments";

struct Caller {
  auth::Claims claims;
  // --insecure-dev: no token was checked and everything is allowed.
  bool insecure = false;

  // What the log records as the event's actor.
  std::string actor() const;
  // The idempotency key of the caller's request id: client ids live in
  // their own namespace per caller, so no client can name (and jam) an
  // internal step or another caller's request.
  std::string ClientKey(std::string_view request_id) const;
};

absl::Status MayManageAccounts(const Caller& caller);
absl::Status MayDeposit(const Caller& caller);
absl::Status MayWithdraw(const Caller& caller, std::string_view player_id);
absl::Status MayRead(const Caller& caller, std::string_view player_id);
absl::Status MayPlaceHold(const Caller& caller);
// `placed_by` is the hold's placer ("" in logs older than the field).
absl::Status MayCaptureHold(const Caller& caller, std::string_view placed_by);
absl::Status MayReleaseHold(const Caller& caller, std::string_view placed_by);
// Whether the caller may ask for any transfer at all (an operator or a
// service): the gate of TransferBatch, and MayTransfer's first check.
absl::Status MayTransferAtAll(const Caller& caller);
absl::Status MayTransfer(const Caller& caller, v1::PostingReason reason,
                         ledger::AccountClass from, ledger::AccountClass to);
absl::Status MaySummarize(const Caller& caller);

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_WALLET_ACCESS_H_
