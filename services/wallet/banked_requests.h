// The wallet's side of the banked tables' money: the wallet reads
// banca.banked.requests and, in log order,
//   StakeRequested -> posts its stake transaction (player cash ->
//     game/<table>/wagers) under request id "<saga>/stake"; a stake the
//     ledger refuses (not enough cash, no account) is recorded as
//     RequestRejected under the same id, so the table learns the outcome;
//   BankedMoney -> posts each transaction (settlements, withdrawals, void
//     refunds, pay-backs) under "<event id>/<i>".
// Exactly once by deduplication, as for the poker tables
// (table_requests.cc): the request ids derive from the table's events, the
// idempotency index turns a repeat into a no-op, and the read position
// (wallet.banked-requests) moves only once the steps are durable. A
// request that can never be carried out is quarantined, not retried
// forever (request_quarantine.h).
#ifndef BANCA_SERVICES_WALLET_BANKED_REQUESTS_H_
#define BANCA_SERVICES_WALLET_BANKED_REQUESTS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "banca/v1/banked_table.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/ledger.h"
#include "services/wallet/request_quarantine.h"
#include "services/wallet/wallet_commands.h"

namespace banca::wallet {

class BankedRequests {
 public:
  // `partitions`: the wallet topic's, which place each request's deciding
  // owner. Everything outlives this.
  BankedRequests(ledger::Ledger& ledger, WalletCommands& commands,
                 RequestQuarantine& quarantine, int partitions);

  // Carries out one record of banca.banked.requests if its deciding owner
  // is on `wallet_partition` (RequestReader::CarryOut).
  absl::Status CarryOut(const eventlog::StoredRecord& record,
                        int wallet_partition);

 private:
  absl::Status CarryOutStake(const eventlog::StoredRecord& record,
                             const v1::StakeRequested& r, int wallet_partition);
  absl::Status CarryOutMoney(const eventlog::StoredRecord& record,
                             const v1::BankedTableEvent& event,
                             const std::string& event_id, int wallet_partition);
  bool DecidedHere(std::string_view owner, int wallet_partition) const;

  ledger::Ledger& ledger_;
  WalletCommands& commands_;
  RequestQuarantine& quarantine_;
  const int partitions_;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_BANKED_REQUESTS_H_
