#include "libs/games/tournament/payment.h"

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/limits.h"
#include "libs/money/money.h"

namespace banca::games::tournament {

std::string_view PaymentKindName(PaymentKind kind) {
  switch (kind) {
    case PaymentKind::kBuyIn:
      return "buy-in";
    case PaymentKind::kReentry:
      return "reentry";
    case PaymentKind::kRebuy:
      return "rebuy";
    case PaymentKind::kAddOn:
      return "add-on";
  }
  return "unknown";
}

bool IsEntry(PaymentKind kind) {
  return kind == PaymentKind::kBuyIn || kind == PaymentKind::kReentry;
}

absl::Status CheckFeeBps(PaymentKind kind, int32_t fee_bps) {
  if (fee_bps >= kMinFeeBps && fee_bps <= kMaxFeeBps) return absl::OkStatus();
  if (fee_bps == 0 && !IsEntry(kind)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("fee_bps: ", fee_bps, " is outside ",
                   IsEntry(kind) ? "" : "0 or ", kMinFeeBps, "..", kMaxFeeBps,
                   " for a ", ToAbsl(PaymentKindName(kind)), " (TN-18)"));
}

absl::StatusOr<PaymentSplit> SplitPayment(PaymentKind kind, int64_t amount,
                                          int32_t fee_bps, int64_t bounty) {
  RETURN_IF_ERROR(CheckAmount("amount", amount));
  RETURN_IF_ERROR(CheckFeeBps(kind, fee_bps));
  RETURN_IF_ERROR(CheckAmount("bounty", bounty));
  if (bounty > 0 && !IsEntry(kind)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bounty: a ", ToAbsl(PaymentKindName(kind)),
                     " carries no bounty, only buy-ins and reentries (TN-7p)"));
  }
  ASSIGN_OR_RETURN(const int64_t fee,
                   money::ApplyBps(amount, fee_bps, money::Rounding::kDown));
  if (bounty > amount - fee) {
    return absl::InvalidArgumentError(
        absl::StrCat("bounty: ", bounty, " cents is more than the ",
                     amount - fee, " cents left of the ",
                     ToAbsl(PaymentKindName(kind)), " after the fee"));
  }
  const PaymentSplit split{amount - fee - bounty, fee, bounty};
  // The parts are the payment, none negative, and the fee is within its
  // rate: the house never takes more than fee_bps of the amount.
  BANCA_CHECK(split.prize_part >= 0 && split.fee >= 0 && split.bounty >= 0);
  BANCA_CHECK(split.amount() == amount);
  BANCA_CHECK(static_cast<__int128>(split.fee) * money::kBpsPerUnit <=
              static_cast<__int128>(amount) * fee_bps);
  return split;
}

}  // namespace banca::games::tournament
