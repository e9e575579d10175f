// What a tournament payment is made of (TN-17, TN-18, TN-20, TN-7p): the
// prize part for the prize pool, the fee (the operator's rake) for the
// house, and, on an entry, the player's bounty.
//
// Rounding: fee = floor(amount × fee_bps / 10,000). The fraction of a cent
// stays in the prize part, so the pool never loses a cent to rounding
// (money::Rounding::kDown, banca's rule for house takes).
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_PAYMENT_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_PAYMENT_H_

#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace banca::games::tournament {

// TN-18: the fee is 2 % to 20 % of a buy-in and of a reentry; rebuys and
// add-ons may carry one in the same range or none.
inline constexpr int32_t kMinFeeBps = 200;
inline constexpr int32_t kMaxFeeBps = 2'000;

enum class PaymentKind {
  kBuyIn,    // the first entry (TN-2n, TN-14)
  kReentry,  // a new entry after elimination (TN-2k)
  kRebuy,    // chips bought back (TN-2j)
  kAddOn,    // chips bought at the end of the rebuy period (TN-2a)
};

std::string_view PaymentKindName(PaymentKind kind);

// A buy-in or a reentry: it makes an entry, carries a bounty and must carry
// a fee.
bool IsEntry(PaymentKind kind);

struct PaymentSplit {
  int64_t prize_part = 0;  // to tournament/<id>/prize_pool
  int64_t fee = 0;         // to house/tournament_fees
  int64_t bounty = 0;      // to tournament/<id>/bounties (entries only)

  // The payment the parts came from.
  int64_t amount() const { return prize_part + fee + bounty; }
  bool operator==(const PaymentSplit&) const = default;
};

// INVALID_ARGUMENT (naming fee_bps) unless fee_bps is in 200..2,000, or
// also 0 for a rebuy or an add-on.
absl::Status CheckFeeBps(PaymentKind kind, int32_t fee_bps);

// Splits `amount` cents (fee included, TN-17) into its parts. `bounty`
// cents of an entry are the player's bounty; rebuys and add-ons carry none.
// The fee is on the whole amount (TN-18: a percentage of the buy-in); the
// bounty comes out of the prize side (TN-7p: it is an elimination prize).
// INVALID_ARGUMENT naming the field: amount or bounty outside
// 0..kMaxAmountMinor, a bad fee_bps, a bounty on a rebuy or add-on, or a
// bounty larger than amount − fee.
absl::StatusOr<PaymentSplit> SplitPayment(PaymentKind kind, int64_t amount,
                                          int32_t fee_bps, int64_t bounty);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_PAYMENT_H_
