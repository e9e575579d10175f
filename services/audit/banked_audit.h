// `banca audit verify`'s check of banca.banked.events against the wallet:
// every banked record decodes and follows its stream's sequence; every
// money request has exactly one copy, with its content, on
// banca.banked.requests, where the wallet reads them (request_audit.h
// RequestCopies), and every copy is of a logged money request; every
// transaction a table logs (a stake, a round's settlement, a withdrawal, a
// void refund, a pay-back) balances to zero; and every one of them the
// wallet has read (its committed position, wallet.banked-requests) was
// carried out exactly once in banca.wallet.events, matched by the request
// ids the wallet derives (libs/wire/request_ids.h). Missing,
// doubled and unrequested postings are problems, and so is a request id
// held by anything but the request's outcome (the wallet can never carry
// that request out); quarantined requests are reported once, by the
// wallet topic's check (audit.h); requests the wallet has not read yet
// are counted as pending. In group mode each wallet partition's reader
// has its own position (request_audit.h).
//
// And the auditor's question about the stakes themselves: every stake the
// wallet captured is ended exactly once by the table, settled (paid or
// lost), refunded (void, withdrawn) or paid back, by a transaction on the
// same round and bet for the same amount. Which round a table is at comes
// from replaying its events through the game's own state (as the service
// does on start), so a stake of a round still taking bets or in play at
// the end of the log is open, not a problem; a stake of a finished round
// left without its ending, and an ending without a captured stake or a
// second one, are problems.
#ifndef BANCA_SERVICES_AUDIT_BANKED_AUDIT_H_
#define BANCA_SERVICES_AUDIT_BANKED_AUDIT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"
#include "services/audit/request_counts.h"

namespace banca::audit {

// carried_out counts a request posted, or for a stake refused with
// RequestRejected.
struct BankedAuditReport : RequestCounts {
  // Stakes requested, and money transactions (settlements, withdrawals,
  // void refunds, pay-backs) logged by the tables.
  int64_t stakes = 0;
  int64_t transactions = 0;
  // Stakes the wallet captured: ended once by the table; not ended yet
  // because their round is still open (or the table has not read the
  // capture yet).
  int64_t stakes_ended = 0;
  int64_t stakes_open = 0;
  // The rounds ("<table>.r<n>") holding open stakes.
  std::vector<std::string> open_rounds;
};

// Reads both topics from offset 0. An error only when the log cannot be
// read; what is wrong in it goes to `problems`.
absl::StatusOr<BankedAuditReport> AuditBankedTopic(eventlog::EventLog& log);

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_BANKED_AUDIT_H_
