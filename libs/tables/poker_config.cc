#include "libs/tables/poker_config.h"

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"

namespace banca::tables {
namespace poker = games::poker;

absl::StatusOr<v1::PokerTableConfig> NormalizeConfig(
    const v1::PokerTableConfig& in) {
  v1::PokerTableConfig c = in;
  if (!v1::PokerVariant_IsValid(c.variant()) ||
      c.variant() == v1::POKER_VARIANT_UNSPECIFIED) {
    return absl::InvalidArgumentError(
        "config.variant must be HOLDEM, OMAHA or SYNTHETIC");
  }
  if (!v1::BettingLimit_IsValid(c.limit())) {
    return absl::InvalidArgumentError("config.limit is not a betting limit");
  }
  if (c.limit() == v1::BETTING_LIMIT_UNSPECIFIED) {
    c.set_limit(c.variant() == v1::POKER_VARIANT_OMAHA
                    ? v1::BETTING_LIMIT_POT_LIMIT
                    : v1::BETTING_LIMIT_NO_LIMIT);
  }
  if (!v1::RakeModeSetting_IsValid(c.rake_mode())) {
    return absl::InvalidArgumentError("config.rake_mode is not a rake mode");
  }
  if (!v1::HeadsUpBlindsSetting_IsValid(c.heads_up())) {
    return absl::InvalidArgumentError("config.heads_up is not a setting");
  }
  if (c.heads_up() == v1::HEADS_UP_BLINDS_SETTING_UNSPECIFIED) {
    c.set_heads_up(v1::HEADS_UP_BLINDS_SETTING_LITERAL);
  }
  if (c.seats() == 0) c.set_seats(kDefaultSeats);
  if (c.max_raises_per_round() == 0) c.set_max_raises_per_round(3);
  if (c.action_seconds() == 0) c.set_action_seconds(kDefaultActionSeconds);
  if (c.action_seconds() < 1 || c.action_seconds() > kMaxActionSeconds) {
    return absl::InvalidArgumentError(
        absl::StrCat("config.action_seconds must be 1..", kMaxActionSeconds));
  }
  if (c.hand_interval_ms() < 0 || c.hand_interval_ms() > kMaxHandIntervalMs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "config.hand_interval_ms must be 0..", kMaxHandIntervalMs));
  }
  if (c.sit_out_max_seconds() < 0 ||
      c.sit_out_max_seconds() > kMaxSitOutSeconds) {
    return absl::InvalidArgumentError(
        absl::StrCat("config.sit_out_max_seconds must be 0..",
                     kMaxSitOutSeconds, " (HE-68)"));
  }
  if (c.currency().empty()) c.set_currency("EUR");
  if (c.currency().size() != 3) {
    return absl::InvalidArgumentError("config.currency must be ISO 4217");
  }
  if (c.rake_mode() == v1::RAKE_MODE_SETTING_UNSPECIFIED &&
      (c.rake_bps() != 0 || c.rake_cap_minor() != 0)) {
    return absl::InvalidArgumentError(
        "config.rake_bps and rake_cap_minor need a rake_mode");
  }
  RETURN_IF_ERROR(AsInvalidArgument(EngineConfig(c).Validate(), "config: "));
  return c;
}

poker::TableConfig EngineConfig(const v1::PokerTableConfig& c) {
  poker::TableConfig t;
  switch (c.variant()) {
    case v1::POKER_VARIANT_OMAHA:
      t.variant = poker::Variant::kOmaha;
      break;
    case v1::POKER_VARIANT_SYNTHETIC:
      t.variant = poker::Variant::kSynthetic;
      break;
    default:
      t.variant = poker::Variant::kHoldem;
  }
  switch (c.limit()) {
    case v1::BETTING_LIMIT_POT_LIMIT:
      t.limit = poker::Limit::kPotLimit;
      break;
    case v1::BETTING_LIMIT_FIXED_LIMIT:
      t.limit = poker::Limit::kFixedLimit;
      break;
    case v1::BETTING_LIMIT_HALF_POT:
      t.limit = poker::Limit::kHalfPot;
      break;
    default:
      t.limit = poker::Limit::kNoLimit;
  }
  t.seats = c.seats();
  t.small_blind = c.small_blind_minor();
  t.big_blind = c.big_blind_minor();
  t.max_raises_per_round = c.max_raises_per_round();
  t.buy_in_min = c.buy_in_min_minor();
  t.buy_in_max = c.buy_in_max_minor();
  t.rake.mode =
      c.rake_mode() == v1::RAKE_MODE_SETTING_POT      ? poker::RakeMode::kPot
      : c.rake_mode() == v1::RAKE_MODE_SETTING_BUY_IN ? poker::RakeMode::kBuyIn
                                                      : poker::RakeMode::kNone;
  t.rake.bps = c.rake_bps();
  t.rake.cap = c.rake_cap_minor();
  t.heads_up = c.heads_up() == v1::HEADS_UP_BLINDS_SETTING_BUTTON_SMALL_BLIND
                   ? poker::HeadsUpBlinds::kButtonSmallBlind
                   : poker::HeadsUpBlinds::kLiteral;
  t.straddles = !c.no_straddles();
  t.extra_time_seconds = c.extra_time_seconds();
  return t;
}

absl::StatusOr<poker::Action> ActionFromProto(v1::PokerActionType type,
                                              int64_t amount) {
  poker::Action a;
  switch (type) {
    case v1::POKER_ACTION_TYPE_FOLD:
      a.type = poker::ActionType::kFold;
      break;
    case v1::POKER_ACTION_TYPE_CHECK:
      a.type = poker::ActionType::kCheck;
      break;
    case v1::POKER_ACTION_TYPE_CALL:
      a.type = poker::ActionType::kCall;
      break;
    case v1::POKER_ACTION_TYPE_BET:
      a.type = poker::ActionType::kBet;
      break;
    case v1::POKER_ACTION_TYPE_RAISE:
      a.type = poker::ActionType::kRaise;
      break;
    case v1::POKER_ACTION_TYPE_ALL_IN:
      a.type = poker::ActionType::kAllIn;
      break;
    case v1::POKER_ACTION_TYPE_STRADDLE:
      a.type = poker::ActionType::kStraddle;
      break;
    case v1::POKER_ACTION_TYPE_RESTRADDLE:
      a.type = poker::ActionType::kRestraddle;
      break;
    default:
      return absl::InvalidArgumentError(
          "action must be FOLD, CHECK, CALL, BET, RAISE, ALL_IN, STRADDLE or "
          "RESTRADDLE");
  }
  const bool sized =
      a.type == poker::ActionType::kBet || a.type == poker::ActionType::kRaise;
  if (sized && amount <= 0) {
    return absl::InvalidArgumentError(
        "bet and raise need amount_minor: the total bet in the round after it");
  }
  if (!sized && amount != 0) {
    return absl::InvalidArgumentError("amount_minor is only for bet and raise");
  }
  a.amount = amount;
  return a;
}

v1::PokerActionType ActionToProto(poker::ActionType type) {
  switch (type) {
    case poker::ActionType::kFold:
      return v1::POKER_ACTION_TYPE_FOLD;
    case poker::ActionType::kCheck:
      return v1::POKER_ACTION_TYPE_CHECK;
    case poker::ActionType::kCall:
      return v1::POKER_ACTION_TYPE_CALL;
    case poker::ActionType::kBet:
      return v1::POKER_ACTION_TYPE_BET;
    case poker::ActionType::kRaise:
      return v1::POKER_ACTION_TYPE_RAISE;
    case poker::ActionType::kAllIn:
      return v1::POKER_ACTION_TYPE_ALL_IN;
    case poker::ActionType::kStraddle:
      return v1::POKER_ACTION_TYPE_STRADDLE;
    case poker::ActionType::kRestraddle:
      return v1::POKER_ACTION_TYPE_RESTRADDLE;
  }
  return v1::POKER_ACTION_TYPE_UNSPECIFIED;
}

void FillLegalActions(const games::poker::LegalActions& l,
                      v1::LegalActionsView* lv) {
  if (l.can_fold) lv->add_actions(v1::POKER_ACTION_TYPE_FOLD);
  if (l.can_check) lv->add_actions(v1::POKER_ACTION_TYPE_CHECK);
  if (l.can_call) lv->add_actions(v1::POKER_ACTION_TYPE_CALL);
  if (l.can_bet) lv->add_actions(v1::POKER_ACTION_TYPE_BET);
  if (l.can_raise) lv->add_actions(v1::POKER_ACTION_TYPE_RAISE);
  if (l.can_all_in) lv->add_actions(v1::POKER_ACTION_TYPE_ALL_IN);
  lv->set_call_minor(l.call_amount);
  lv->set_min_to_minor(l.min_raise_to);
  lv->set_max_to_minor(l.max_raise_to);
}

}  // namespace banca::tables
