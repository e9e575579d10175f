#include "services/wallet/tournament_requests.h"

#include "absl/strings/str_cat.h"
#include "libs/ledger/account.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/tournament_codec.h"
#include "services/wallet/request_reader.h"
#include "services/wallet/saga_step.h"

namespace banca::wallet {

TournamentRequests::TournamentRequests(ledger::Ledger& ledger,
                                       WalletCommands& commands,
                                       RequestQuarantine& quarantine,
                                       int partitions)
    : ledger_(ledger),
      commands_(commands),
      quarantine_(quarantine),
      partitions_(partitions) {}

bool TournamentRequests::DecidedHere(std::string_view owner,
                                     int wallet_partition) const {
  return DecidedOn(owner, wallet_partition, partitions_);
}

absl::Status TournamentRequests::CarryOut(const eventlog::StoredRecord& record,
                                          int wallet_partition) {
  absl::StatusOr<wire::DecodedTournamentEvent> decoded =
      wire::DecodeTournamentRecord(record);
  if (!decoded.ok()) {
    return quarantine_.QuarantineUndecodable(
        record, DecidedHere(wire::kUnnamedRequester, wallet_partition),
        decoded.status());
  }
  const v1::TournamentEvent& event = decoded->event;
  if (event.has_payment_requested()) {
    return CarryOutPayment(record, event, wallet_partition);
  }
  if (event.has_money()) return CarryOutMoney(record, event, wallet_partition);
  return absl::OkStatus();  // not a money request
}

absl::Status TournamentRequests::CarryOutPayment(
    const eventlog::StoredRecord& record, const v1::TournamentEvent& event,
    int wallet_partition) {
  const v1::PaymentRequested& r = event.payment_requested();
  // A payment debits the player's cash (their owner decides it) or the
  // ticket held for them in this tournament (the tournament's).
  const bool named =
      ledger::IsValidId(r.player_id()) &&
      wire::IsValidTableId(event.tournament_id()) &&
      wire::TournamentOfPaymentSaga(r.saga_id()) == event.tournament_id();
  const std::string owner =
      !named           ? std::string(wire::kUnnamedRequester)
      : r.use_ticket() ? absl::StrCat("tournament/", event.tournament_id())
                       : ledger::PlayerOwner(r.player_id());
  if (!DecidedHere(owner, wallet_partition) ||
      quarantine_.Quarantined(record)) {
    return absl::OkStatus();
  }
  absl::Status mine =
      named ? CheckDebitsBelongTo(r.tx(), owner)
            : absl::InvalidArgumentError("a payment names no valid player");
  if (!mine.ok()) {
    return quarantine_.QuarantineOrRetry(record, owner, r.saga_id(), mine);
  }
  return CarryOutSagaStep(
      ledger_, commands_, quarantine_, record,
      SagaStep{.method = "TournamentPayment",
               .rejected_method = "TournamentPaymentRejected",
               .owner = owner,
               .player = r.player_id(),
               .request_id = r.saga_id(),
               .body = &r,
               .tx = &r.tx()});
}

absl::Status TournamentRequests::CarryOutMoney(
    const eventlog::StoredRecord& record, const v1::TournamentEvent& event,
    int wallet_partition) {
  const v1::TournamentMoney& m = event.money();
  // The tournament's owner decides; it moves only its own money and the
  // house's (checked for every transaction before the first is posted).
  const bool named = wire::IsValidTableId(event.tournament_id());
  const std::string owner =
      named ? absl::StrCat("tournament/", event.tournament_id())
            : std::string(wire::kUnnamedRequester);
  if (!DecidedHere(owner, wallet_partition) ||
      quarantine_.Quarantined(record)) {
    return absl::OkStatus();
  }
  return CarryOutMoneySteps(
      ledger_, commands_, quarantine_, record, "TournamentMoney", owner, named,
      "money names no valid tournament", m.transactions(), [&](int i) {
        return wire::TournamentMoneyRequestId(event.tournament_id(), m.number(),
                                              i);
      });
}

}  // namespace banca::wallet
