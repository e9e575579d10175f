// The wallet's RocksDB projection: balances of every account, each player's
// statement, hold states and totals, rebuilt from the wallet topic alone.
//
// Keys (all printable):
//   bal/<account>                         balance, decimal minor units
//   player/<id>                           "open <CUR>" or "closed <CUR>"
//   stmt/<player>/<occurred_at:016x>/<event_id>/<posting:02d>
//                                          StatementEntry (serialized)
//   hold/<hold_id>                        HoldResponse (serialized)
//   total/<name>                          events, transactions, deposits,
//                                          withdrawals (decimal)
// Every value is a function of the events applied, never of the order in
// which partitions were interleaved, so a rebuild from offset 0 gives the
// same bytes (statement balances come from the balances the ledger recorded
// in each posting).
#ifndef BANCA_LIBS_PROJECTION_WALLET_PROJECTION_H_
#define BANCA_LIBS_PROJECTION_WALLET_PROJECTION_H_

#include <string>
#include <vector>

#include "libs/projection/projection_store.h"
#include "libs/projection/wallet_event_part.h"

namespace banca::projection {

class WalletProjector final : public WalletEventPart {
 public:
  absl::Status ApplyWallet(const eventlog::StoredRecord& record,
                           const wire::DecodedWalletEvent& decoded,
                           Txn& txn) override;
};

std::string BalanceKey(std::string_view account);
std::string StatementPrefix(std::string_view player_id);

// Reads an integer value (0 when absent).
absl::StatusOr<int64_t> ReadInt(const projection::ProjectionStore& store,
                                std::string_view key);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_WALLET_PROJECTION_H_
