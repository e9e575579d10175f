// The bounds of every input to the tournament money arithmetic, and the
// checks that enforce them. Each check returns INVALID_ARGUMENT naming the
// field, so that a service can pass the message on to its caller as is.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_LIMITS_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_LIMITS_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "libs/money/money.h"

namespace banca::games::tournament {

// Any single amount (a payment, a part of one, a guarantee, a prize pool):
// the money library's bound on one input.
inline constexpr int64_t kMaxAmountMinor = money::kMaxAmountMinor;
// Paid places in a prize structure, and places at stake in one hand.
inline constexpr int kMaxPlaces = 10'000;
// Entries in one tournament (buy-ins and reentries, TN-2k).
inline constexpr int kMaxEntries = 100'000;
// Payments on one entry: the buy-in or reentry, then rebuys and add-ons.
inline constexpr int kMaxPaymentsPerEntry = 64;
// Winners sharing one pot: a table has at most 10 seats (TN-6).
inline constexpr int kMaxPotWinners = 10;
// Chips in one stack. Tournament chips have no money value (TN-2e).
inline constexpr int64_t kMaxChips = 1'000'000'000'000;
// A position clockwise from the button (seat_order.h).
inline constexpr int kMaxOrderFromButton = 1'000'000;
// A player id: the ledger's bound on an account id.
inline constexpr size_t kMaxPlayerIdBytes = 64;
// Blind levels in one schedule (TN-45/46).
inline constexpr int kMaxLevels = 1'000;
// One level's duration: a day, in microseconds.
inline constexpr int64_t kMaxLevelMicros = 86'400'000'000;
// A point in time (start, now): microseconds since the Unix epoch, up to
// the year 2100.
inline constexpr int64_t kMaxTimeMicros = 4'102'444'800'000'000;
// Seats at a tournament table (TN-6: 2 to 10).
inline constexpr int kMinSeatsPerTable = 2;
inline constexpr int kMaxSeatsPerTable = 10;
// Tables in one tournament: every entry at a table of two.
inline constexpr int kMaxTables = kMaxEntries / kMinSeatsPerTable;

// INVALID_ARGUMENT unless 0 <= amount <= kMaxAmountMinor.
absl::Status CheckAmount(std::string_view field, int64_t amount);
// INVALID_ARGUMENT unless 0 <= chips <= kMaxChips.
absl::Status CheckChips(std::string_view field, int64_t chips);
// INVALID_ARGUMENT unless the id is 1..kMaxPlayerIdBytes bytes.
absl::Status CheckPlayerId(std::string_view field, std::string_view player);
// INVALID_ARGUMENT unless 1 <= size <= max.
absl::Status CheckCount(std::string_view field, size_t size, size_t max);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_LIMITS_H_
