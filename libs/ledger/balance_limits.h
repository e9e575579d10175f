// How large a balance may grow, and the arithmetic the ledger moves balances
// with.
//
// The cap. Every decision keeps every balance it touches within
// ±kMaxBalanceMinor (constrained accounts: 0..kMaxBalanceMinor), far below
// INT64_MAX (≈ 9.2 × 10^18): a hot account is kept as stripes, and each
// stripe within ±kMaxBalanceMinor / stripes, so the account's total (the sum
// of its stripes) stays within the cap without any stripe looking at another.
//
// Replay. The log holds the events of one stream in the order they were
// decided, but a reader that goes through the partitions one after the other
// (WalletService::Replay, the audit) sees events of different streams in
// another order. Money that flows through an account in both directions
// stays small live, yet read out of order it can pass int64 on the way. So
// recorded postings are applied with wrap-around (two's-complement) addition,
// which commutes: whatever the order, the final balance is exact whenever the
// true final value fits in int64. After a full replay the ledger checks that
// every balance is within the cap and the sum is 0
// (Ledger::CheckReplayedState): a history the live ledger decided always
// passes, since a true final value within the cap is exactly what the
// decisions kept, and no live history moves enough money (postings are at
// most money::kMaxAmountMinor) for a wrapped value to look in range.
#ifndef BANCA_LIBS_LEDGER_BALANCE_LIMITS_H_
#define BANCA_LIBS_LEDGER_BALANCE_LIMITS_H_

#include <cstdint>
#include <limits>

namespace banca::ledger {

// 10^17 minor units (10^15 euros): a hundred times the largest single
// amount (money::kMaxAmountMinor, 10^15) and ~92 times below INT64_MAX.
inline constexpr int64_t kMaxBalanceMinor = 100'000'000'000'000'000;

// The bound on one stripe of a hot account kept as `stripes` stripes.
constexpr int64_t StripeLimitMinor(int stripes) {
  return stripes <= 1 ? kMaxBalanceMinor : kMaxBalanceMinor / stripes;
}

// a + b modulo 2^64, as a two's-complement int64 (well defined in C++20).
constexpr int64_t WrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}

// `value` if it fits in int64, else the nearest int64 (and *clamped = true).
constexpr int64_t ClampToInt64(__int128 value, bool* clamped) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  if (value > kMax) {
    *clamped = true;
    return kMax;
  }
  if (value < kMin) {
    *clamped = true;
    return kMin;
  }
  return static_cast<int64_t>(value);
}

}  // namespace banca::ledger

#endif  // BANCA_LIBS_LEDGER_BALANCE_LIMITS_H_
