#include "services/audit/wallet_currency.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "services/audit/request_audit.h"

namespace banca::audit {

std::string CurrencyOf(const v1::WalletEvent& event) {
  if (event.has_account_opened()) return event.account_opened().currency();
  for (const v1::LedgerTransaction* tx : TransactionsOf(event)) {
    if (!tx->currency().empty()) return tx->currency();
  }
  return "";
}

namespace {

constexpr size_t kReadBatch = 256;

// The first currency named in `partition` ("" none within the bound).
absl::StatusOr<std::string> CurrencyIn(eventlog::EventLog& log,
                                       const std::string& topic,
                                       int partition) {
  int64_t offset = 0;
  for (int64_t read = 0; read < kMaxCurrencyScanRecords;) {
    ASSIGN_OR_RETURN(std::vector<eventlog::StoredRecord> records,
                     log.Read(topic, partition, offset, kReadBatch));
    if (records.empty()) break;
    for (const eventlog::StoredRecord& record : records) {
      offset = record.offset + 1;
      ++read;
      absl::StatusOr<wire::DecodedWalletEvent> decoded =
          wire::DecodeWalletRecord(record);
      if (!decoded.ok()) continue;
      std::string currency = CurrencyOf(decoded->event);
      if (!currency.empty()) return currency;
    }
  }
  return std::string();
}

}  // namespace

absl::StatusOr<std::string> WalletCurrency(eventlog::EventLog& log) {
  const std::string topic(wire::kWalletTopic);
  const int partitions = Partitions(log, topic);
  for (int p = 0; p < partitions; ++p) {
    ASSIGN_OR_RETURN(std::string currency, CurrencyIn(log, topic, p));
    if (!currency.empty()) return currency;
  }
  return absl::NotFoundError(
      absl::StrCat("no event on ", topic, " names the wallet's currency"));
}

absl::StatusOr<std::string> WalletCurrencyOr(eventlog::EventLog& log,
                                             const std::string& fallback) {
  absl::StatusOr<std::string> currency = WalletCurrency(log);
  if (absl::IsNotFound(currency.status())) return fallback;
  return currency;
}

}  // namespace banca::audit
