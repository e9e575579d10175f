// A póquer sem descarte table's settings (Reg. n.º 803/2015): seats, ante
// limits and the decision timers the operator fixes. The engine has no
// clock: times here are durations, and the service passes "now" in.
#ifndef BANCA_LIBS_GAMES_STUD_NO_DRAW_CONFIG_H_
#define BANCA_LIBS_GAMES_STUD_NO_DRAW_CONFIG_H_

#include <cstdint>

#include "absl/status/status.h"

namespace banca::games::stud_no_draw {

// SD-6a: a table of one to seven seats.
inline constexpr int kMaxSeats = 7;
// SD-18 (gap 7): the maximum ante is at most 25 times the minimum.
inline constexpr int64_t kMaxAnteMultiple = 25;
// SD-2f / SD-23: the second bet is double the ante.
inline constexpr int64_t kBetPerAnte = 2;
// A bound on every duration, so deadlines never overflow: one day.
inline constexpr int64_t kMaxDurationMs = 24 * 3600 * 1000;

struct TableConfig {
  int seats = 7;            // SD-6a: 1..7; 1 is an individual table (SD-4).
  int64_t min_ante = 100;   // SD-16/17, cents.
  int64_t max_ante = 2500;  // SD-16/18, cents; ≤ 25 × min_ante.
  // SD-21: the time to fold or continue, from the deal.
  int64_t decision_ms = 30'000;
  // SD-31: the supplementary time granted with the pre-warning; mandatory
  // here (digest gap 11), so it must be positive.
  int64_t extra_ms = 15'000;
  // SD-41a: an individual table invites the player to end the session
  // after more than this long without a bet; SD-42a: the session ends if
  // no bet follows within session_grace_ms more.
  int64_t idle_invite_ms = 180'000;
  int64_t session_grace_ms = 60'000;
  // SD-41b: a multi-player table invites after more than this many
  // consecutive rounds without a bet; SD-42b: ends after one more.
  int idle_invite_rounds = 5;

  bool individual() const { return seats == 1; }
  // INVALID_ARGUMENT naming the field and the rule it breaks.
  absl::Status Validate() const;
};

}  // namespace banca::games::stud_no_draw

#endif  // BANCA_LIBS_GAMES_STUD_NO_DRAW_CONFIG_H_
