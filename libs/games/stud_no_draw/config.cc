#include "libs/games/stud_no_draw/config.h"

#include <string_view>

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"
#include "libs/money/money.h"

namespace banca::games::stud_no_draw {
namespace {

// More rounds than anyone sits idle for: keeps the counter bounded.
constexpr int kMaxIdleRounds = 1000;

absl::Status Bad(std::string_view field, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("stud_no_draw config: ", ToAbsl(field), " ", ToAbsl(why)));
}

}  // namespace

absl::Status TableConfig::Validate() const {
  if (seats < 1 || seats > kMaxSeats) {
    return Bad("seats", absl::StrCat("must be 1..7 (SD-6a), got ", seats));
  }
  if (min_ante <= 0) return Bad("min_ante", "must be positive (SD-17)");
  if (max_ante < min_ante) {
    return Bad("max_ante", "must not be below min_ante (SD-16)");
  }
  // The whole stake of one seat (ante + bet) must stay a valid amount, and
  // its best payout (100 × the bet plus stakes) must not overflow.
  if (max_ante > money::kMaxAmountMinor / 1000) {
    return Bad("max_ante", "is too large");
  }
  // Safe from overflow: min_ante ≤ max_ante, which is bounded above.
  if (max_ante > kMaxAnteMultiple * min_ante) {
    return Bad("max_ante",
               absl::StrCat("must be at most 25 × min_ante (SD-18), got ",
                            max_ante, " > 25 × ", min_ante));
  }
  if (decision_ms <= 0 || decision_ms > kMaxDurationMs) {
    return Bad("decision_ms", "must be 1 ms .. 1 day (SD-21)");
  }
  if (extra_ms <= 0 || extra_ms > kMaxDurationMs) {
    return Bad("extra_ms", "must be 1 ms .. 1 day (SD-31: mandatory)");
  }
  if (idle_invite_ms <= 0 || idle_invite_ms > kMaxDurationMs) {
    return Bad("idle_invite_ms", "must be 1 ms .. 1 day (SD-41a)");
  }
  if (session_grace_ms <= 0 || session_grace_ms > kMaxDurationMs) {
    return Bad("session_grace_ms", "must be 1 ms .. 1 day (SD-42a)");
  }
  if (idle_invite_rounds < 1 || idle_invite_rounds > kMaxIdleRounds) {
    return Bad("idle_invite_rounds", "must be 1..1000 (SD-41b)");
  }
  return absl::OkStatus();
}

}  // namespace banca::games::stud_no_draw
