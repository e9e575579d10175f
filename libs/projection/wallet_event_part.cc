#include "libs/projection/wallet_event_part.h"

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/wire/topics.h"

namespace banca::projection {

std::vector<std::string> WalletEventPart::Topics() const {
  return {std::string(wire::kWalletTopic)};
}

absl::Status WalletEventPart::Apply(const eventlog::StoredRecord& record,
                                    Txn& txn) {
  if (record.topic != wire::kWalletTopic) return ApplyOther(record, txn);
  ASSIGN_OR_RETURN(const wire::DecodedWalletEvent decoded,
                   wire::DecodeWalletRecord(record));
  return ApplyWallet(record, decoded, txn);
}

absl::Status WalletEventPart::ApplyOther(const eventlog::StoredRecord& record,
                                         Txn&) {
  return absl::InternalError(
      absl::StrCat("a wallet part was given a record of ", record.topic));
}

}  // namespace banca::projection
