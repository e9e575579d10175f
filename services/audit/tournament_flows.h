// One tournament's money as the wallet posted it (`banca audit verify`,
// tournament_audit.h): every transaction posted under the tournament's
// request ids, sorted into the flows of docs/tournaments.md ("Accounts and
// money flows"), so that the auditor reads
//
//   paid in   = fees + prize pool + bounties         (BUY_IN)
//   pool in   = prize parts + overlay                 (BUY_IN, ADJUSTMENT)
//   pool out  = prizes + tickets + refunds + overlay given back
//   pool left = pool in − pool out; bounties left likewise
//
// Each posting must be one that tournament money makes, by the
// transaction's reason (libs/settlement/tournament_settlement.h):
//   BUY_IN      the payer (player/<p>/cash or tournament/<id>/tickets/<p>)
//               debited; the pool, house/tournament_fees and the bounties
//               credited;
//   PRIZE       the pool (a prize, to cash or to a ticket of any target)
//               or the bounties (a bounty, to cash) debited, never both;
//   REFUND      the pool, the fees and the bounties debited; cash, the
//               tournament's tickets and house/overlay (the overlay given
//               back) credited; or the tournament's tickets debited to
//               cash (TN-29: an entry won converted);
//   ADJUSTMENT  the overlay: house/overlay debited, the pool credited.
// Anything else (another account, reason or sign) is a problem.
#ifndef BANCA_SERVICES_AUDIT_TOURNAMENT_FLOWS_H_
#define BANCA_SERVICES_AUDIT_TOURNAMENT_FLOWS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "banca/v1/ledger.pb.h"
#include "services/audit/audit_problem.h"

namespace banca::audit {

// Cents, each a sum of postings' amounts (positive).
struct TournamentFlows {
  // BUY_IN transactions: what the payers paid, and where it went.
  int64_t paid_in = 0;
  int64_t fees_in = 0;
  int64_t pool_in = 0;
  int64_t bounties_in = 0;
  // house/overlay → pool, and what a cancellation gave back.
  int64_t overlay_paid = 0;
  int64_t overlay_returned = 0;
  // Out of the pool: prizes to cash, prizes as tickets, refunds.
  int64_t prizes = 0;
  int64_t tickets = 0;
  int64_t pool_refunds = 0;
  // Out of the fees and the bounties.
  int64_t fees_refunded = 0;
  int64_t bounties_paid = 0;
  int64_t bounties_refunded = 0;
  // TN-29: entries won to this tournament converted to cash.
  int64_t tickets_cashed_out = 0;
  // What the accounts hold after every posting.
  int64_t pool_left = 0;
  int64_t bounties_left = 0;
  int64_t transactions = 0;
  // A sum overflowed int64 (then the flows are not reliable; a problem).
  bool overflow = false;

  int64_t overlay() const { return overlay_paid - overlay_returned; }
  int64_t fees_kept() const { return fees_in - fees_refunded; }
};

class TournamentFlowTally {
 public:
  explicit TournamentFlowTally(std::string tournament);

  // One transaction the wallet posted under `request_id`; a posting that
  // no tournament money makes goes to `problems` ("tournament <id>: ...").
  void Add(const std::string& request_id, const v1::LedgerTransaction& tx,
           Problems& problems);

  const TournamentFlows& flows() const { return flows_; }
  // Prizes (cash and tickets) credited out of the pool, by player.
  const std::map<std::string, int64_t>& prizes_by_player() const {
    return prizes_by_player_;
  }

 private:
  enum class Kind { kPool, kBounties, kFees, kOverlay, kCash, kTicket, kOther };
  struct Account {
    Kind kind = Kind::kOther;
    std::string player;       // kCash, kTicket
    bool own_ticket = false;  // kTicket of this tournament
  };
  Account Classify(const std::string& account) const;
  // Whether `kind` may move by `amount` in a transaction of `reason`.
  bool Allowed(v1::PostingReason reason, const Account& account,
               int64_t amount) const;
  void AddPosting(v1::PostingReason reason, const Account& account,
                  int64_t amount, bool from_pool);
  void Accumulate(int64_t& field, int64_t amount);

  std::string tournament_;
  std::string pool_;
  std::string bounties_;
  TournamentFlows flows_;
  std::map<std::string, int64_t> prizes_by_player_;
};

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_TOURNAMENT_FLOWS_H_
