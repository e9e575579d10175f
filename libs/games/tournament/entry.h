// One entry in a tournament as the money arithmetic sees it: a buy-in or a
// reentry (TN-2k: each reentry is a new entry) and the rebuys and add-ons
// bought on it, each already split into its parts (payment.h), with where
// the entry came from and, after the start, whether it is still in play.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_ENTRY_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_ENTRY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/games/tournament/payment.h"

namespace banca::games::tournament {

// A seat number for ties between stacks (cancellation.h): 0..kMaxSeatNumber.
inline constexpr int kMaxSeatNumber = 1'000'000;

enum class Source {
  kCash,    // paid from the player's account
  kTicket,  // an entry won as a prize, in a satellite or a freeroll (TN-16)
};

struct Payment {
  PaymentKind kind = PaymentKind::kBuyIn;
  PaymentSplit split;
  Source source =
      Source::kCash;  // only an entry's first payment may be a ticket
};

struct Entry {
  std::string player;
  // The buy-in or reentry first, then the rebuys and add-ons made on it.
  std::vector<Payment> payments;
  // After the start: still in play (not eliminated) when cancelled, its
  // chips then (> 0 exactly when active), and a seat number unique among
  // the active entries (e.g. table × 100 + seat) that breaks ties between
  // equal stacks, lower first. Not read before the start.
  bool active = false;
  int64_t chips = 0;
  int seat = 0;
};

// INVALID_ARGUMENT naming the field ("entries[3].payments[1].kind: …")
// unless the player id is valid, there are 1..kMaxPaymentsPerEntry
// payments, the first is a buy-in or reentry and the others rebuys or
// add-ons, every part is in 0..kMaxAmountMinor, only the first carries a
// bounty or comes from a ticket.
absl::Status CheckEntryPayments(size_t index, const Entry& entry);

// Every payment of every entry checked, and their sum: INVALID_ARGUMENT
// for 0 or more than kMaxEntries entries, or a sum past kMaxAmountMinor
// (so that no total computed from them can overflow).
absl::StatusOr<int64_t> CheckPaymentsAndTotal(absl::Span<const Entry> entries);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_ENTRY_H_
