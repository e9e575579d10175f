// `banca audit verify`'s check of the poker tables' money requests
// (banca.table.events) against the wallet, like the banked tables' one
// (banked_audit.h): every record decodes and follows its stream's
// sequence; every money request has exactly one copy, with its content, on
// banca.table.requests (where the wallet reads them; request_audit.h
// RequestCopies), and every copy is of a logged money request; every hand's
// settlement balances, returns its pot to 0 and takes the rake it logs; and
// every request the wallet has read (its readers' committed positions,
// request_audit.h) was carried out exactly once in banca.wallet.events under
// the request ids the wallet derives (services/wallet/table_requests.cc), with
// what was asked:
//   BuyInRequested -> "<saga>/hold" HoldPlaced for the player and the
//     amount paid (or RequestRejected for the player: the buy-in was
//     refused), "<saga>/seat" HoldCaptured of paid - rake into the seat,
//     "<saga>/rake" HoldCaptured of the HE-17b rake into house/rake;
//   HandSettled -> "hand/<hand id>/<i>" the i-th transaction's postings;
//   PlayerLeft with a stack -> "<event id>/cash-out" the cash-out.
// A request's step id held by anything else is a request the wallet can
// never carry out (it would jam its partition, or be quarantined): a
// problem even before the wallet reads it; held by an outcome of the
// step's kind that moves other money (the pot to another seat, another
// cash-out), it was carried out otherwise than asked. Missing, doubled and
// unrequested steps are problems, and so is any money the wallet moved on
// the accounts of a poker table the topic created (table/<id>/...) under
// a request id that is none of its events' steps; quarantined requests are
// reported once, by the wallet topic's check (audit.h); requests the wallet has
// not read yet are counted as pending.
#ifndef BANCA_SERVICES_AUDIT_TABLE_AUDIT_H_
#define BANCA_SERVICES_AUDIT_TABLE_AUDIT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"
#include "services/audit/request_counts.h"

namespace banca::audit {

// carried_out counts a buy-in the wallet refused too (and buy_ins_refused).
struct TableAuditReport : RequestCounts {
  // Requests logged by the tables.
  int64_t buy_ins = 0;
  int64_t settlements = 0;
  int64_t settlement_transactions = 0;
  int64_t cash_outs = 0;
  int64_t buy_ins_refused = 0;
  // The rake the hands logged (and the wallet posted to house/rake), and
  // the HE-17b buy-in rake the wallet captured.
  int64_t hand_rake_minor = 0;
  int64_t buy_in_rake_minor = 0;
};

// Reads both topics from offset 0. An error only when the log cannot be
// read; what is wrong in it goes to `problems`.
absl::StatusOr<TableAuditReport> AuditTableTopic(eventlog::EventLog& log);

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_TABLE_AUDIT_H_
