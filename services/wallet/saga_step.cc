#include "services/wallet/saga_step.h"

#include <string>

#include "services/wallet/request_reader.h"

namespace banca::wallet {

absl::Status CarryOutSagaStep(ledger::Ledger& ledger, WalletCommands& commands,
                              RequestQuarantine& quarantine,
                              const eventlog::StoredRecord& record,
                              const SagaStep& step) {
  const std::string owner(step.owner);
  absl::StatusOr<v1::WalletEvent> posted = commands.ExecuteQueued(
      step.method, step.request_id, *step.body,
      [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
        return ledger.Post(meta, owner, *step.tx, commit);
      });
  if (posted.ok() || !IsPermanentRequestFailure(posted.status())) {
    return posted.status();
  }
  // Refused (no account, not enough cash ...): said on the log.
  absl::Status rejected =
      commands
          .ExecuteQueued(
              step.rejected_method, step.request_id, *step.body,
              [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
                return ledger.RecordRejection(meta, std::string(step.player),
                                              step.tx->reference(),
                                              posted.status(), commit);
              })
          .status();
  // Not even that (the step's id is taken): quarantined.
  return rejected.ok()
             ? rejected
             : quarantine.QuarantineOrRetry(
                   record, owner, std::string(step.request_id), rejected);
}

absl::Status CarryOutMoneySteps(
    ledger::Ledger& ledger, WalletCommands& commands,
    RequestQuarantine& quarantine, const eventlog::StoredRecord& record,
    std::string_view method, std::string_view owner_view, bool named,
    std::string_view invalid,
    const google::protobuf::RepeatedPtrField<v1::LedgerTransaction>& txs,
    const std::function<std::string(int)>& step_id) {
  const std::string owner(owner_view);
  for (int i = 0; i < txs.size(); ++i) {
    absl::Status mine = named
                            ? CheckDebitsBelongTo(txs[i], owner)
                            : absl::InvalidArgumentError(std::string(invalid));
    if (!mine.ok()) {
      return quarantine.QuarantineOrRetry(record, owner, step_id(i), mine);
    }
  }
  for (int i = 0; i < txs.size(); ++i) {
    const v1::LedgerTransaction& tx = txs[i];
    const std::string step = step_id(i);
    // Queued: durable before the reader commits its position. A
    // transaction refused stops the event there (see table_requests.h).
    absl::Status posted =
        commands
            .ExecuteQueued(
                method, step, tx,
                [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
                  return ledger.Post(meta, owner, tx, commit);
                })
            .status();
    if (!posted.ok()) {
      return quarantine.QuarantineOrRetry(record, owner, step, posted);
    }
  }
  return absl::OkStatus();
}

}  // namespace banca::wallet
