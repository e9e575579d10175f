#include "libs/tables/blackjack_wire.h"

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/wire/table_codec.h"

namespace banca::tables {
namespace bj = games::blackjack;

absl::StatusOr<v1::BlackjackTableConfig> NormalizeBlackjackConfig(
    const v1::BlackjackTableConfig& in) {
  v1::BlackjackTableConfig c = in;
  const bj::TableSettings defaults;
  if (c.seats() == 0) c.set_seats(defaults.seats);
  if (c.min_bet_minor() == 0) c.set_min_bet_minor(defaults.min_bet);
  if (c.max_bet_minor() == 0) c.set_max_bet_minor(defaults.max_bet);
  if (c.decks() == 0) c.set_decks(defaults.decks);
  if (c.decision_seconds() == 0)
    c.set_decision_seconds(kDefaultDecisionSeconds);
  if (c.betting_seconds() == 0) {
    c.set_betting_seconds(kDefaultBlackjackBettingSeconds);
  }
  for (auto [name, value] :
       {std::pair{"decision_seconds", c.decision_seconds()},
        std::pair{"betting_seconds", c.betting_seconds()}}) {
    if (value < 1 || value > kMaxTimerSeconds) {
      return absl::InvalidArgumentError(
          absl::StrCat("blackjack.", name, " must be 1..", kMaxTimerSeconds));
    }
  }
  if (c.currency().empty()) c.set_currency("EUR");
  if (c.currency().size() != 3) {
    return absl::InvalidArgumentError("blackjack.currency must be ISO 4217");
  }
  RETURN_IF_ERROR(
      AsInvalidArgument(BlackjackSettings(c).Validate(), "blackjack: "));
  return c;
}

bj::TableSettings BlackjackSettings(const v1::BlackjackTableConfig& c) {
  bj::TableSettings t;
  t.seats = c.seats();
  t.min_bet = c.min_bet_minor();
  t.max_bet = c.max_bet_minor();
  t.decks = c.decks();
  t.dealer_hits_soft_17 = c.dealer_hits_soft_17();
  t.surrender = c.surrender() ? bj::Surrender::kLate : bj::Surrender::kNone;
  t.insurance = !c.no_insurance();
  return t;
}

absl::StatusOr<bj::ActionType> BlackjackActionFromProto(
    v1::BlackjackActionType type) {
  switch (type) {
    case v1::BLACKJACK_ACTION_TYPE_HIT:
      return bj::ActionType::kHit;
    case v1::BLACKJACK_ACTION_TYPE_STAND:
      return bj::ActionType::kStand;
    case v1::BLACKJACK_ACTION_TYPE_DOUBLE:
      return bj::ActionType::kDouble;
    case v1::BLACKJACK_ACTION_TYPE_SPLIT:
      return bj::ActionType::kSplit;
    case v1::BLACKJACK_ACTION_TYPE_SURRENDER:
      return bj::ActionType::kSurrender;
    case v1::BLACKJACK_ACTION_TYPE_INSURANCE:
      return bj::ActionType::kInsurance;
    default:
      return absl::InvalidArgumentError(
          "action must be HIT, STAND, DOUBLE, SPLIT, SURRENDER or INSURANCE");
  }
}

v1::BlackjackActionType BlackjackActionToProto(bj::ActionType type) {
  switch (type) {
    case bj::ActionType::kHit:
      return v1::BLACKJACK_ACTION_TYPE_HIT;
    case bj::ActionType::kStand:
      return v1::BLACKJACK_ACTION_TYPE_STAND;
    case bj::ActionType::kDouble:
      return v1::BLACKJACK_ACTION_TYPE_DOUBLE;
    case bj::ActionType::kSplit:
      return v1::BLACKJACK_ACTION_TYPE_SPLIT;
    case bj::ActionType::kSurrender:
      return v1::BLACKJACK_ACTION_TYPE_SURRENDER;
    case bj::ActionType::kInsurance:
      return v1::BLACKJACK_ACTION_TYPE_INSURANCE;
  }
  return v1::BLACKJACK_ACTION_TYPE_UNSPECIFIED;
}

v1::BlackjackHandView HandToProto(const bj::PlayerHand& h) {
  v1::BlackjackHandView out;
  out.set_number(h.number);
  for (const std::string& c : wire::CardsToStrings(h.cards)) out.add_cards(c);
  out.set_stake_minor(h.stake);
  out.set_double_stake_minor(h.double_stake);
  out.set_total(h.total.value);
  out.set_soft(h.total.soft);
  out.set_blackjack(h.blackjack);
  out.set_bust(h.bust);
  out.set_stood(h.stood);
  out.set_surrendered(h.surrendered);
  return out;
}

v1::BlackjackLegalView LegalToProto(const bj::LegalActions& l) {
  v1::BlackjackLegalView out;
  if (l.insurance) out.add_actions(v1::BLACKJACK_ACTION_TYPE_INSURANCE);
  if (l.can_hit) out.add_actions(v1::BLACKJACK_ACTION_TYPE_HIT);
  if (l.can_stand) out.add_actions(v1::BLACKJACK_ACTION_TYPE_STAND);
  if (l.can_double) out.add_actions(v1::BLACKJACK_ACTION_TYPE_DOUBLE);
  if (l.can_split) out.add_actions(v1::BLACKJACK_ACTION_TYPE_SPLIT);
  if (l.can_surrender) out.add_actions(v1::BLACKJACK_ACTION_TYPE_SURRENDER);
  out.set_max_insurance_minor(l.max_insurance);
  out.set_double_minor(l.double_amount);
  out.set_split_minor(l.split_amount);
  return out;
}

}  // namespace banca::tables
