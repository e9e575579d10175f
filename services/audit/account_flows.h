// What moved an account over the whole log, so that a report reconciles a
// balance by its flows instead of assuming that only the movements it
// reports touch it: the movements the report counts (the rake postings
// into house/rake, a tournament's into house/tournament_fees), and every
// other, by reason: an operator's adjustment, a compensated buy-in's rake
// given back (HE-17b), ... Each is legitimate and shown; only sums that do
// not add up are problems (ggr_report.h).
#ifndef BANCA_SERVICES_AUDIT_ACCOUNT_FLOWS_H_
#define BANCA_SERVICES_AUDIT_ACCOUNT_FLOWS_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "banca/v1/ledger.pb.h"

namespace banca::audit {

// The movements of one reason.
struct FlowLine {
  v1::PostingReason reason = v1::POSTING_REASON_UNSPECIFIED;
  int64_t transactions = 0;
  int64_t in = 0;   // credits
  int64_t out = 0;  // debits, as a positive amount
};

struct AccountFlows {
  std::string account;
  // What the report counts ("rake", "tournaments"), and their net.
  std::string counted_as;
  int64_t counted = 0;
  // Every other movement, by reason (in the enum's order), and their net.
  std::vector<FlowLine> others;
  int64_t others_net = 0;
  // What the replayed ledger holds: counted + others_net when the log adds
  // up.
  int64_t balance = 0;
};

class AccountFlowTally {
 public:
  // Whether the report counts `tx`'s movements of the account.
  using Counts = bool (*)(const v1::LedgerTransaction& tx);

  AccountFlowTally(std::string account, std::string counted_as, Counts counts)
      : account_(std::move(account)),
        counted_as_(std::move(counted_as)),
        counts_(counts) {}

  const std::string& account() const { return account_; }

  // Counts `tx`'s postings to the account (none: nothing). OUT_OF_RANGE
  // when a sum would overflow (the tally is then unchanged).
  absl::Status Add(const v1::LedgerTransaction& tx);

  // The flows, with the `balance` the ledger holds. OUT_OF_RANGE when a
  // net overflows.
  absl::StatusOr<AccountFlows> Flows(int64_t balance) const;

 private:
  const std::string account_;
  const std::string counted_as_;
  const Counts counts_;
  int64_t counted_ = 0;
  // By reason; a reason this build has no name for counts as UNSPECIFIED,
  // so the map holds at most one line per known reason.
  std::map<int, FlowLine> others_;
};

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_ACCOUNT_FLOWS_H_
