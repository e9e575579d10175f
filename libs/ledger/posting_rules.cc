#include "libs/ledger/posting_rules.h"

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"

namespace banca::ledger {
namespace {

using C = AccountClass;
using R = v1::PostingReason;

struct Rule {
  R reason;
  C from;
  C to;
  // "operator", or the service that may ask; "" for the ledger's own
  // movements (never asked for over Transfer).
  std::string_view asker;
};

// clang-format off
constexpr Rule kRules[] = {
    // The house's own corrections, by an operator (the actor is logged).
    {R::POSTING_REASON_ADJUSTMENT, C::kHouse, C::kPlayer, "operator"},
    {R::POSTING_REASON_ADJUSTMENT, C::kPlayer, C::kHouse, "operator"},
    {R::POSTING_REASON_ADJUSTMENT, C::kHouse, C::kHouse, "operator"},
    // Cash tables.
    {R::POSTING_REASON_BUY_IN, C::kPlayer, C::kTable, "table"},
    // HE-17b: a buy-in's rake, when one transaction carries the buy-in.
    {R::POSTING_REASON_BUY_IN, C::kPlayer, C::kHouse, "table"},
    {R::POSTING_REASON_POT_CONTRIBUTION, C::kTable, C::kTable, "table"},
    {R::POSTING_REASON_POT_AWARD, C::kTable, C::kTable, "table"},
    {R::POSTING_REASON_VOID_REFUND, C::kTable, C::kTable, "table"},
    {R::POSTING_REASON_RAKE, C::kTable, C::kHouse, "table"},
    {R::POSTING_REASON_RAKE, C::kPlayer, C::kHouse, "table"},
    {R::POSTING_REASON_TABLE_CASH_OUT, C::kTable, C::kPlayer, "table"},
    // HE-17b: a compensated buy-in's rake comes back with the stack.
    {R::POSTING_REASON_TABLE_CASH_OUT, C::kHouse, C::kPlayer, "table"},
    {R::POSTING_REASON_PAYOUT, C::kTable, C::kPlayer, "table"},
    // Banked games.
    {R::POSTING_REASON_BET, C::kPlayer, C::kGame, "table"},
    {R::POSTING_REASON_BET_LOST, C::kGame, C::kHouse, "table"},
    {R::POSTING_REASON_BET_LOST, C::kGame, C::kPlayer, "table"},
    {R::POSTING_REASON_BET_RETURNED, C::kGame, C::kPlayer, "table"},
    {R::POSTING_REASON_PAYOUT, C::kGame, C::kPlayer, "table"},
    {R::POSTING_REASON_PAYOUT, C::kHouse, C::kPlayer, "table"},
    {R::POSTING_REASON_VOID_REFUND, C::kGame, C::kPlayer, "table"},
    // Tournaments.
    {R::POSTING_REASON_BUY_IN, C::kPlayer, C::kTournament, "tournament"},
    {R::POSTING_REASON_FEE, C::kPlayer, C::kHouse, "tournament"},
    {R::POSTING_REASON_PRIZE, C::kTournament, C::kPlayer, "tournament"},
    {R::POSTING_REASON_PRIZE, C::kHouse, C::kTournament, "tournament"},
    {R::POSTING_REASON_REFUND, C::kTournament, C::kPlayer, "tournament"},
    {R::POSTING_REASON_REFUND, C::kHouse, C::kPlayer, "tournament"},
    // TN-16/37: an entry won (a ticket, held in a tournament account) pays
    // a buy-in like cash, is a satellite's prize, and comes back as a
    // ticket when refunded; TN-7m: a cancelled tournament gives the
    // overlay back to the house.
    {R::POSTING_REASON_BUY_IN, C::kTournament, C::kTournament, "tournament"},
    {R::POSTING_REASON_BUY_IN, C::kTournament, C::kHouse, "tournament"},
    {R::POSTING_REASON_PRIZE, C::kTournament, C::kTournament, "tournament"},
    {R::POSTING_REASON_REFUND, C::kTournament, C::kTournament, "tournament"},
    {R::POSTING_REASON_REFUND, C::kHouse, C::kTournament, "tournament"},
    {R::POSTING_REASON_REFUND, C::kTournament, C::kHouse, "tournament"},
    // The ledger's own movements: deposits, withdrawals and holds.
    {R::POSTING_REASON_DEPOSIT, C::kExternal, C::kPlayer, ""},
    {R::POSTING_REASON_WITHDRAWAL, C::kPlayer, C::kExternal, ""},
    {R::POSTING_REASON_HOLD, C::kPlayer, C::kPlayer, ""},
    {R::POSTING_REASON_HOLD_RELEASE, C::kPlayer, C::kPlayer, ""},
};
// clang-format on

bool AskerMatches(std::string_view rule_asker, const Asker& asker) {
  if (rule_asker.empty()) return false;
  if (rule_asker == "operator") return asker.is_operator;
  return !asker.service.empty() && asker.service == rule_asker;
}

}  // namespace

absl::Status CheckTransferRule(v1::PostingReason reason, AccountClass from,
                               AccountClass to, const Asker& asker) {
  bool reason_known = false;
  for (const Rule& rule : kRules) {
    if (rule.reason != reason || rule.from != from || rule.to != to) continue;
    reason_known = true;
    if (AskerMatches(rule.asker, asker)) return absl::OkStatus();
  }
  return absl::PermissionDeniedError(absl::StrCat(
      "no rule lets ",
      asker.is_operator
          ? std::string("an operator")
          : absl::StrCat("service \"", ToAbsl(asker.service), "\""),
      " move ", v1::PostingReason_Name(reason), " money from a ",
      ToAbsl(AccountClassName(from)), " account to a ",
      ToAbsl(AccountClassName(to)), " account",
      reason_known ? "" : " (docs/security.md, \"Transfers\")"));
}

absl::Status CheckLoggedTransfer(v1::PostingReason reason, AccountClass from,
                                 AccountClass to) {
  for (const Rule& rule : kRules) {
    if (rule.reason == reason && rule.from == from && rule.to == to) {
      return absl::OkStatus();
    }
  }
  return absl::FailedPreconditionError(
      absl::StrCat(v1::PostingReason_Name(reason), " from a ",
                   ToAbsl(AccountClassName(from)), " account to a ",
                   ToAbsl(AccountClassName(to)), " account follows no rule"));
}

absl::Status CheckLoggedTransaction(const v1::LedgerTransaction& tx) {
  for (const v1::Posting& debit : tx.postings()) {
    if (debit.amount_minor() >= 0) continue;
    ASSIGN_OR_RETURN(AccountInfo from, ParseAccount(debit.account()));
    for (const v1::Posting& credit : tx.postings()) {
      if (credit.amount_minor() <= 0) continue;
      ASSIGN_OR_RETURN(AccountInfo to, ParseAccount(credit.account()));
      absl::Status s = CheckLoggedTransfer(tx.reason(), from.account_class,
                                           to.account_class);
      if (!s.ok()) {
        return absl::FailedPreconditionError(
            absl::StrCat("transaction ", tx.tx_id(), " (", debit.account(),
                         " -> ", credit.account(), "): ", s.message()));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace banca::ledger
