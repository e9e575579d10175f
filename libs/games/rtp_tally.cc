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

namespace {

// An exact integer sum as a real number, for the statistics only.
long double Real(__int128 v) { return static_cast<long double>(v); }

}  // namespace

double RtpTally::Rtp() const {
  if (staked_ == 0) return 0;
  const auto ratio = RatioOf(returned_, staked_);
  return static_cast<double>(ratio);
}

RtpTally::Interval RtpTally::ConfidenceInterval(double z) const {
  const double rtp = Rtp();
  if (rounds_ < 2 || staked_ == 0) return {rtp, rtp};
  const long double r = rtp;
  // sum (R - r S)^2 = sum R^2 - 2 r sum RS + r^2 sum S^2.
  const auto sum_r2 = Real(returned_sq_);
  const auto sum_rs = Real(cross_);
  const auto sum_s2 = Real(staked_sq_);
  auto ss = sum_r2 - 2 * r * sum_rs + r * r * sum_s2;
  if (ss < 0) ss = 0;  // rounding when every round returns r * stake
  const long double n = Real(rounds_);
  // The mean of the per-round denominators of the ratio estimator.
  const auto mean_weight = RatioOf(staked_, __int128{rounds_});
  const long double se = std::sqrt(ss / (n - 1)) / (mean_weight * std::sqrt(n));
  return {static_cast<double>(r - z * se), static_cast<double>(r + z * se)};
}

}  // namespace banca::games
