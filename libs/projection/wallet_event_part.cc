#include "libs/projection/wallet_event_part.h"

#include "libs/common/status_macros.h"
#include "libs/wire/topics.h"

namespace banca::projection {

std::vector<std::string> WalletEventPart::Topics() const {
  return {std::string(wire::kWalletTopic)};
}

absl::Status WalletEventPart::Apply(const eventlog::StoredRecord& record,
                                    Txn& txn) {
  ASSIGN_OR_RETURN(const wire::DecodedWalletEvent decoded,
                   wire::DecodeWalletRecord(record));
  return ApplyWallet(record, decoded, txn);
}

}  // namespace banca::projection
