#include "libs/games/poker/table_config.h"

#include "absl/strings/str_cat.h"
#include "libs/money/money.h"

namespace banca::games::poker {
namespace {

constexpr int kMaxSeats = 10;
constexpr int kBoardCards = 5;
constexpr int kDeckCards = 52;
// A safety bound on the raise cap of capped limits; no-limit rounds have
// their own bound in the hand engine.
constexpr int kMaxRaiseCap = 100;

absl::Status Bad(std::string_view field, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "table config: ", absl::string_view(field.data(), field.size()), " ",
      absl::string_view(why.data(), why.size())));
}

}  // namespace

int TableConfig::HoleCards() const {
  if (hole_cards != 0) return hole_cards;
  return variant == Variant::kOmaha ? 4 : 2;
}

absl::Status TableConfig::Validate() const {
  if (variant != Variant::kHoldem && variant != Variant::kOmaha &&
      variant != Variant::kSynthetic) {
    return Bad("variant", "is not a known variant");
  }
  if (seats < 2 || seats > kMaxSeats) {
    return Bad("seats", absl::StrCat("must be 2..10 (HE-5), got ", seats));
  }
  if (extra_time_seconds < 0 || extra_time_seconds > kMaxExtraTimeSeconds) {
    return Bad("extra_time_seconds",
               absl::StrCat("must be 0..", kMaxExtraTimeSeconds, " (HE-44)"));
  }
  if (small_blind <= 0) return Bad("small_blind", "must be positive");
  if (big_blind <= 0) return Bad("big_blind", "must be positive");
  if (small_blind > big_blind) {
    return Bad("small_blind", "must not exceed the big blind");
  }
  if (big_blind > money::kMaxAmountMinor) return Bad("big_blind", "too large");
  switch (limit) {
    case Limit::kNoLimit:
    case Limit::kPotLimit:
      break;
    case Limit::kFixedLimit:
    case Limit::kHalfPot:
      if (max_raises_per_round < 0 || max_raises_per_round > kMaxRaiseCap) {
        return Bad("max_raises_per_round", "must be 0..100");
      }
      break;
    default:
      return Bad("limit", "is not a known limit");
  }
  if (buy_in_min < big_blind) {
    return Bad("buy_in_min", "must be at least the big blind");
  }
  if (buy_in_min > buy_in_max) {
    return Bad("buy_in_min", "must not exceed buy_in_max");
  }
  if (buy_in_max > money::kMaxAmountMinor)
    return Bad("buy_in_max", "too large");
  switch (rake.mode) {
    case RakeMode::kNone:
      if (rake.bps != 0 || rake.cap != 0) {
        return Bad("rake", "bps and cap must be 0 without rake");
      }
      break;
    case RakeMode::kPot:
      if (rake.bps < 100 || rake.bps > 500) {
        return Bad("rake.bps", "must be 100..500 in pot mode (HE-17a)");
      }
      break;
    case RakeMode::kBuyIn:
      if (rake.bps < 500 || rake.bps > 2000) {
        return Bad("rake.bps", "must be 500..2000 in buy-in mode (HE-17b)");
      }
      break;
    default:
      return Bad("rake.mode", "is not a known mode");
  }
  if (rake.cap < 0 || rake.cap > money::kMaxAmountMinor) {
    return Bad("rake.cap", "must be 0 (no cap) or positive");
  }
  if (heads_up != HeadsUpBlinds::kLiteral &&
      heads_up != HeadsUpBlinds::kButtonSmallBlind) {
    return Bad("heads_up", "is not a known setting");
  }
  const int hole = HoleCards();
  // The evaluators take 5-7 cards (hold'em, synthetic) or exactly 2 hole +
  // 3 board (Omaha), so the hole-card count is bounded by the variant.
  switch (variant) {
    case Variant::kHoldem:
    case Variant::kSynthetic:
      if (hole != 2) return Bad("hole_cards", "must be 2 for this variant");
      break;
    case Variant::kOmaha:
      if (hole < 4 || hole > 5) {
        return Bad("hole_cards", "must be 4 or 5 for Omaha");
      }
      break;
  }
  if (seats * hole + kBoardCards > kDeckCards) {
    return Bad("hole_cards", "too many for the seats: the deck runs out");
  }
  return absl::OkStatus();
}

}  // namespace banca::games::poker
