// The wallet's side of the table service's money requests (DESIGN "Ledger":
// cross-service money goes through the log as request/outcome events).
//
// The wallet reads banca.table.requests — the tables' copies of their money
// requests, never the table events themselves (no card, no action: docs/
// security.md, "Money requests") — and carries out, in log order:
//   BuyInRequested -> PlaceHold "<saga>/hold" on the player's cash, then
//     CaptureHold "<saga>/seat" into table/<id>/seat/<player> and, for the
//     HE-17b buy-in rake, CaptureHold "<saga>/rake" into house/rake; a hold
//     the ledger refuses is recorded as RequestRejected "<saga>/hold";
//   HandSettled -> each transaction, request id "hand/<hand id>/<i>";
//   PlayerLeft -> the stack seat -> cash, "<event id>/cash-out".
// Exactly once by deduplication: every step has a request id derived from
// the table event, the idempotency index (rebuilt from the wallet's own log
// at start) turns a repeat into a no-op, and the read position is committed
// only after the steps are durable. A crash in between repeats steps, never
// applies one twice.
//
// No request jams a partition: one that fails for good (a step's id taken,
// a seat that holds too little, a record that does not decode) is
// quarantined once and the reader moves on (request_quarantine.h); a
// buy-in refused after its hold releases the hold. Only a transient
// failure holds a partition at its record, and only that partition.
#include <algorithm>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/ownership.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "services/wallet/request_quarantine.h"
#include "services/wallet/wallet_service.h"

namespace banca::wallet {
namespace {

constexpr size_t kReadBatch = 256;

}  // namespace

bool WalletService::DecidedHere(std::string_view owner,
                                int wallet_partition) const {
  return wallet_partition < 0 ||
         wire::OwnershipPartition(owner, options_.partitions) ==
             wallet_partition;
}

absl::Status WalletService::CarryOutUndecodable(
    const eventlog::StoredRecord& record, int wallet_partition,
    const absl::Status& why) {
  if (!DecidedHere(wire::kUnnamedRequester, wallet_partition) ||
      Quarantined(record)) {
    return absl::OkStatus();
  }
  return QuarantineOrRetry(record, wire::kUnnamedRequester, "decode", why);
}

absl::Status WalletService::CarryOutTableRequest(
    const eventlog::StoredRecord& record, int wallet_partition) {
  absl::StatusOr<wire::DecodedTableEvent> decoded =
      wire::DecodeTableRecord(record);
  if (!decoded.ok()) {
    return CarryOutUndecodable(record, wallet_partition, decoded.status());
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
absl::Status WalletService::CarryOutBuyIn(const eventlog::StoredRecord& record,
                                          const v1::TableEvent& event,
                                          int wallet_partition) {
  const v1::BuyInRequested& r = event.buy_in_requested();
  const std::string& table_id = event.table_id();
  const bool named =
      ledger::IsValidId(r.player_id()) && ledger::IsValidId(table_id);
  const std::string owner = named ? ledger::PlayerOwner(r.player_id())
                                  : std::string(wire::kUnnamedRequester);
  if (!DecidedHere(owner, wallet_partition) || Quarantined(record)) {
    return absl::OkStatus();
  }
  const std::string hold_request = absl::StrCat(r.saga_id(), "/hold");
  // What the seat and the rake get must make sense before any money moves.
  if (!named || r.paid_minor() <= 0 || r.rake_minor() < 0 ||
      r.rake_minor() > r.paid_minor()) {
    return QuarantineOrRetry(
        record, owner, hold_request,
        absl::InvalidArgumentError(absl::StrCat(
            "a buy-in names a valid player and table and pays 0 <= rake <= "
            "paid, paid > 0; got paid ",
            r.paid_minor(), ", rake ", r.rake_minor())));
  }
  const v1::Reference reference = settlement::TableReference(table_id);
  absl::StatusOr<v1::WalletEvent> held = ExecuteQueued(
      "TableBuyInHold", hold_request, r,
      [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
        return ledger_.PlaceHold(
            meta, r.player_id(), r.paid_minor(), v1::POSTING_REASON_BUY_IN,
            reference,
            clock_.NowMicros() +
                int64_t{options_.default_hold_ttl_seconds} * 1'000'000,
            commit);
      });
  if (!held.ok()) {
    if (!IsPermanentRequestFailure(held.status())) return held.status();
    // Refused (no account, not enough cash ...): say so on the log.
    absl::StatusOr<v1::WalletEvent> rejected = ExecuteQueued(
        "TableBuyInRejected", hold_request, r,
        [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
          return ledger_.RecordRejection(meta, r.player_id(), reference,
                                         held.status(), commit);
        });
    // Not even that (the hold's id is taken): quarantined.
    if (!rejected.ok()) {
      return QuarantineOrRetry(record, owner, hold_request, rejected.status());
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
    RETURN_IF_ERROR(ReleaseStrandedHold(record, hold_id));
    return QuarantineOrRetry(record, owner, step, why);
  };
  const std::string seat_request = absl::StrCat(r.saga_id(), "/seat");
  const int64_t to_seat = r.paid_minor() - r.rake_minor();
  absl::StatusOr<v1::WalletEvent> seat = ExecuteQueued(
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
  absl::StatusOr<v1::WalletEvent> rake = ExecuteQueued(
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

absl::Status WalletService::CarryOutHandSettled(
    const eventlog::StoredRecord& record, const v1::TableEvent& event,
    int wallet_partition) {
  const v1::HandSettled& h = event.hand_settled();
  const std::string& table_id = event.table_id();
  const bool named = ledger::IsValidId(table_id);
  const std::string owner = named ? settlement::PotAccount(table_id)
                                  : std::string(wire::kUnnamedRequester);
  if (!DecidedHere(owner, wallet_partition) || Quarantined(record)) {
    return absl::OkStatus();
  }
  auto step = [&](int i) { return absl::StrCat("hand/", h.hand_id(), "/", i); };
  // The table moves only its own money: checked for every transaction
  // before the first is posted.
  for (int i = 0; i < h.transactions_size(); ++i) {
    absl::Status mine =
        named ? CheckDebitsBelongTo(h.transactions(i), owner)
              : absl::InvalidArgumentError("a settlement names no valid table");
    if (!mine.ok()) return QuarantineOrRetry(record, owner, step(i), mine);
  }
  for (int i = 0; i < h.transactions_size(); ++i) {
    const v1::LedgerTransaction& tx = h.transactions(i);
    // Queued: durable before the reader commits its position
    // (WaitQueued in PollRequests). A transaction refused stops the
    // settlement there: those before it stand, the rest wait for the
    // operator with the quarantine.
    absl::Status posted =
        ExecuteQueued(
            "TableHandSettlement", step(i), tx,
            [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
              return ledger_.Post(meta, owner, tx, commit);
            })
            .status();
    if (!posted.ok()) return QuarantineOrRetry(record, owner, step(i), posted);
  }
  return absl::OkStatus();
}

absl::Status WalletService::CarryOutCashOut(
    const eventlog::StoredRecord& record, const v1::TableEvent& event,
    std::string_view event_id, int wallet_partition) {
  const v1::PlayerLeft& left = event.player_left();
  if (left.stack_minor() == 0) return absl::OkStatus();
  const std::string& table_id = event.table_id();
  const std::string owner = ledger::IsValidId(table_id)
                                ? settlement::PotAccount(table_id)
                                : std::string(wire::kUnnamedRequester);
  if (!DecidedHere(owner, wallet_partition) || Quarantined(record)) {
    return absl::OkStatus();
  }
  const std::string step = absl::StrCat(ToAbsl(event_id), "/cash-out");
  absl::StatusOr<v1::LedgerTransaction> tx = settlement::CashOutTransaction(
      table_id, left.player_id(), left.stack_minor(), left.rake_refund_minor());
  if (!tx.ok()) return QuarantineOrRetry(record, owner, step, tx.status());
  absl::Status posted =
      ExecuteQueued(
          "TableCashOut", step, left,
          [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
            // On the table's stream: the table's owner decides what
            // leaves its seats.
            return ledger_.Post(meta, owner, *tx, commit);
          })
          .status();
  return posted.ok() ? posted : QuarantineOrRetry(record, owner, step, posted);
}

absl::StatusOr<int> WalletService::PollTableRequests() {
  return PollRequestsPerPartition(
      wire::kTableRequestsTopic, wire::kTableRequestsGroup, table_offsets_,
      table_cursors_, &WalletService::CarryOutTableRequest);
}

absl::StatusOr<int> WalletService::PollRequestsPerPartition(
    std::string_view topic, std::string_view group,
    std::vector<int64_t>& single, std::map<int, std::vector<int64_t>>& owned,
    CarryOut carry_out) {
  if (ownership_ == nullptr) {
    return PollRequests(topic, group, single, carry_out, -1);
  }
  const std::vector<int> partitions = ownership_->Owned();
  {
    // A partition given up: its cursor restarts from the committed
    // position if it comes back (another process may have moved it).
    absl::MutexLock lock(&table_requests_mu_);
    std::erase_if(owned, [&](const auto& cursor) {
      return !std::binary_search(partitions.begin(), partitions.end(),
                                 cursor.first);
    });
  }
  int handled = 0;
  for (int p : partitions) {
    std::vector<int64_t>* offsets;
    {
      absl::MutexLock lock(&table_requests_mu_);
      offsets = &owned[p];
    }
    absl::StatusOr<int> n = PollRequests(
        topic, absl::StrCat(ToAbsl(group), ".", p), *offsets, carry_out, p);
    if (!n.ok()) return n.status();
    handled += *n;
  }
  return handled;
}

// Reads `topic` from `group`'s position and carries out each record in
// order; the position moves past a record only once its steps are durable.
absl::StatusOr<int> WalletService::PollRequests(std::string_view topic_name,
                                                std::string_view group_name,
                                                std::vector<int64_t>& offsets,
                                                CarryOut carry_out,
                                                int wallet_partition) {
  absl::MutexLock lock(&table_requests_mu_);
  const std::string topic(topic_name);
  const std::string group(group_name);
  if (offsets.empty()) {
    absl::StatusOr<int> partitions = log_.PartitionCount(topic);
    if (!partitions.ok()) return partitions.status();
    std::vector<int64_t> start(*partitions, 0);
    for (int p = 0; p < *partitions; ++p) {
      absl::StatusOr<int64_t> committed = log_.CommittedOffset(group, topic, p);
      if (!committed.ok()) return committed.status();
      start[p] = *committed;
    }
    offsets = std::move(start);
  }
  int handled = 0;
  absl::Status failed;
  std::vector<eventlog::OffsetCommit> commits;
  // A failure stops its own partition only; the first is returned.
  for (int p = 0; p < static_cast<int>(offsets.size()); ++p) {
    absl::StatusOr<std::vector<eventlog::StoredRecord>> records =
        log_.Read(topic, p, offsets[p], kReadBatch);
    if (!records.ok()) {
      if (failed.ok()) failed = records.status();
      continue;
    }
    if (records->empty()) continue;
    const int64_t before = offsets[p];
    for (const eventlog::StoredRecord& record : *records) {
      // OK for a request carried out, and for one that never can be
      // (quarantined: request_quarantine.h); an error is transient, and
      // this partition stops here until the next poll: a money request is
      // never skipped.
      if (absl::Status s = (this->*carry_out)(record, wallet_partition);
          !s.ok()) {
        if (failed.ok()) {
          failed = absl::Status(
              s.code(), absl::StrCat(record.topic, "/", record.partition, "@",
                                     record.offset, ": ", s.message()));
        }
        break;
      }
      offsets[p] = record.offset + 1;
      ++handled;
    }
    if (offsets[p] != before) {
      commits.push_back({group, topic, p, offsets[p]});
    }
  }
  // Every settlement queued so far is durable before the positions move
  // past it (a crash in between repeats it; the index makes that a no-op).
  WaitQueued();
  if (!commits.empty()) {
    if (absl::Status s = log_.CommitOffsets(std::move(commits)); !s.ok()) {
      return s;
    }
  }
  if (!failed.ok()) return failed;
  return handled;
}

absl::StatusOr<int64_t> WalletService::RequestLagLocked(
    std::string_view topic, const std::vector<int64_t>& single,
    const std::map<int, std::vector<int64_t>>& owned) {
  int64_t lag = 0;
  auto add = [&](const std::vector<int64_t>& offsets) -> absl::Status {
    for (int p = 0; p < static_cast<int>(offsets.size()); ++p) {
      absl::StatusOr<int64_t> end = log_.EndOffset(topic, p);
      if (!end.ok()) return end.status();
      lag += std::max<int64_t>(0, *end - offsets[p]);
    }
    return absl::OkStatus();
  };
  if (ownership_ == nullptr) {
    RETURN_IF_ERROR(add(single));
  } else {
    for (const auto& [partition, offsets] : owned) {
      RETURN_IF_ERROR(add(offsets));
    }
  }
  return lag;
}

absl::StatusOr<int64_t> WalletService::TableRequestLag() {
  absl::MutexLock lock(&table_requests_mu_);
  return RequestLagLocked(wire::kTableRequestsTopic, table_offsets_,
                          table_cursors_);
}

absl::StatusOr<int64_t> WalletService::BankedRequestLag() {
  absl::MutexLock lock(&table_requests_mu_);
  return RequestLagLocked(wire::kBankedRequestsTopic, banked_offsets_,
                          banked_cursors_);
}

void WalletService::TableRequestsLoop() {
  absl::Time lag_measured = absl::InfinitePast();
  while (true) {
    {
      absl::MutexLock lock(&stop_mu_);
      stop_cv_.WaitWithTimeout(&stop_mu_, options_.table_requests_interval);
      if (stopping_) return;
    }
    for (auto poll : {&WalletService::PollTableRequests,
                      &WalletService::PollBankedRequests}) {
      absl::StatusOr<int> handled = (this->*poll)();
      if (!handled.ok() && !absl::IsUnavailable(handled.status())) {
        std::fprintf(stderr, "banca wallet: table request: %s\n",
                     std::string(handled.status().message()).c_str());
      }
    }
    // The readers' lag, for the operator: a wallet falling behind delays
    // every buy-in and settlement. Once a second (on Kafka each end offset
    // is a broker round trip).
    if (metrics_ && absl::Now() - lag_measured >= absl::Seconds(1)) {
      lag_measured = absl::Now();
      absl::StatusOr<int64_t> table = TableRequestLag();
      absl::StatusOr<int64_t> banked = BankedRequestLag();
      if (table.ok())
        metrics_->SetRequestLag(wire::kTableRequestsTopic, *table);
      if (banked.ok())
        metrics_->SetRequestLag(wire::kBankedRequestsTopic, *banked);
    }
  }
}

}  // namespace banca::wallet
