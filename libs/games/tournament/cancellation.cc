#include "libs/games/tournament/cancellation.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/chip_share.h"
#include "libs/games/tournament/limits.h"

namespace banca::games::tournament {
namespace {

// INVALID_ARGUMENT if a player holds two of the entries.
absl::Status CheckOnePerPlayer(absl::Span<const Entry* const> entries,
                               std::string_view what) {
  std::vector<std::string_view> players;
  for (const Entry* e : entries) players.push_back(e->player);
  std::sort(players.begin(), players.end());
  auto twice = std::adjacent_find(players.begin(), players.end());
  if (twice == players.end()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("entries: ", ToAbsl(*twice),
                                                 " holds two ", ToAbsl(what),
                                                 " entries (TN-19)"));
}

absl::Status CheckBeforeStart(absl::Span<const Entry> entries) {
  std::vector<const Entry*> all;
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    if (e.payments.size() != 1 || e.payments[0].kind != PaymentKind::kBuyIn) {
      return absl::InvalidArgumentError(
          absl::StrCat("entries[", i,
                       "].payments: before the start an entry is one buy-in"));
    }
    all.push_back(&e);
  }
  return CheckOnePerPlayer(all, "registered");
}

absl::Status CheckActive(size_t i, const Entry& e) {
  if (e.active != (e.chips > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("entries[", i, "].chips: ", e.chips, " chips on an ",
                     e.active ? "active" : "eliminated", " entry"));
  }
  if (e.seat < 0 || e.seat > kMaxSeatNumber) {
    return absl::InvalidArgumentError(absl::StrCat(
        "entries[", i, "].seat: ", e.seat, " is outside 0..", kMaxSeatNumber));
  }
  return CheckChips(absl::StrCat("entries[", i, "].chips"), e.chips);
}

absl::Status CheckDistinctSeats(absl::Span<const Entry* const> active) {
  std::vector<int> seats;
  for (const Entry* e : active) seats.push_back(e->seat);
  std::sort(seats.begin(), seats.end());
  auto twice = std::adjacent_find(seats.begin(), seats.end());
  if (twice == seats.end()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("entries: two active entries at seat ", *twice));
}

absl::Status CheckAfterStart(absl::Span<const Entry> entries,
                             int64_t prizes_credited, int64_t overlay) {
  RETURN_IF_ERROR(CheckAmount("prizes_credited", prizes_credited));
  RETURN_IF_ERROR(CheckAmount("overlay", overlay));
  std::vector<const Entry*> active;
  for (size_t i = 0; i < entries.size(); ++i) {
    RETURN_IF_ERROR(CheckActive(i, entries[i]));
    if (entries[i].active) active.push_back(&entries[i]);
  }
  if (active.empty()) {
    return absl::InvalidArgumentError(
        "entries: no active entry; a tournament with none has ended");
  }
  RETURN_IF_ERROR(CheckOnePerPlayer(active, "active"));
  return CheckDistinctSeats(active);
}

// The entry's own payment back in full, in the form it was paid.
void RefundEntry(const Entry& e, Cancellation& c) {
  const Payment& p = e.payments[0];
  c.from_pool += p.split.prize_part;
  c.from_fees += p.split.fee;
  c.from_bounties += p.split.bounty;
  if (p.split.amount() == 0) return;
  c.refunds.push_back({e.player, p.split.amount(),
                       p.source == Source::kTicket ? RefundForm::kTicketCredit
                                                   : RefundForm::kCash,
                       RefundReason::kEntry});
}

// Every account's money is accounted for: the refunds come from the three
// accounts, and what was paid in (and the overlay) is refunded, kept,
// returned or already paid out as prizes and bounties.
void CheckConserved(absl::Span<const Entry> entries, const Cancellation& c,
                    int64_t paid_in, int64_t prizes_credited, int64_t overlay) {
  int64_t prize_parts = 0, fees = 0, bounties = 0, refunded = 0;
  for (const Entry& e : entries) {
    for (const Payment& p : e.payments) {
      prize_parts += p.split.prize_part;
      fees += p.split.fee;
      bounties += p.split.bounty;
    }
  }
  for (const Refund& r : c.refunds) {
    BANCA_CHECK(r.amount > 0);
    refunded += r.amount;
  }
  BANCA_CHECK(refunded == c.from_pool + c.from_fees + c.from_bounties);
  BANCA_CHECK(c.from_pool + c.overlay_returned ==
              prize_parts + overlay - prizes_credited);
  BANCA_CHECK(c.from_fees + c.fees_kept == fees);
  BANCA_CHECK(c.from_bounties + c.bounties_paid == bounties);
  BANCA_CHECK(c.pool_shared >= 0 && c.overlay_returned >= 0 &&
              c.overlay_returned <= overlay);
  BANCA_CHECK(prize_parts + fees + bounties == paid_in);
  BANCA_CHECK(refunded + c.fees_kept + c.overlay_returned + prizes_credited +
                  c.bounties_paid ==
              paid_in + overlay);
}

// An entry's payments that are not refunded: the fees stay with the house,
// the bounties were paid when the entry was eliminated, and the prize
// parts make the pool to share. Returns those prize parts.
int64_t KeepNotRefunded(const Entry& e, Cancellation& c) {
  int64_t to_pool = 0;
  for (size_t i = e.active ? 1 : 0; i < e.payments.size(); ++i) {
    const PaymentSplit& s = e.payments[i].split;
    to_pool += s.prize_part;
    c.fees_kept += s.fee;
    c.bounties_paid += s.bounty;
  }
  return to_pool;
}

// The pool (less the prizes already credited) shared by chips; the
// overlay the credited prizes did not use goes back to the house.
absl::Status SharePool(int64_t pool, int64_t prizes_credited, int64_t overlay,
                       absl::Span<const Stack> stacks, Cancellation& c) {
  if (prizes_credited > pool + overlay) {
    return absl::InvalidArgumentError(absl::StrCat(
        "prizes_credited: ", prizes_credited, " cents is more than the ",
        pool + overlay, " cents the pool and the overlay could have paid"));
  }
  c.pool_shared = std::max<int64_t>(0, pool - prizes_credited);
  c.overlay_returned = overlay - std::max<int64_t>(0, prizes_credited - pool);
  c.from_pool += c.pool_shared;
  for (PlayerAmount& share : ShareByChips(c.pool_shared, stacks)) {
    if (share.amount == 0) continue;
    c.refunds.push_back({std::move(share.player), share.amount,
                         RefundForm::kCash, RefundReason::kPoolShare});
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Cancellation> CancelBeforeStart(
    absl::Span<const Entry> entries) {
  ASSIGN_OR_RETURN(const int64_t paid_in, CheckPaymentsAndTotal(entries));
  RETURN_IF_ERROR(CheckBeforeStart(entries));
  Cancellation c;
  for (const Entry& e : entries) RefundEntry(e, c);
  CheckConserved(entries, c, paid_in, 0, 0);
  BANCA_CHECK(c.from_pool + c.from_fees + c.from_bounties == paid_in);
  return c;
}

absl::StatusOr<Cancellation> Unregister(const Entry& entry) {
  return CancelBeforeStart(absl::MakeConstSpan(&entry, 1));
}

absl::StatusOr<Cancellation> CancelAfterStart(absl::Span<const Entry> entries,
                                              int64_t prizes_credited,
                                              int64_t overlay) {
  ASSIGN_OR_RETURN(const int64_t paid_in, CheckPaymentsAndTotal(entries));
  RETURN_IF_ERROR(CheckAfterStart(entries, prizes_credited, overlay));
  Cancellation c;
  int64_t pool = 0;
  std::vector<Stack> stacks;
  for (const Entry& e : entries) {
    if (e.active) {
      RefundEntry(e, c);
      stacks.push_back({e.player, e.chips, e.seat});
    }
    pool += KeepNotRefunded(e, c);
  }
  RETURN_IF_ERROR(SharePool(pool, prizes_credited, overlay, stacks, c));
  CheckConserved(entries, c, paid_in, prizes_credited, overlay);
  return c;
}

}  // namespace banca::games::tournament
