#include "libs/games/rtp_tally.h"

#include <cmath>

#include "libs/common/check.h"

namespace banca::games {

void RtpTally::Add(int64_t staked, int64_t returned) {
  BANCA_CHECK(staked >= 0 && returned >= 0);
  ++rounds_;
  staked_ += staked;
  returned_ += returned;
  staked_sq_ += static_cast<__int128>(staked) * staked;
  returned_sq_ += static_cast<__int128>(returned) * returned;
  cross_ += static_cast<__int128>(staked) * returned;
}

void RtpTally::Merge(const RtpTally& other) {
  rounds_ += other.rounds_;
  staked_ += other.staked_;
  returned_ += other.returned_;
  staked_sq_ += other.staked_sq_;
  returned_sq_ += other.returned_sq_;
  cross_ += other.cross_;
}

double RtpTally::Rtp() const {
  if (staked_ == 0) return 0;
  return static_cast<double>(static_cast<long double>(returned_) /
                             static_cast<long double>(staked_));
}

RtpTally::Interval RtpTally::ConfidenceInterval(double z) const {
  const double rtp = Rtp();
  if (rounds_ < 2 || staked_ == 0) return {rtp, rtp};
  const long double r = rtp;
  // sum (R - r S)^2 = sum R^2 - 2 r sum RS + r^2 sum S^2.
  long double ss = static_cast<long double>(returned_sq_) -
                   2 * r * static_cast<long double>(cross_) +
                   r * r * static_cast<long double>(staked_sq_);
  if (ss < 0) ss = 0;  // rounding when every round returns r * stake
  const long double n = static_cast<long double>(rounds_);
  const long double mean_risked = static_cast<long double>(staked_) / n;
  const long double se = std::sqrt(ss / (n - 1)) / (mean_risked * std::sqrt(n));
  return {static_cast<double>(r - z * se), static_cast<double>(r + z * se)};
}

}  // namespace banca::games
