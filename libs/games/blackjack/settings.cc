#include "libs/games/blackjack/settings.h"

#include <string_view>

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"
#include "libs/money/money.h"

namespace banca::games::blackjack {
namespace {

// Bounds on the payout ratio and timers, so that no setting overflows the
// payout arithmetic or stalls a table for ever.
constexpr int kMaxRatioTerm = 100;
constexpr int64_t kMaxTimerSeconds = 24 * 3600;
constexpr int kMaxInactiveRounds = 1000;

absl::Status Bad(std::string_view field, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("blackjack settings: ", ToAbsl(field), " ", ToAbsl(why)));
}

}  // namespace

absl::Status TableSettings::Validate() const {
  if (seats < 1 || seats > kMaxSeats) {
    return Bad("seats",
               absl::StrCat("must be 1..", kMaxSeats, ", got ", seats));
  }
  if (min_bet <= 0) return Bad("min_bet", "must be positive");
  if (max_bet < min_bet) return Bad("max_bet", "must be at least min_bet");
  // Every payout is at most a small multiple of the stake (blackjack plus
  // the BJ-25i prize); capping the stake keeps all of them in int64.
  if (max_bet > money::kMaxAmountMinor / 1000) {
    return Bad("max_bet", "is too large");
  }
  if (decks < 1 || decks > kMaxDecks) {
    return Bad("decks",
               absl::StrCat("must be 1..", kMaxDecks, ", got ", decks));
  }
  if (blackjack_pays_num < 1 || blackjack_pays_num > kMaxRatioTerm ||
      blackjack_pays_den < 1 || blackjack_pays_den > kMaxRatioTerm) {
    return Bad("blackjack_pays", "terms must be 1..100");
  }
  if (double_on != DoubleOn::kAnyTwoCards &&
      double_on != DoubleOn::kNineToEleven &&
      double_on != DoubleOn::kTenOrEleven) {
    return Bad("double_on", "is not a known option");
  }
  if (max_split_hands < 1 || max_split_hands > kMaxHandsPerSeat) {
    return Bad("max_split_hands",
               absl::StrCat("must be 1..", kMaxHandsPerSeat));
  }
  if (surrender != Surrender::kNone && surrender != Surrender::kLate) {
    return Bad("surrender", "is not a known option");
  }
  if (inactive_seconds < 1 || inactive_seconds > kMaxTimerSeconds) {
    return Bad("inactive_seconds", "must be 1..86400");
  }
  if (warning_seconds < 1 || warning_seconds > kMaxTimerSeconds) {
    return Bad("warning_seconds", "must be 1..86400");
  }
  if (inactive_rounds < 1 || inactive_rounds > kMaxInactiveRounds) {
    return Bad("inactive_rounds", "must be 1..1000");
  }
  return absl::OkStatus();
}

}  // namespace banca::games::blackjack
