#include "libs/tables/tournament_config.h"

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/tables/poker_config.h"

namespace banca::tables {
namespace tn = games::tournament;
namespace poker = games::poker;

namespace {

constexpr int32_t kMaxLevelSeconds = 86'400;

std::optional<tn::ChipPurchase> Purchase(const v1::TournamentConfig& c,
                                         bool addon) {
  if (addon ? !c.has_addon() : !c.has_rebuy()) return std::nullopt;
  const v1::ChipPurchaseConfig& p = addon ? c.addon() : c.rebuy();
  return tn::ChipPurchase{p.price_minor(), p.chips(), p.fee_bps(), p.max(),
                          p.until_level()};
}

tn::TournamentKind Kind(v1::TournamentKind kind) {
  switch (kind) {
    case v1::TOURNAMENT_KIND_SIT_AND_GO:
      return tn::TournamentKind::kSitAndGo;
    case v1::TOURNAMENT_KIND_TIMED:
      return tn::TournamentKind::kTimed;
    case v1::TOURNAMENT_KIND_FREEROLL:
      return tn::TournamentKind::kFreeroll;
    case v1::TOURNAMENT_KIND_SATELLITE:
      return tn::TournamentKind::kSatellite;
    default:
      return tn::TournamentKind::kScheduled;
  }
}

}  // namespace

absl::StatusOr<v1::TournamentConfig> NormalizeTournamentConfig(
    const v1::TournamentConfig& in) {
  v1::TournamentConfig c = in;
  if (c.kind() == v1::TOURNAMENT_KIND_UNSPECIFIED) {
    c.set_kind(v1::TOURNAMENT_KIND_SCHEDULED);
  }
  if (!v1::TournamentKind_IsValid(c.kind())) {
    return absl::InvalidArgumentError("kind: not a known kind");
  }
  if (c.variant() == v1::POKER_VARIANT_UNSPECIFIED) {
    c.set_variant(v1::POKER_VARIANT_HOLDEM);
  }
  if (!v1::PokerVariant_IsValid(c.variant()) ||
      !v1::BettingLimit_IsValid(c.limit()) ||
      !v1::HeadsUpBlindsSetting_IsValid(c.heads_up())) {
    return absl::InvalidArgumentError(
        "variant, limit or heads_up: not a known setting");
  }
  if (c.limit() == v1::BETTING_LIMIT_UNSPECIFIED) {
    c.set_limit(c.variant() == v1::POKER_VARIANT_OMAHA
                    ? v1::BETTING_LIMIT_POT_LIMIT
                    : v1::BETTING_LIMIT_NO_LIMIT);
  }
  if (c.seats_per_table() == 0) c.set_seats_per_table(9);
  if (c.starting_chips() == 0) c.set_starting_chips(10'000);
  const bool freeroll = c.kind() == v1::TOURNAMENT_KIND_FREEROLL;
  if (c.fee_bps() == 0 && !freeroll) c.set_fee_bps(1'000);
  if (c.payouts_bps().empty()) c.add_payouts_bps(10'000);
  if (c.min_players() == 0) c.set_min_players(2);
  if (c.max_players() == 0) c.set_max_players(10'000);
  if (c.levels().empty()) {
    v1::TournamentLevel* l = c.add_levels();
    l->set_small_blind(50);
    l->set_big_blind(100);
    l->set_seconds(1'200);
  }
  for (int i = 0; i < c.levels_size(); ++i) {
    if (c.levels(i).seconds() == 0) c.mutable_levels(i)->set_seconds(1'200);
    if (c.levels(i).seconds() < 1 || c.levels(i).seconds() > kMaxLevelSeconds) {
      return absl::InvalidArgumentError(absl::StrCat(
          "levels[", i, "].seconds: must be 1..", kMaxLevelSeconds));
    }
  }
  if (c.action_seconds() == 0) {
    c.set_action_seconds(kDefaultTournamentActionSeconds);
  }
  if (c.action_seconds() < 1 || c.action_seconds() > kMaxActionSeconds) {
    return absl::InvalidArgumentError(
        absl::StrCat("action_seconds: must be 1..", kMaxActionSeconds));
  }
  if ((c.kind() == v1::TOURNAMENT_KIND_FREEROLL ||
       c.kind() == v1::TOURNAMENT_KIND_SATELLITE) &&
      c.ticket_target().empty()) {
    c.set_ticket_target("next");
  }
  RETURN_IF_ERROR(tn::CheckConfig(DirectorConfig(c)));
  return c;
}

tn::TournamentConfig DirectorConfig(const v1::TournamentConfig& c) {
  tn::TournamentConfig t;
  t.kind = Kind(c.kind());
  t.variant = c.variant() == v1::POKER_VARIANT_OMAHA ? poker::Variant::kOmaha
              : c.variant() == v1::POKER_VARIANT_SYNTHETIC
                  ? poker::Variant::kSynthetic
                  : poker::Variant::kHoldem;
  t.limit = c.limit() == v1::BETTING_LIMIT_POT_LIMIT ? poker::Limit::kPotLimit
            : c.limit() == v1::BETTING_LIMIT_FIXED_LIMIT
                ? poker::Limit::kFixedLimit
            : c.limit() == v1::BETTING_LIMIT_HALF_POT ? poker::Limit::kHalfPot
                                                      : poker::Limit::kNoLimit;
  t.heads_up = c.heads_up() == v1::HEADS_UP_BLINDS_SETTING_BUTTON_SMALL_BLIND
                   ? poker::HeadsUpBlinds::kButtonSmallBlind
                   : poker::HeadsUpBlinds::kLiteral;
  t.seats_per_table = c.seats_per_table();
  t.starting_chips = c.starting_chips();
  t.buy_in = c.buy_in_minor();
  t.fee_bps = c.fee_bps();
  t.bounty = c.bounty_minor();
  t.payouts_bps.assign(c.payouts_bps().begin(), c.payouts_bps().end());
  t.guarantee = c.guarantee_minor();
  t.min_players = c.min_players();
  t.max_players = c.max_players();
  for (const v1::TournamentLevel& l : c.levels()) {
    t.levels.push_back(tn::BlindLevel{l.small_blind(), l.big_blind(), 0,
                                      l.seconds() * 1'000'000});
  }
  t.rebuy = Purchase(c, false);
  t.addon = Purchase(c, true);
  if (c.has_reentry()) {
    t.reentry = tn::ReentryRule{c.reentry().max(), c.reentry().until_level()};
  }
  t.late_registration_level = c.late_registration_level();
  if (!c.ticket_target().empty()) t.ticket_target = c.ticket_target();
  return t;
}

}  // namespace banca::tables
