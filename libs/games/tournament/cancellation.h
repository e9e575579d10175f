// Money back when a player unregisters (TN-24, TN-25) or the tournament is
// cancelled (TN-35 to TN-38), as the digest's decisions read them:
//  a) before the start: every payment refunded in full, fee included;
//  b), c) after the start: each active player gets the live entry back in
//     full (buy-in or reentry, fee and bounty included); the pool = prize
//     parts of the eliminated entries + prize parts of every rebuy and
//     add-on − prizes already credited (c; 0 in b) is shared among the
//     active players by chips (chip_share.h). The fees of eliminated
//     entries, rebuys and add-ons stay with the house (TN-38), and so does
//     any overlay (a cancelled tournament pays no guarantee).
// An entry paid by ticket (satellite or freeroll prize) is restored as an
// entry credit, not cash (TN-37 read with TN-28 and TN-30).
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_CANCELLATION_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_CANCELLATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/games/tournament/entry.h"

namespace banca::games::tournament {

enum class RefundForm { kCash, kTicketCredit };
enum class RefundReason {
  kEntry,      // the entry's own payment, in full
  kPoolShare,  // a share of the pool by chips (TN-36b/c)
};

struct Refund {
  std::string player;
  int64_t amount = 0;  // > 0: nothing of 0 is listed
  RefundForm form = RefundForm::kCash;
  RefundReason reason = RefundReason::kEntry;
  bool operator==(const Refund&) const = default;
};

struct Cancellation {
  // Entry refunds in the order of the entries, then pool shares likewise.
  std::vector<Refund> refunds;
  // Where the refunds come from, by account: the sum of the three is the
  // sum of the refunds.
  int64_t from_pool = 0;      // prize parts refunded + pool_shared
  int64_t from_fees = 0;      // fees of the refunded entries
  int64_t from_bounties = 0;  // bounties of the refunded entries
  int64_t pool_shared = 0;    // TN-36b/c
  // What is not refunded.
  int64_t fees_kept = 0;         // stay in house/tournament_fees (TN-38)
  int64_t overlay_returned = 0;  // prize pool → house/overlay
  int64_t bounties_paid = 0;     // eliminated entries' bounties (TN-7p)
};

// TN-24/25: one entry, before the start: its buy-in back in full.
// INVALID_ARGUMENT naming the field as CancelBeforeStart.
absl::StatusOr<Cancellation> Unregister(const Entry& entry);

// TN-36a. Each entry is one buy-in (nothing else can be paid before the
// start), one per player (TN-19). INVALID_ARGUMENT naming the field
// otherwise, or for payments that fail CheckPaymentsAndTotal (entry.h).
absl::StatusOr<Cancellation> CancelBeforeStart(absl::Span<const Entry> entries);

// TN-36b/c, TN-37, TN-38. `prizes_credited`: prizes already credited from
// the pool (TN-54), 0 before the paid places. `overlay`: what the house
// put into the pool when the prizes were fixed (0 if not yet fixed); what
// the credited prizes did not use of it goes back to the house.
// INVALID_ARGUMENT naming the field: bad payments (entry.h), no active
// entry, chips not > 0 exactly on active entries, two active entries of
// one player (TN-19) or at one seat, a seat outside 0..kMaxSeatNumber,
// amounts outside 0..kMaxAmountMinor, or prizes_credited past the pool
// and overlay together.
absl::StatusOr<Cancellation> CancelAfterStart(absl::Span<const Entry> entries,
                                              int64_t prizes_credited,
                                              int64_t overlay);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_CANCELLATION_H_
