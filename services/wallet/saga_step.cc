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

}  // namespace banca::wallet
