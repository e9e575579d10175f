// Return to player, measured: a tally of simulated rounds and the confidence
// interval of the RTP they estimate. `banca bench rtp` (tools/banca) drives
// each banked game's engine with a fixed strategy and checks that the
// theoretical RTP (docs/rtp.md) lies inside the interval.
//
// The RTP is a ratio of sums, returned / staked, where a round's stake can
// vary (a blackjack double or split), so the interval is the ratio
// estimator's: with d_i = returned_i - rtp * staked_i,
//   standard error = sqrt(sum d_i^2 / (n - 1)) / (mean stake * sqrt(n)).
// Sums are kept exactly in 128-bit integers; only the final statistics are
// floating point (they are statistics, never money).
#ifndef BANCA_LIBS_GAMES_RTP_TALLY_H_
#define BANCA_LIBS_GAMES_RTP_TALLY_H_

#include <cstdint>

namespace banca::games {

// Two-sided 99% normal quantile.
inline constexpr double kZ99 = 2.5758293035489004;

// part / whole as a real number: the only way integer totals (minor units,
// antes, rounds) enter the statistics, which are ratios and never money.
template <typename Int>
constexpr long double RatioOf(Int part, Int whole) {
  return static_cast<long double>(part) / static_cast<long double>(whole);
}

class RtpTally {
 public:
  struct Interval {
    double low = 0;
    double high = 0;
    bool Contains(double x) const { return low <= x && x <= high; }
  };

  // One round: everything the player staked in it and everything paid back
  // (stakes included). Both >= 0 (checked).
  void Add(int64_t staked, int64_t returned);
  void Merge(const RtpTally& other);

  int64_t rounds() const { return rounds_; }
  int64_t staked() const { return static_cast<int64_t>(staked_); }
  int64_t returned() const { return static_cast<int64_t>(returned_); }
  // returned / staked; 0 before any stake.
  double Rtp() const;
  // Rtp() +- z standard errors; [Rtp, Rtp] with fewer than 2 rounds.
  Interval ConfidenceInterval(double z = kZ99) const;

 private:
  int64_t rounds_ = 0;
  __int128 staked_ = 0;
  __int128 returned_ = 0;
  __int128 staked_sq_ = 0;
  __int128 returned_sq_ = 0;
  __int128 cross_ = 0;
};

}  // namespace banca::games

#endif  // BANCA_LIBS_GAMES_RTP_TALLY_H_
