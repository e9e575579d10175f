#include "libs/games/tournament/entry.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/limits.h"

namespace banca::games::tournament {
namespace {

absl::Status CheckPayment(const std::string& field, const Payment& p,
                          bool first) {
  RETURN_IF_ERROR(CheckAmount(field + ".prize_part", p.split.prize_part));
  RETURN_IF_ERROR(CheckAmount(field + ".fee", p.split.fee));
  RETURN_IF_ERROR(CheckAmount(field + ".bounty", p.split.bounty));
  if (IsEntry(p.kind) != first) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ".kind: a ", ToAbsl(PaymentKindName(p.kind)),
        first ? " cannot open an entry" : " must open an entry of its own"));
  }
  if (!first && p.split.bounty != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".bounty: only an entry carries a bounty"));
  }
  if (!first && p.source != Source::kCash) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".source: only an entry can be paid by ticket"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckEntryPayments(size_t index, const Entry& entry) {
  const std::string field = absl::StrCat("entries[", index, "]");
  RETURN_IF_ERROR(CheckPlayerId(field + ".player", entry.player));
  RETURN_IF_ERROR(CheckCount(field + ".payments", entry.payments.size(),
                             kMaxPaymentsPerEntry));
  for (size_t i = 0; i < entry.payments.size(); ++i) {
    RETURN_IF_ERROR(CheckPayment(absl::StrCat(field, ".payments[", i, "]"),
                                 entry.payments[i], i == 0));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> CheckPaymentsAndTotal(absl::Span<const Entry> entries) {
  RETURN_IF_ERROR(CheckCount("entries", entries.size(), kMaxEntries));
  // ≤ kMaxEntries × kMaxPaymentsPerEntry × 3 × kMaxAmountMinor < 2^127.
  __int128 total = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    RETURN_IF_ERROR(CheckEntryPayments(i, entries[i]));
    for (const Payment& p : entries[i].payments) {
      total += static_cast<__int128>(p.split.prize_part) + p.split.fee +
               p.split.bounty;
    }
  }
  if (total > kMaxAmountMinor) {
    return absl::InvalidArgumentError(absl::StrCat(
        "entries: the payments sum past ", kMaxAmountMinor, " cents"));
  }
  return static_cast<int64_t>(total);
}

}  // namespace banca::games::tournament
