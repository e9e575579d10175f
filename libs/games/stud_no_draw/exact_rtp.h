// The exact return to player of the fixed strategy (strategy.h): every
// player hand against every bank hand from the remaining 47 cards, one
// seat (other seats and the burn card remove cards symmetrically, so they
// change no player's odds). docs/rtp.md gives the figure and the method.
//
// Method: 2,598,960 player hands × 1,533,939 bank hands is too many to
// evaluate pairwise, so each player hand P gets its bank outcome counts by
// inclusion-exclusion over the subsets T of P's cards:
//   #{D disjoint from P : key(D) < x} = Σ_T (-1)^|T| #{D ⊇ T : key(D) < x},
// where key orders hands exactly as the SD rules compare them (SD-7/13,
// SD-9's suit rule for equal high cards). The right-hand counts come from
// sorted key lists per subset of up to four cards (about 160 MB), and
// player hands are taken once per suit-permutation class, weighted.
#ifndef BANCA_LIBS_GAMES_STUD_NO_DRAW_EXACT_RTP_H_
#define BANCA_LIBS_GAMES_STUD_NO_DRAW_EXACT_RTP_H_

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/types/span.h"
#include "libs/cards/card.h"
#include "libs/games/rtp_tally.h"

namespace banca::games::stud_no_draw {

// A total order on five-card hands as the SD rules compare them: equal
// keys are a push, higher wins. Below 2 × 7,462.
uint16_t ComparisonKey(absl::Span<const cards::Card> five);

// How the bank's 1,533,939 possible hands fall against one player hand
// that continues.
struct BankCounts {
  int64_t not_qualified = 0;  // SD-26
  int64_t player_wins = 0;    // SD-28
  int64_t push = 0;           // gap 1
  int64_t bank_wins = 0;      // SD-29
  int64_t total() const {
    return not_qualified + player_wins + push + bank_wins;
  }
  bool operator==(const BankCounts&) const = default;
};

// Totals over every (player hand, bank hand) deal, in units of the ante.
struct ExactRtp {
  int64_t deals = 0;  // C(52,5) × C(47,5)
  int64_t folded = 0;
  int64_t not_qualified = 0;
  int64_t pushed = 0;
  int64_t lost = 0;
  // Won deals by SD-12 multiplier (index = multiplier; 0 unused).
  std::array<int64_t, 101> won_by_multiplier{};
  int64_t staked = 0;    // 1 per fold, 3 (ante + bet) per continue
  int64_t returned = 0;  // stakes included
};

// What Compute() gives (pinned by exact_rtp_test.cc; docs/rtp.md), in
// antes over every deal, and the RTP they make: ≈ 0.973278590.
inline constexpr int64_t kExactStakedAntes = 8'477'099'132'040;
inline constexpr int64_t kExactReturnedAntes = 8'250'579'091'332;
inline constexpr auto kExactRatio =
    games::RatioOf(kExactReturnedAntes, kExactStakedAntes);
inline constexpr double kTheoreticalRtp = static_cast<double>(kExactRatio);

class ExactRtpCalculator {
 public:
  // Builds the per-subset key lists: a few seconds and about 160 MB.
  static std::unique_ptr<ExactRtpCalculator> Build();

  // Bank outcomes against `player` (five distinct cards, unchecked), were
  // the player to continue.
  BankCounts CountsFor(absl::Span<const cards::Card> player) const;
  // The strategy over every deal.
  ExactRtp Compute() const;

 private:
  ExactRtpCalculator() = default;
  int64_t CountBelow(int size, uint32_t subset, uint16_t key) const;

  // lists_[k]: for each k-card subset (colex index), the sorted keys of
  // the hands containing it; C(52 - k, 5 - k) keys each.
  std::array<std::vector<uint16_t>, 5> lists_;
};

}  // namespace banca::games::stud_no_draw

#endif  // BANCA_LIBS_GAMES_STUD_NO_DRAW_EXACT_RTP_H_
