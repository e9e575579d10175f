#include "services/wallet/banked_requests.h"

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/topics.h"
#include "services/wallet/request_reader.h"
#include "services/wallet/saga_step.h"

namespace banca::wallet {

BankedRequests::BankedRequests(ledger::Ledger& ledger, WalletCommands& commands,
                               RequestQuarantine& quarantine, int partitions)
    : ledger_(ledger),
      commands_(commands),
      quarantine_(quarantine),
      partitions_(partitions) {}

bool BankedRequests::DecidedHere(std::string_view owner,
                                 int wallet_partition) const {
  return DecidedOn(owner, wallet_partition, partitions_);
}

absl::Status BankedRequests::CarryOut(const eventlog::StoredRecord& record,
                                      int wallet_partition) {
  absl::StatusOr<wire::DecodedBankedEvent> decoded =
      wire::DecodeBankedRecord(record);
  if (!decoded.ok()) {
    return quarantine_.QuarantineUndecodable(
        record, DecidedHere(wire::kUnnamedRequester, wallet_partition),
        decoded.status());
  }
  const v1::BankedTableEvent& event = decoded->event;
  if (event.has_stake_requested()) {
    return CarryOutStake(record, event.stake_requested(), wallet_partition);
  }
  if (event.has_money()) {
    return CarryOutMoney(record, event, decoded->envelope.event_id(),
                         wallet_partition);
  }
  return absl::OkStatus();  // not a money request
}

absl::Status BankedRequests::CarryOutStake(const eventlog::StoredRecord& record,
                                           const v1::StakeRequested& r,
                                           int wallet_partition) {
  // A stake debits the player: the player's owner decides it, and only
  // the player's cash may pay it.
  const bool named = ledger::IsValidId(r.player_id());
  const std::string owner = named ? ledger::PlayerOwner(r.player_id())
                                  : std::string(wire::kUnnamedRequester);
  if (!DecidedHere(owner, wallet_partition) ||
      quarantine_.Quarantined(record)) {
    return absl::OkStatus();
  }
  const std::string request_id = wire::StakeRequestId(r.saga_id());
  absl::Status mine =
      named ? CheckDebitsBelongTo(r.tx(), owner)
            : absl::InvalidArgumentError("a stake names no valid player");
  if (!mine.ok()) {
    return quarantine_.QuarantineOrRetry(record, owner, request_id, mine);
  }
  return CarryOutSagaStep(ledger_, commands_, quarantine_, record,
                          SagaStep{.method = "BankedStake",
                                   .rejected_method = "BankedStakeRejected",
                                   .owner = owner,
                                   .player = r.player_id(),
                                   .request_id = request_id,
                                   .body = &r,
                                   .tx = &r.tx()});
}

absl::Status BankedRequests::CarryOutMoney(const eventlog::StoredRecord& record,
                                           const v1::BankedTableEvent& event,
                                           const std::string& event_id,
                                           int wallet_partition) {
  const v1::BankedMoney& m = event.money();
  // Settlements debit the game's wagers: the game's owner decides them,
  // and the game moves only its own money (checked for every transaction
  // before the first is posted).
  const bool named = ledger::IsValidId(event.table_id());
  const std::string owner = named ? settlement::WagersAccount(event.table_id())
                                  : std::string(wire::kUnnamedRequester);
  if (!DecidedHere(owner, wallet_partition) ||
      quarantine_.Quarantined(record)) {
    return absl::OkStatus();
  }
  return CarryOutMoneySteps(
      ledger_, commands_, quarantine_, record, "BankedSettlement", owner, named,
      "a settlement names no valid table", m.transactions(),
      [&](int i) { return wire::BankedMoneyRequestId(event_id, i); });
}

}  // namespace banca::wallet
