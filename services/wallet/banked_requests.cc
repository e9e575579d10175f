// The wallet's side of the banked tables' money (services/table/
// banked_table_service.h): the wallet reads banca.banked.requests and, in
// log order,
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
#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/topics.h"
#include "services/wallet/request_quarantine.h"
#include "services/wallet/wallet_service.h"

namespace banca::wallet {

absl::Status WalletService::CarryOutBankedRequest(
    const eventlog::StoredRecord& record, int wallet_partition) {
  absl::StatusOr<wire::DecodedBankedEvent> decoded =
      wire::DecodeBankedRecord(record);
  if (!decoded.ok()) {
    return CarryOutUndecodable(record, wallet_partition, decoded.status());
  }
  const v1::BankedTableEvent& event = decoded->event;
  if (event.has_stake_requested()) {
    const v1::StakeRequested& r = event.stake_requested();
    // A stake debits the player: the player's owner decides it, and only
    // the player's cash may pay it.
    const bool named = ledger::IsValidId(r.player_id());
    const std::string owner = named ? ledger::PlayerOwner(r.player_id())
                                    : std::string(wire::kUnnamedRequester);
    if (!DecidedHere(owner, wallet_partition) || Quarantined(record)) {
      return absl::OkStatus();
    }
    const std::string request_id = wire::StakeRequestId(r.saga_id());
    absl::Status mine =
        named ? CheckDebitsBelongTo(r.tx(), owner)
              : absl::InvalidArgumentError("a stake names no valid player");
    if (!mine.ok()) return QuarantineOrRetry(record, owner, request_id, mine);
    absl::StatusOr<v1::WalletEvent> staked = ExecuteQueued(
        "BankedStake", request_id, r,
        [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
          return ledger_.Post(meta, owner, r.tx(), commit);
        });
    if (staked.ok() || !IsPermanentRequestFailure(staked.status())) {
      return staked.status();
    }
    // Refused (no account, not enough cash ...): say so on the log.
    absl::Status rejected =
        ExecuteQueued(
            "BankedStakeRejected", request_id, r,
            [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
              return ledger_.RecordRejection(meta, r.player_id(),
                                             r.tx().reference(),
                                             staked.status(), commit);
            })
            .status();
    // Not even that (the stake's id is taken): quarantined.
    return rejected.ok()
               ? rejected
               : QuarantineOrRetry(record, owner, request_id, rejected);
  }
  if (event.has_money()) {
    const v1::BankedMoney& m = event.money();
    // Settlements debit the game's wagers: the game's owner decides them,
    // and the game moves only its own money (checked for every
    // transaction before the first is posted).
    const bool named = ledger::IsValidId(event.table_id());
    const std::string owner = named
                                  ? settlement::WagersAccount(event.table_id())
                                  : std::string(wire::kUnnamedRequester);
    if (!DecidedHere(owner, wallet_partition) || Quarantined(record)) {
      return absl::OkStatus();
    }
    const std::string& event_id = decoded->envelope.event_id();
    for (int i = 0; i < m.transactions_size(); ++i) {
      absl::Status mine =
          named
              ? CheckDebitsBelongTo(m.transactions(i), owner)
              : absl::InvalidArgumentError("a settlement names no valid table");
      if (!mine.ok()) {
        return QuarantineOrRetry(record, owner,
                                 wire::BankedMoneyRequestId(event_id, i), mine);
      }
    }
    for (int i = 0; i < m.transactions_size(); ++i) {
      const v1::LedgerTransaction& tx = m.transactions(i);
      const std::string step = wire::BankedMoneyRequestId(event_id, i);
      // Queued: durable before the reader commits its position. A
      // transaction refused stops the event there (see table_requests.cc).
      absl::Status posted =
          ExecuteQueued(
              "BankedSettlement", step, tx,
              [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
                return ledger_.Post(meta, owner, tx, commit);
              })
              .status();
      if (!posted.ok()) return QuarantineOrRetry(record, owner, step, posted);
    }
  }
  return absl::OkStatus();  // not a money request
}

absl::StatusOr<int> WalletService::PollBankedRequests() {
  return PollRequestsPerPartition(
      wire::kBankedRequestsTopic, wire::kBankedRequestsGroup, banked_offsets_,
      banked_cursors_, &WalletService::CarryOutBankedRequest);
}

}  // namespace banca::wallet
