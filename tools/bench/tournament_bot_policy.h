// What a tournament bot does on its turn (tools/bench/tournament_bots.h):
// a loose player that limps, goes all in now and then and calls all-ins
// a third of the time, so that some hands end in multi-way all-ins and
// several players go out in one hand (TN-50/51); near the paid places (the
// bubble) a passive one that only limps, checks and folds, so that players
// go out only when a blind puts them all in (one or two at a time) and the
// bubble (one player more than the paid places) lasts some hands, played
// hand-for-hand (TN-49). Only fold, check, call and all-in: one of them is
// legal whatever the stack, so a bot's decision is never refused by the
// engine.
#ifndef BANCA_TOOLS_BENCH_TOURNAMENT_BOT_POLICY_H_
#define BANCA_TOOLS_BENCH_TOURNAMENT_BOT_POLICY_H_

#include <cstdint>

#include "banca/v1/tournament.pb.h"

namespace banca::bench {

enum class BotMood {
  kLoose,   // far from the money, or in it
  kBubble,  // a few players more than the paid places are left
};

// The mood for `players_left` with `paid_places`: kBubble from
// paid_places + kBubbleMargin players left down to paid_places + 1.
// Far enough that no hand of loose play (at most 7 out at a table of 8)
// can take the field from above the margin past the bubble.
inline constexpr int kBubbleMargin = 5;
BotMood MoodFor(int players_left, int paid_places);

struct BotDecision {
  v1::PokerActionType action = v1::POKER_ACTION_TYPE_UNSPECIFIED;
  bool operator==(const BotDecision&) const = default;
};

// The decision on `view` (the bot's own, with its legal actions: its
// turn) for a `roll` in 0..99 (the bot's own random draw). Never FOLD
// when CHECK is legal.
BotDecision DecideTournamentAction(const v1::TournamentTableView& view,
                                   BotMood mood, uint32_t roll);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_TOURNAMENT_BOT_POLICY_H_
