// A roulette table's settings. French defaults follow the draft's rules
// (RFD-10, -11, -13); American tables start from the same values (the
// digest's decision: RA has no rules past 10) and may override the
// minimum per chance (RA-10) and the maximum.
#ifndef BANCA_LIBS_GAMES_ROULETTE_TABLE_CONFIG_H_
#define BANCA_LIBS_GAMES_ROULETTE_TABLE_CONFIG_H_

#include <array>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "libs/games/roulette/chance.h"
#include "libs/games/roulette/pocket.h"

namespace banca::games::roulette {

// RF-4 / RA-4.
enum class WheelMode : uint8_t {
  kMultiPlayer,  // RF-5: one result for everyone, one betting window
  kIndividual,   // one player's own wheel
};

enum class LaunchMode : uint8_t {
  // RFD-13/14/15: a betting window of at least 30 s that closes when the
  // ball is launched; shared by all players on a multi-player wheel.
  kTimedWindow,
  // RFD-16 (individual wheels only): the player launches the ball after
  // betting; no timer (digest gap 10).
  kPlayerTriggered,
};

// RFD-13: the shortest betting window.
inline constexpr absl::Duration kMinBettingWindow = absl::Seconds(30);
// RFD-27: the replay keeps at least the last three rounds.
inline constexpr int kMinReplayRounds = 3;

struct TableConfig {
  WheelKind wheel = WheelKind::kFrench;
  WheelMode players = WheelMode::kMultiPlayer;
  LaunchMode launch = LaunchMode::kTimedWindow;
  // RFD-10: one minimum, in cents, for every chance.
  int64_t min_bet = 100;
  // RA-10 (American tables only): a chance's own minimum; 0 = min_bet.
  std::array<int64_t, kChanceCount> chance_min{};
  // American tables only: the maximum per number a position covers (the
  // straight-up maximum; a split may take twice it, a dozen 12 times…).
  // 0 = RFD-11, whose ratios are exactly 30 × the numbers covered.
  int64_t max_per_number = 0;
  absl::Duration betting_window = kMinBettingWindow;
  // RF-8: call bets are offered under the operator's specific rules.
  bool call_bets = true;
  // RFD-31: the operator may invite idle players to end the session.
  bool invite_inactive = true;
  // RF-6e: how many past results the display shows.
  int history_size = 20;
  // RFD-27: how many of a player's past rounds the replay keeps.
  int replay_rounds = kMinReplayRounds;
  // Bounds: players at a multi-player wheel, live bets per player.
  int max_players = 500;
  int max_bets_per_player = 100;

  // INVALID_ARGUMENT naming the first bad field.
  absl::Status Validate() const;
  // RFD-10 / RA-10.
  int64_t MinBet(Chance chance) const;
  // RFD-11 (or max_per_number × numbers covered). Valid configs keep it
  // within money::kMaxAmountMinor.
  int64_t MaxBet(Chance chance) const;
};

}  // namespace banca::games::roulette

#endif  // BANCA_LIBS_GAMES_ROULETTE_TABLE_CONFIG_H_
