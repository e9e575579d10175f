#include "tools/bench/tournament_bots_config.h"

#include <array>
#include <utility>

namespace banca::bench {
namespace {

// Small and big blinds, rising to where every hand is an all-in.
constexpr std::array<std::pair<int64_t, int64_t>, 20> kBlinds = {{
    {10, 20},         {20, 40},         {30, 60},         {50, 100},
    {75, 150},        {100, 200},       {150, 300},       {200, 400},
    {300, 600},       {500, 1'000},     {800, 1'600},     {1'200, 2'400},
    {2'000, 4'000},   {3'000, 6'000},   {5'000, 10'000},  {8'000, 16'000},
    {12'000, 24'000}, {20'000, 40'000}, {30'000, 60'000}, {50'000, 100'000},
}};
// Only the operator's NextLevel moves the levels.
constexpr int64_t kLevelSeconds = 3'600;
// Of the pool, best place first (sum 10,000).
constexpr std::array<int32_t, kBotPaidPlaces> kPayoutsBps = {
    3'000, 2'000, 1'400, 1'000, 800, 700, 600, 500};

void SetPurchase(v1::ChipPurchaseConfig* p, int64_t chips, int max,
                 int until_level) {
  p->set_price_minor(kBotPriceMinor);
  p->set_chips(chips);
  p->set_fee_bps(kBotFeeBps);
  p->set_max(max);
  p->set_until_level(until_level);
}

}  // namespace

v1::TournamentConfig BotTournamentConfig(int players, int seats_per_table,
                                         int action_seconds) {
  v1::TournamentConfig c;
  c.set_kind(v1::TOURNAMENT_KIND_SCHEDULED);
  c.set_variant(v1::POKER_VARIANT_HOLDEM);
  c.set_limit(v1::BETTING_LIMIT_NO_LIMIT);
  c.set_seats_per_table(seats_per_table);
  c.set_starting_chips(kBotStartingChips);
  c.set_buy_in_minor(kBotPriceMinor);
  c.set_fee_bps(kBotFeeBps);
  for (int32_t bps : kPayoutsBps) c.add_payouts_bps(bps);
  c.set_min_players(players);
  c.set_max_players(players);
  for (const auto& [small, big] : kBlinds) {
    v1::TournamentLevel* l = c.add_levels();
    l->set_small_blind(small);
    l->set_big_blind(big);
    l->set_seconds(kLevelSeconds);
  }
  SetPurchase(c.mutable_rebuy(), kBotRebuyChips, kBotRebuyMax,
              kBotRebuyUntilLevel);
  SetPurchase(c.mutable_addon(), kBotAddOnChips, 1, kBotAddOnLevel);
  c.set_action_seconds(action_seconds);
  return c;
}

}  // namespace banca::bench
