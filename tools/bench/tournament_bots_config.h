// The tournament the bots play (tournament_bots.h): a scheduled No-Limit
// Hold'em tournament whose every payment (buy-in, rebuy, add-on) costs the
// same, 10 % of it the house's fee (TN-18), so that what each player paid
// follows from their cash; rebuys at or below the starting stack and an
// add-on, both in the first two levels (TN-2a/j); 8 paid places, so that
// the bubble (9 players left, TN-49) is still at two tables of 8; levels
// long enough that only the operator moves them.
#ifndef BANCA_TOOLS_BENCH_TOURNAMENT_BOTS_CONFIG_H_
#define BANCA_TOOLS_BENCH_TOURNAMENT_BOTS_CONFIG_H_

#include <cstdint>

#include "banca/v1/tournament.pb.h"

namespace banca::bench {

inline constexpr int64_t kBotPriceMinor = 1'000;  // each payment, cents
inline constexpr int32_t kBotFeeBps = 1'000;
inline constexpr int64_t kBotStartingChips = 1'500;
inline constexpr int64_t kBotRebuyChips = 1'500;
inline constexpr int64_t kBotAddOnChips = 2'000;
inline constexpr int kBotRebuyMax = 2;
inline constexpr int kBotRebuyUntilLevel = 2;
inline constexpr int kBotAddOnLevel = 2;
inline constexpr int kBotPaidPlaces = 8;
// The most a player can pay: the buy-in, every rebuy and the add-on.
inline constexpr int64_t kBotMostPaidMinor =
    kBotPriceMinor * (1 + kBotRebuyMax + 1);

// For `players` (kBotPaidPlaces + 1 or more, all of them needed to
// start) at tables of `seats_per_table`, a decision's time
// `action_seconds`.
v1::TournamentConfig BotTournamentConfig(int players, int seats_per_table,
                                         int action_seconds);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_TOURNAMENT_BOTS_CONFIG_H_
