// The currency the wallet keeps its ledger in (`banca serve --currency`),
// as its log records it: every AccountOpened and every ledger transaction
// names it. The audit, the reports and the hand exports print amounts in
// it rather than assuming euros.
#ifndef BANCA_SERVICES_AUDIT_WALLET_CURRENCY_H_
#define BANCA_SERVICES_AUDIT_WALLET_CURRENCY_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "banca/v1/ledger.pb.h"
#include "libs/eventlog/event_log.h"

namespace banca::audit {

// The records read from the start of each wallet partition to find a
// currency: a wallet's first events name it (the first account it opens).
inline constexpr int64_t kMaxCurrencyScanRecords = 10'000;

// The currency `event` names: its AccountOpened's, or the first of its
// transactions' ("" when it names none).
std::string CurrencyOf(const v1::WalletEvent& event);

// The currency of the first wallet event that names one, partition by
// partition. NOT_FOUND when none does within kMaxCurrencyScanRecords
// records of each partition (an empty wallet log); the log's errors as
// they are. Records that do not decode are passed over (the audit reports
// them).
absl::StatusOr<std::string> WalletCurrency(eventlog::EventLog& log);

// WalletCurrency, or `fallback` when the log names none.
absl::StatusOr<std::string> WalletCurrencyOr(eventlog::EventLog& log,
                                             const std::string& fallback);

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_WALLET_CURRENCY_H_
