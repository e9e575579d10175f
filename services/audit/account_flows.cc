#include "services/audit/account_flows.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/money/money.h"

namespace banca::audit {

absl::Status AccountFlowTally::Add(const v1::LedgerTransaction& tx) {
  int64_t moved = 0;
  for (const v1::Posting& p : tx.postings()) {
    if (p.account() != account_) continue;
    ASSIGN_OR_RETURN(moved, money::Add(moved, p.amount_minor()));
  }
  if (moved == 0) return absl::OkStatus();
  if (counts_(tx)) {
    ASSIGN_OR_RETURN(counted_, money::Add(counted_, moved));
    return absl::OkStatus();
  }
  const v1::PostingReason reason = v1::PostingReason_IsValid(tx.reason())
                                       ? tx.reason()
                                       : v1::POSTING_REASON_UNSPECIFIED;
  auto it = others_.find(reason);
  // A copy: the tally is unchanged when a sum overflows.
  FlowLine line = it == others_.end() ? FlowLine{} : it->second;
  line.reason = reason;
  ++line.transactions;
  if (moved > 0) {
    ASSIGN_OR_RETURN(line.in, money::Add(line.in, moved));
  } else {
    ASSIGN_OR_RETURN(line.out, money::Sub(line.out, moved));
  }
  others_[reason] = line;
  return absl::OkStatus();
}

absl::StatusOr<AccountFlows> AccountFlowTally::Flows(int64_t balance) const {
  AccountFlows flows;
  flows.account = account_;
  flows.counted_as = counted_as_;
  flows.counted = counted_;
  flows.balance = balance;
  for (const auto& [reason, line] : others_) {
    flows.others.push_back(line);
    ASSIGN_OR_RETURN(int64_t net, money::Sub(line.in, line.out));
    ASSIGN_OR_RETURN(flows.others_net, money::Add(flows.others_net, net));
  }
  return flows;
}

}  // namespace banca::audit
