#include "libs/settlement/tournament_settlement.h"

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/settlement/transaction_parts.h"

namespace banca::settlement {
namespace tournament = games::tournament;

namespace {

v1::PostingReason ReasonOf(tournament::MoveKind kind) {
  switch (kind) {
    case tournament::MoveKind::kBuyIn:
    case tournament::MoveKind::kReentry:
    case tournament::MoveKind::kRebuy:
    case tournament::MoveKind::kAddOn:
      return v1::POSTING_REASON_BUY_IN;
    case tournament::MoveKind::kUnregister:
    case tournament::MoveKind::kCancelRefund:
    case tournament::MoveKind::kTicketCashOut:  // TN-29
      return v1::POSTING_REASON_REFUND;
    case tournament::MoveKind::kOverlay:  // the house funds the prizes
    case tournament::MoveKind::kPrize:
    case tournament::MoveKind::kBounty:
      return v1::POSTING_REASON_PRIZE;
  }
  return v1::POSTING_REASON_UNSPECIFIED;
}

bool IsPayment(tournament::MoveKind kind) {
  return ReasonOf(kind) == v1::POSTING_REASON_BUY_IN;
}

}  // namespace

absl::StatusOr<v1::LedgerTransaction> TournamentTransaction(
    std::string_view id, const tournament::MoneyMove& move) {
  int64_t sum = 0;
  for (const tournament::Posting& p : move.postings) sum += p.amount;
  if (move.postings.empty() || sum != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("tournament ", ToAbsl(id), ": a ",
                     ToAbsl(tournament::MoveKindName(move.kind)),
                     " move must have postings that sum to 0"));
  }
  v1::LedgerTransaction tx = NewTx(
      ReasonOf(move.kind),
      MakeReference(v1::REFERENCE_KIND_TOURNAMENT, std::string(id)),
      move.entry > 0 ? absl::StrCat(move.memo, " [entry ", move.entry, "]")
                     : move.memo);
  for (const tournament::Posting& p : move.postings) {
    AddPosting(tx, p.account, p.amount);
  }
  return tx;
}

std::string TournamentStreamOwner(std::string_view id,
                                  const tournament::MoneyMove& move) {
  if (IsPayment(move.kind)) return ledger::PlayerOwner(move.player);
  return absl::StrCat("tournament/", ToAbsl(id));
}

}  // namespace banca::settlement
