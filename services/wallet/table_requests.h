// The wallet's side of the table service's money requests (DESIGN "Ledger":
// cross-service money goes through the log as request/outcome events).
//
// The wallet reads banca.table.requests — the tables' copies of their money
// requests, never the table events themselves (no card, no action: docs/
// security.md, "Money requests") — and carries out, in log order:
//   BuyInRequested -> PlaceHold "<saga>/hold" on the player's cash, then
//     CaptureHold "<saga>/seat" into table/<id>/seat/<player> and, for the
//     HE-17b buy-in rake, CaptureHold "<saga>/rake" into house/rake; a hold
//     the ledger refuses is recorded as RequestRejected "<saga>/hold";
//   HandSettled -> each transaction, request id "hand/<hand id>/<i>";
//   PlayerLeft -> the stack seat -> cash, "<event id>/cash-out".
// Exactly once by deduplication: every step has a request id derived from
// the table event, the idempotency index (rebuilt from the wallet's own log
// at start) turns a repeat into a no-op, and the read position is committed
// only after the steps are durable. A crash in between repeats steps, never
// applies one twice.
//
// No request jams a partition: one that fails for good (a step's id taken,
// a seat that holds too little, a record that does not decode) is
// quarantined once and the reader moves on (request_quarantine.h); a
// buy-in refused after its hold releases the hold. Only a transient
// failure holds a partition at its record, and only that partition.
#ifndef BANCA_SERVICES_WALLET_TABLE_REQUESTS_H_
#define BANCA_SERVICES_WALLET_TABLE_REQUESTS_H_

#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "banca/v1/table.pb.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/ledger.h"
#include "services/wallet/request_quarantine.h"
#include "services/wallet/wallet_commands.h"

namespace banca::wallet {

class TableRequests {
 public:
  // `partitions`: the wallet topic's, which place each request's deciding
  // owner; a buy-in's hold lives `hold_ttl_seconds`. Everything outlives
  // this.
  TableRequests(ledger::Ledger& ledger, WalletCommands& commands,
                RequestQuarantine& quarantine, const Clock& clock,
                int partitions, int32_t hold_ttl_seconds);

  // Carries out one record of banca.table.requests if its deciding owner
  // is on `wallet_partition` (RequestReader::CarryOut).
  absl::Status CarryOut(const eventlog::StoredRecord& record,
                        int wallet_partition);

 private:
  absl::Status CarryOutBuyIn(const eventlog::StoredRecord& record,
                             const v1::TableEvent& event, int wallet_partition);
  absl::Status CarryOutHandSettled(const eventlog::StoredRecord& record,
                                   const v1::TableEvent& event,
                                   int wallet_partition);
  absl::Status CarryOutCashOut(const eventlog::StoredRecord& record,
                               const v1::TableEvent& event,
                               std::string_view event_id, int wallet_partition);
  bool DecidedHere(std::string_view owner, int wallet_partition) const;

  ledger::Ledger& ledger_;
  WalletCommands& commands_;
  RequestQuarantine& quarantine_;
  const Clock& clock_;
  const int partitions_;
  const int32_t hold_ttl_seconds_;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_TABLE_REQUESTS_H_
