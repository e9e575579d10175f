#include "services/audit/tournament_flows.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/money_move.h"
#include "libs/ledger/account.h"
#include "services/audit/request_audit.h"

namespace banca::audit {
namespace tn = games::tournament;

TournamentFlowTally::TournamentFlowTally(std::string tournament)
    : tournament_(std::move(tournament)),
      pool_(tn::PrizePoolAccount(tournament_)),
      bounties_(tn::BountiesAccount(tournament_)) {}

TournamentFlowTally::Account TournamentFlowTally::Classify(
    const std::string& account) const {
  if (account == pool_) return {Kind::kPool};
  if (account == bounties_) return {Kind::kBounties};
  if (account == tn::kFeesAccount) return {Kind::kFees};
  if (account == tn::kOverlayAccount) return {Kind::kOverlay};
  absl::StatusOr<ledger::AccountInfo> info = ledger::ParseAccount(account);
  if (!info.ok()) return {};
  if (info->account_class == ledger::AccountClass::kPlayer &&
      account == ledger::PlayerCashAccount(info->player_id)) {
    return {Kind::kCash, std::string(info->player_id)};
  }
  // tournament/<target>/tickets/<player>
  const std::vector<absl::string_view> parts = absl::StrSplit(account, '/');
  if (parts.size() == 4 && parts[0] == "tournament" && parts[2] == "tickets" &&
      ledger::IsValidId(ToStd(parts[3]))) {
    return {Kind::kTicket, std::string(parts[3]), parts[1] == tournament_};
  }
  return {};
}

bool TournamentFlowTally::Allowed(v1::PostingReason reason, const Account& a,
                                  int64_t amount) const {
  const bool in = amount > 0;
  const bool pot = a.kind == Kind::kPool || a.kind == Kind::kBounties;
  switch (reason) {
    case v1::POSTING_REASON_BUY_IN:
      return in ? pot || a.kind == Kind::kFees
                : a.kind == Kind::kCash ||
                      (a.kind == Kind::kTicket && a.own_ticket);
    case v1::POSTING_REASON_PRIZE:  // prizes, bounties, and the overlay
      return in ? a.kind == Kind::kCash || a.kind == Kind::kTicket ||
                      a.kind == Kind::kPool
                : pot || a.kind == Kind::kOverlay;
    case v1::POSTING_REASON_REFUND:
      return in ? a.kind == Kind::kCash || a.kind == Kind::kOverlay ||
                      (a.kind == Kind::kTicket && a.own_ticket)
                : pot || a.kind == Kind::kFees ||
                      (a.kind == Kind::kTicket && a.own_ticket);  // TN-29
    case v1::POSTING_REASON_ADJUSTMENT:
      return in ? a.kind == Kind::kPool : a.kind == Kind::kOverlay;
    default:
      return false;
  }
}

void TournamentFlowTally::Accumulate(int64_t& field, int64_t amount) {
  if (__builtin_add_overflow(field, amount, &field)) flows_.overflow = true;
}

void TournamentFlowTally::AddPosting(v1::PostingReason reason, const Account& a,
                                     int64_t amount, bool from_pool) {
  TournamentFlows& f = flows_;
  if (a.kind == Kind::kPool) Accumulate(f.pool_left, amount);
  if (a.kind == Kind::kBounties) Accumulate(f.bounties_left, amount);
  const bool in = amount > 0;
  const int64_t size = in ? amount : -amount;  // amounts are > INT64_MIN
  switch (reason) {
    case v1::POSTING_REASON_BUY_IN:
      Accumulate(!in                     ? f.paid_in
                 : a.kind == Kind::kPool ? f.pool_in
                 : a.kind == Kind::kFees ? f.fees_in
                                         : f.bounties_in,
                 size);
      return;
    case v1::POSTING_REASON_PRIZE:
      if (a.kind == Kind::kOverlay) Accumulate(f.overlay_paid, size);
      if (a.kind == Kind::kBounties) Accumulate(f.bounties_paid, size);
      if (in && from_pool) {
        Accumulate(a.kind == Kind::kTicket ? f.tickets : f.prizes, size);
        Accumulate(prizes_by_player_[a.player], size);
      }
      return;
    case v1::POSTING_REASON_REFUND:
      // The pool's refunds are its debits less the overlay given back
      // (both in the cancellation's one transaction).
      if (a.kind == Kind::kPool) Accumulate(f.pool_refunds, size);
      if (a.kind == Kind::kFees) Accumulate(f.fees_refunded, size);
      if (a.kind == Kind::kBounties) Accumulate(f.bounties_refunded, size);
      if (a.kind == Kind::kTicket && !in) {
        Accumulate(f.tickets_cashed_out, size);
      }
      if (a.kind == Kind::kOverlay) {
        Accumulate(f.overlay_returned, size);
        Accumulate(f.pool_refunds, -size);
      }
      return;
    case v1::POSTING_REASON_ADJUSTMENT:
      if (a.kind == Kind::kOverlay) Accumulate(f.overlay_paid, size);
      return;
    default:
      return;
  }
}

void TournamentFlowTally::Add(const std::string& request_id,
                              const v1::LedgerTransaction& tx,
                              Problems& problems) {
  ++flows_.transactions;
  const v1::PostingReason reason = tx.reason();
  std::vector<Account> accounts;
  bool from_pool = false;
  bool from_bounties = false;
  bool from_overlay = false;
  for (const v1::Posting& p : tx.postings()) {
    accounts.push_back(Classify(p.account()));
    const Account& a = accounts.back();
    if (p.amount_minor() == INT64_MIN ||
        (p.amount_minor() != 0 && !Allowed(reason, a, p.amount_minor()))) {
      AddProblem(
          problems,
          absl::StrCat("tournament ", tournament_, ": request ", request_id,
                       " moves ", p.account(), " by ", p.amount_minor(),
                       " in a ", v1::PostingReason_Name(reason),
                       " transaction, which no tournament money does"));
      accounts.back() = {};  // not counted in any flow
      continue;
    }
    from_pool |= a.kind == Kind::kPool && p.amount_minor() < 0;
    from_bounties |= a.kind == Kind::kBounties && p.amount_minor() < 0;
    from_overlay |= a.kind == Kind::kOverlay && p.amount_minor() < 0;
  }
  // A PRIZE pays from the pool (a place), the bounties (an elimination)
  // or the house's overlay (into the pool, TN-7m): one of the three.
  if (reason == v1::POSTING_REASON_PRIZE &&
      int{from_pool} + int{from_bounties} + int{from_overlay} != 1) {
    AddProblem(problems,
               absl::StrCat("tournament ", tournament_, ": request ",
                            request_id, " pays a PRIZE from ",
                            from_pool || from_bounties
                                ? "more than one of the pool, the bounties "
                                  "and the overlay"
                                : "neither the pool, the bounties nor the "
                                  "overlay"));
  }
  for (int i = 0; i < tx.postings_size(); ++i) {
    const Account& a = accounts[i];
    if (a.kind == Kind::kOther) continue;
    if (reason == v1::POSTING_REASON_PRIZE && a.kind == Kind::kTicket &&
        !from_pool) {
      AddProblem(problems,
                 absl::StrCat("tournament ", tournament_, ": request ",
                              request_id, " pays a bounty as a ticket"));
      continue;
    }
    AddPosting(reason, a, tx.postings(i).amount_minor(), from_pool);
  }
}

}  // namespace banca::audit
