// A tournament's configuration (Reg. 810/2015, TN-7: every format is a
// setting of one director, not a separate code path) and the check that
// refuses a bad one before anything is paid. The keys follow SCENARIOS.md
// "Tournament scenarios"; amounts are cents, stacks and blinds are chips.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_CONFIG_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_CONFIG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "libs/games/poker/table_config.h"
#include "libs/games/tournament/blind_levels.h"

namespace banca::games::tournament {

enum class TournamentKind {
  kScheduled,  // TN-2t: a fixed start, reduced to a final table
  kSitAndGo,   // TN-2r: no reentry, rebuy or add-on
  kTimed,      // TN-2o, TN-52: ends after the last level and one orbit
  kFreeroll,   // TN-2s: free entry; prizes are entries (tickets), no cash
  kSatellite,  // TN-7c: prizes are entries to a target tournament
};

std::string_view TournamentKindName(TournamentKind kind);

// A rebuy (TN-2j) or an add-on (TN-2a).
struct ChipPurchase {
  int64_t price = 0;    // cents, fee included, 1..kMaxAmountMinor
  int64_t chips = 0;    // 1..kMaxChips
  int32_t fee_bps = 0;  // 0 or 200..2,000 (TN-18)
  int max = 1;          // per entry, 1..kMaxPaymentsPerEntry − 1
  int until_level = 1;  // the last level (1-based) it may be bought in
};

// A reentry (TN-2k): the buy-in's price and fee, a new entry.
struct ReentryRule {
  int max = 1;          // reentries per player, 1..kMaxPaymentsPerEntry
  int until_level = 1;  // the last level (1-based) one may be made in
};

struct TournamentConfig {
  TournamentKind kind = TournamentKind::kScheduled;
  // The poker played at every table (TN-3, TN-7b/f/g). No rake: the fee
  // is the house's take (TN-2d).
  poker::Variant variant = poker::Variant::kHoldem;
  poker::Limit limit = poker::Limit::kNoLimit;
  poker::HeadsUpBlinds heads_up = poker::HeadsUpBlinds::kLiteral;
  int seats_per_table = 9;           // TN-6: 2..10
  int64_t starting_chips = 10'000;   // TN-41: the same for everyone
  int64_t buy_in = 0;                // cents, fee and bounty included
  int32_t fee_bps = 1'000;           // TN-18: 200..2,000 (0 at a freeroll)
  int64_t bounty = 0;                // cents of each entry (TN-7p)
  std::vector<int32_t> payouts_bps;  // per place, best first, sum 10,000
  int64_t guarantee = 0;             // TN-7m: cents, 0 = none
  int min_players = 2;               // TN-7h
  int max_players = 10'000;          // TN-7i
  std::vector<BlindLevel> levels;    // TN-45/46
  std::optional<ChipPurchase> rebuy;
  std::optional<ChipPurchase> addon;
  std::optional<ReentryRule> reentry;
  // TN-7n, TN-23: the last level (1-based) in which one may still
  // register; 0 = none after the start.
  int late_registration_level = 0;
  // Satellites and freerolls: the tournament whose entries the prizes are
  // (tickets held in tournament/<target>/tickets/<player>).
  std::string ticket_target = "next";

  // The prizes are entries (tickets), never cash (TN-2s, TN-7c, TN-30).
  bool PaysTickets() const {
    return kind == TournamentKind::kFreeroll ||
           kind == TournamentKind::kSatellite;
  }
};

// INVALID_ARGUMENT naming the field unless: seats_per_table 2..10 (TN-6),
// starting_chips 1..kMaxChips, a buy-in in 1..kMaxAmountMinor with
// fee_bps 200..2,000 (0 and 0 at a freeroll, TN-15), a bounty the buy-in
// can carry, payouts_bps as prize_structure.h (and no more places than
// max_players), guarantee 0..kMaxAmountMinor (> 0 at a freeroll: its
// prizes are the house's), 2 <= min_players <= max_players <=
// kMaxEntries, a blind schedule (blind_levels.h), windows within the
// schedule, no rebuy, add-on or reentry at a sit and go (TN-2r), rebuys
// and add-ons within their limits, a valid ticket_target.
absl::Status CheckConfig(const TournamentConfig& config);

// The table settings of a hand at `level` (0-based): the tournament's game
// and the level's blinds, no rake.
poker::TableConfig TableConfigAt(const TournamentConfig& config, int level);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_CONFIG_H_
