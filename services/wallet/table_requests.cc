#include "services/wallet/table_requests.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "services/wallet/request_reader.h"

namespace banca::wallet {

TableRequests::TableRequests(ledger::Ledger& ledger, WalletCommands& commands,
                             RequestQuarantine& quarantine, const Clock& clock,
                             int partitions, int32_t hold_ttl_seconds)
    : ledger_(ledger),
      commands_(commands),
      quarantine_(quarantine),
      clock_(clock),
      partitions_(partitions),
      hold_ttl_seconds_(hold_ttl_seconds) {}

bool TableRequests::DecidedHere(std::string_view owner,
                                int wallet_partition) const {
  return DecidedOn(owner, wallet_partition, partitions_);
}

absl::Status TableRequests::CarryOut(const eventlog::StoredRecord& record,
                                     int wallet_partition) {
  absl::StatusOr<wire::DecodedTableEvent> decoded =
      wire::DecodeTableRecord(record);
  if (!decoded.ok()) {
    return quarantine_.QuarantineUndecodable(
        record, DecidedHere(wire::kUnnamedRequester, wallet_partition),
        decoded.status());
  }
  const v1::TableEvent& event = decoded->event;
  switch (event.kind_case()) {
    case v1::TableEvent::kBuyInRequested:
      return CarryOutBuyIn(record, event, wallet_partition);
    case v1::TableEvent::kHandSettled:
      return CarryOutHandSettled(record, event, wallet_partition);
    case v1::TableEvent::kPlayerLeft:
      return CarryOutCashOut(record, event, decoded->envelope.event_id(),
                             wallet_partition);
    default:
      return absl::OkStatus();  // not a money request
  }
}

// Each request has one deciding owner, on whose stream its outcome (or
// quarantine) goes: the player for a buy-in (it debits the player's cash),
// the table's pot for settlements and cash-outs (they debit its seats).
// Invalid ids name no stream: kUnnamedRequester's then.
absl::Status TableRequests::CarryOutBuyIn(const eventlog::StoredRecord& record,
                                          const v1::TableEvent& event,
                                          int wallet_partition) {
  const v1::BuyInRequested& r = event.buy_in_requested();
  const std::string& table_id = event.table_id();
  const bool named =
      ledger::IsValidId(r.player_id()) && ledger::IsValidId(table_id);
  const std::string owner = named ? ledger::PlayerOwner(r.player_id())
                                  : std::string(wire::kUnnamedRequester);
  if (!DecidedHere(owner, wallet_partition) ||
      quarantine_.Quarantined(record)) {
    return absl::OkStatus();
  }
  const std::string hold_request = absl::StrCat(r.saga_id(), "/hold");
  // What the seat and the rake get must make sense before any money moves.
  if (!named || r.paid_minor() <= 0 || r.rake_minor() < 0 ||
      r.rake_minor() > r.paid_minor()) {
    return quarantine_.QuarantineOrRetry(
        record, owner, hold_request,
        absl::InvalidArgumentError(absl::StrCat(
            "a buy-in names a valid player and table and pays 0 <= rake <= "
            "paid, paid > 0; got paid ",
            r.paid_minor(), ", rake ", r.rake_minor())));
  }
  const v1::Reference reference = settlement::TableReference(table_id);
  absl::StatusOr<v1::WalletEvent> held = commands_.ExecuteQueued(
      "TableBuyInHold", hold_request, r,
      [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
        return ledger_.PlaceHold(
            meta, r.player_id(), r.paid_minor(), v1::POSTING_REASON_BUY_IN,
            reference,
            clock_.NowMicros() + int64_t{hold_ttl_seconds_} * 1'000'000,
            commit);
      });
  if (!held.ok()) {
    if (!IsPermanentRequestFailure(held.status())) return held.status();
    // Refused (no account, not enough cash ...): say so on the log.
    absl::StatusOr<v1::WalletEvent> rejected = commands_.ExecuteQueued(
        "TableBuyInRejected", hold_request, r,
        [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
          return ledger_.RecordRejection(meta, r.player_id(), reference,
                                         held.status(), commit);
        });
    // Not even that (the hold's id is taken): quarantined.
    if (!rejected.ok()) {
      return quarantine_.QuarantineOrRetry(record, owner, hold_request,
                                           rejected.status());
    }
    return absl::OkStatus();
  }
  if (held->has_request_rejected()) return absl::OkStatus();  // repeat
  const std::string hold_id = held->hold_placed().hold_id();
  // A step refused after the hold: the hold goes back to the player's cash
  // at once (not only when it expires), then the request is quarantined.
  auto stranded = [&](std::string_view step,
                      const absl::Status& why) -> absl::Status {
    if (!IsPermanentRequestFailure(why)) return why;
    RETURN_IF_ERROR(quarantine_.ReleaseStrandedHold(record, hold_id));
    return quarantine_.QuarantineOrRetry(record, owner, step, why);
  };
  const std::string seat_request = absl::StrCat(r.saga_id(), "/seat");
  const int64_t to_seat = r.paid_minor() - r.rake_minor();
  absl::StatusOr<v1::WalletEvent> seat = commands_.ExecuteQueued(
      "TableBuyInCapture", seat_request, r,
      [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
        return ledger_.CaptureHold(
            meta, hold_id, to_seat,
            settlement::SeatAccount(table_id, r.player_id()),
            v1::POSTING_REASON_BUY_IN, reference, r.rake_minor() == 0, commit);
      });
  if (!seat.ok()) return stranded(seat_request, seat.status());
  if (r.rake_minor() == 0) return absl::OkStatus();
  const std::string rake_request = absl::StrCat(r.saga_id(), "/rake");
  absl::StatusOr<v1::WalletEvent> rake = commands_.ExecuteQueued(
      "TableBuyInRake", rake_request, r,
      [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
        return ledger_.CaptureHold(meta, hold_id, r.rake_minor(),
                                   std::string(settlement::kRakeAccount),
                                   v1::POSTING_REASON_RAKE, reference, true,
                                   commit);
      });
  if (!rake.ok()) return stranded(rake_request, rake.status());
  return absl::OkStatus();
}

absl::Status TableRequests::CarryOutHandSettled(
    const eventlog::StoredRecord& record, const v1::TableEvent& event,
    int wallet_partition) {
  const v1::HandSettled& h = event.hand_settled();
  const std::string& table_id = event.table_id();
  const bool named = ledger::IsValidId(table_id);
  const std::string owner = named ? settlement::PotAccount(table_id)
                                  : std::string(wire::kUnnamedRequester);
  if (!DecidedHere(owner, wallet_partition) ||
      quarantine_.Quarantined(record)) {
    return absl::OkStatus();
  }
  auto step = [&](int i) { return absl::StrCat("hand/", h.hand_id(), "/", i); };
  // The table moves only its own money: checked for every transaction
  // before the first is posted.
  for (int i = 0; i < h.transactions_size(); ++i) {
    absl::Status mine =
        named ? CheckDebitsBelongTo(h.transactions(i), owner)
              : absl::InvalidArgumentError("a settlement names no valid table");
    if (!mine.ok())
      return quarantine_.QuarantineOrRetry(record, owner, step(i), mine);
  }
  for (int i = 0; i < h.transactions_size(); ++i) {
    const v1::LedgerTransaction& tx = h.transactions(i);
    // Queued: durable before the reader commits its position
    // (WaitQueued in PollRequests). A transaction refused stops the
    // settlement there: those before it stand, the rest wait for the
    // operator with the quarantine.
    absl::Status posted =
        commands_
            .ExecuteQueued(
                "TableHandSettlement", step(i), tx,
                [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
                  return ledger_.Post(meta, owner, tx, commit);
                })
            .status();
    if (!posted.ok())
      return quarantine_.QuarantineOrRetry(record, owner, step(i), posted);
  }
  return absl::OkStatus();
}

absl::Status TableRequests::CarryOutCashOut(
    const eventlog::StoredRecord& record, const v1::TableEvent& event,
    std::string_view event_id, int wallet_partition) {
  const v1::PlayerLeft& left = event.player_left();
  if (left.stack_minor() == 0) return absl::OkStatus();
  const std::string& table_id = event.table_id();
  const std::string owner = ledger::IsValidId(table_id)
                                ? settlement::PotAccount(table_id)
                                : std::string(wire::kUnnamedRequester);
  if (!DecidedHere(owner, wallet_partition) ||
      quarantine_.Quarantined(record)) {
    return absl::OkStatus();
  }
  const std::string step = absl::StrCat(ToAbsl(event_id), "/cash-out");
  absl::StatusOr<v1::LedgerTransaction> tx = settlement::CashOutTransaction(
      table_id, left.player_id(), left.stack_minor(), left.rake_refund_minor());
  if (!tx.ok())
    return quarantine_.QuarantineOrRetry(record, owner, step, tx.status());
  absl::Status posted =
      commands_
          .ExecuteQueued(
              "TableCashOut", step, left,
              [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
                // On the table's stream: the table's owner decides what
                // leaves its seats.
                return ledger_.Post(meta, owner, *tx, commit);
              })
          .status();
  return posted.ok()
             ? posted
             : quarantine_.QuarantineOrRetry(record, owner, step, posted);
}

}  // namespace banca::wallet
