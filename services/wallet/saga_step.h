// A saga's one wallet step (a banked table's stake, a tournament's
// payment): the requester's transaction posted under the saga's request
// id; a permanent refusal (no account, not enough cash) recorded as
// RequestRejected under the same id, so that the requester learns the
// outcome through the log; and a step that can be neither (its id taken)
// quarantined, never retried forever (request_quarantine.h).
#ifndef BANCA_SERVICES_WALLET_SAGA_STEP_H_
#define BANCA_SERVICES_WALLET_SAGA_STEP_H_

#include <functional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "banca/v1/ledger.pb.h"
#include "google/protobuf/message.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/ledger.h"
#include "services/wallet/request_quarantine.h"
#include "services/wallet/wallet_commands.h"

namespace banca::wallet {

struct SagaStep {
  std::string_view method;           // "BankedStake", "TournamentPayment"
  std::string_view rejected_method;  // its refusal's
  std::string_view owner;            // whose stream decides it
  std::string_view player;           // named by a refusal
  std::string_view request_id;
  const google::protobuf::Message* body = nullptr;  // the request, logged
  const v1::LedgerTransaction* tx = nullptr;
};

// Carries out `step` for the request in `record`; a transient failure is
// returned (the reader retries the record).
absl::Status CarryOutSagaStep(ledger::Ledger& ledger, WalletCommands& commands,
                              RequestQuarantine& quarantine,
                              const eventlog::StoredRecord& record,
                              const SagaStep& step);

// A requester's money event (a banked table's settlements, a tournament's
// prizes and refunds): every transaction checked to debit only
// `owner`'s accounts (or the house's) before the first is posted, then
// each posted under `step_id(i)`, in order; a transaction that cannot be
// is quarantined (`invalid` names a requester that is not valid).
absl::Status CarryOutMoneySteps(
    ledger::Ledger& ledger, WalletCommands& commands,
    RequestQuarantine& quarantine, const eventlog::StoredRecord& record,
    std::string_view method, std::string_view owner, bool named,
    std::string_view invalid,
    const google::protobuf::RepeatedPtrField<v1::LedgerTransaction>& txs,
    const std::function<std::string(int)>& step_id);

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_SAGA_STEP_H_
