// Which reasons move money between which classes of account, and who may
// ask for them over the wallet's API (docs/security.md, "Transfers").
// Pure data: the wallet refuses any other Transfer or capture, and the
// audit checks every logged two-leg transaction against the same table.
#ifndef BANCA_LIBS_LEDGER_POSTING_RULES_H_
#define BANCA_LIBS_LEDGER_POSTING_RULES_H_

#include <string_view>

#include "absl/status/status.h"
#include "banca/v1/ledger.pb.h"
#include "libs/ledger/account.h"

namespace banca::ledger {

// Who may ask for a movement: an operator (adjustments, recorded as the
// actor), or a named service ("table", "tournament", "payments").
struct Asker {
  bool is_operator = false;
  // The service's name when the caller is a service; else empty.
  std::string_view service;
};

// OK when `reason` may move money from an account of class `from` to one
// of class `to`, asked by `asker`; PERMISSION_DENIED otherwise, naming the
// rule. Deposits and withdrawals have their own calls and are refused here.
absl::Status CheckTransferRule(v1::PostingReason reason, AccountClass from,
                               AccountClass to, const Asker& asker);

// For the audit: OK when a logged two-posting transaction (one debit, one
// credit) follows some rule of the table, whoever asked, including the
// ledger's own hold, deposit and withdrawal movements.
absl::Status CheckLoggedTransfer(v1::PostingReason reason, AccountClass from,
                                 AccountClass to);

// For the audit: every (debit, credit) pair of a logged transaction's
// postings follows some rule for the transaction's reason (a hand's
// settlement debits several seats into one pot; a payout credits one
// player from the wagers and the bank). FAILED_PRECONDITION naming the
// first pair that follows none; INVALID_ARGUMENT for an account name
// that does not parse.
absl::Status CheckLoggedTransaction(const v1::LedgerTransaction& tx);

}  // namespace banca::ledger

#endif  // BANCA_LIBS_LEDGER_POSTING_RULES_H_
