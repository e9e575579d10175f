// A request the wallet can never carry out is quarantined, not retried
// forever (docs/security.md, "Quarantine").
//
// The wallet's readers of banca.table.requests and banca.banked.requests carry
// out each record in log order (table_requests.cc, banked_requests.cc) and
// move their position past it only once its steps are durable. A step that
// fails for good (IsPermanentRequestFailure) would stop the record's
// partition, for every table on it, across restarts; instead the wallet
// appends one RequestQuarantined on the requester's stream under
// QuarantineRequestId (so a restart finds it and repeats nothing), counts
// it in banca_wallet_requests_quarantined_total{topic}, logs one JSON line
// and moves on to the next record. A transient failure keeps the reader at
// the record, which it tries again on its next poll; the other partitions
// go on meanwhile. `banca audit verify` fails while any quarantine is on
// the log.
#ifndef BANCA_SERVICES_WALLET_REQUEST_QUARANTINE_H_
#define BANCA_SERVICES_WALLET_REQUEST_QUARANTINE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "banca/v1/ledger.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/idempotency.h"
#include "libs/ledger/ledger.h"
#include "libs/wire/request_ids.h"
#include "services/wallet/wallet_commands.h"
#include "services/wallet/wallet_metrics.h"

namespace banca::wallet {

class RequestQuarantine {
 public:
  // `metrics` is null when metrics are off; everything outlives this.
  RequestQuarantine(ledger::Ledger& ledger,
                    const ledger::IdempotencyIndex& idempotency,
                    WalletCommands& commands, WalletMetrics* metrics);

  // Whether `record` was quarantined already (it is then not carried out
  // again).
  bool Quarantined(const eventlog::StoredRecord& record) const;
  // `why` stopping `step` of `record`: quarantined on `owner`'s stream if
  // permanent (OK: the reader moves on), else returned (the reader
  // retries).
  absl::Status QuarantineOrRetry(const eventlog::StoredRecord& record,
                                 std::string_view owner, std::string_view step,
                                 const absl::Status& why);
  // A buy-in's hold that a failed step left open, released (OK too when
  // it is closed already).
  absl::Status ReleaseStrandedHold(const eventlog::StoredRecord& record,
                                   std::string_view hold_id);
  // A request record that does not decode (`why`): whether it asked for
  // money nobody can tell, so the reader of kUnnamedRequester's wallet
  // partition (`decided_here`) quarantines it and the others pass it over.
  absl::Status QuarantineUndecodable(const eventlog::StoredRecord& record,
                                     bool decided_here,
                                     const absl::Status& why);

 private:
  ledger::Ledger& ledger_;
  const ledger::IdempotencyIndex& idempotency_;
  WalletCommands& commands_;
  WalletMetrics* const metrics_;
};

// Whether `status` says the request fails the same way however often it
// is tried: INVALID_ARGUMENT, ALREADY_EXISTS (its step's id is taken),
// FAILED_PRECONDITION, OUT_OF_RANGE, NOT_FOUND, DATA_LOSS (the record does
// not decode), PERMISSION_DENIED, UNAUTHENTICATED, UNIMPLEMENTED. Anything
// else is retried: UNAVAILABLE (wallet partitions moving between
// processes), DEADLINE_EXCEEDED, ABORTED, RESOURCE_EXHAUSTED, CANCELLED,
// and INTERNAL or UNKNOWN (a fault of the wallet, not of the request; the
// stall shows in banca_wallet_request_lag_records).
bool IsPermanentRequestFailure(const absl::Status& status);

// INVALID_ARGUMENT unless every account `tx` debits, other than the
// house's and the outside world's, belongs to the same owner as
// `requester` (partition_ownership.h's OwnershipKey: "table/<id>",
// "game/<id>", "player/<id>"): a table's request moves only its own
// table's money, a stake only its own player's cash.
absl::Status CheckDebitsBelongTo(const v1::LedgerTransaction& tx,
                                 std::string_view requester);

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_REQUEST_QUARANTINE_H_
