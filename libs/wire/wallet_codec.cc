#include "libs/wire/wallet_codec.h"

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/money/money.h"

namespace banca::wire {

eventlog::Record EncodeWalletRecord(const ledger::Committed& committed,
                                    const WalletEventContext& context) {
  v1::EventEnvelope envelope;
  const std::string event_id =
      absl::StrCat(committed.stream, "#", committed.sequence);
  envelope.set_event_id(event_id);
  envelope.set_stream_id(committed.stream);
  envelope.set_sequence(committed.sequence);
  envelope.set_type(std::string(kWalletEventType));
  envelope.set_schema_version(kWalletSchemaVersion);
  envelope.set_occurred_at_micros(context.occurred_at_micros);
  envelope.set_producer(context.producer);
  envelope.set_correlation_id(context.correlation_id);
  envelope.set_causation_id(context.causation_id);
  committed.event.SerializeToString(envelope.mutable_payload());

  eventlog::Record record;
  record.topic = std::string(kWalletTopic);
  record.key = committed.stream;
  record.timestamp_micros = context.occurred_at_micros;
  record.headers = {
      {"event_id", event_id},
      {"type", std::string(kWalletEventType)},
      {"schema_version", absl::StrCat(kWalletSchemaVersion)},
      {"producer", context.producer},
      {"correlation_id", context.correlation_id},
      {"causation_id", context.causation_id},
  };
  envelope.SerializeToString(&record.value);
  return record;
}

absl::StatusOr<DecodedWalletEvent> DecodeWalletRecord(
    const eventlog::StoredRecord& record) {
  DecodedWalletEvent decoded;
  if (!decoded.envelope.ParseFromString(record.value)) {
    return absl::DataLossError(
        absl::StrCat("record ", record.topic, "/", record.partition, "@",
                     record.offset, " is not an EventEnvelope"));
  }
  if (decoded.envelope.type() != kWalletEventType) {
    return absl::DataLossError(
        absl::StrCat("unexpected event type ", decoded.envelope.type()));
  }
  if (decoded.envelope.schema_version() > kWalletSchemaVersion) {
    return absl::FailedPreconditionError(
        absl::StrCat("event schema version ", decoded.envelope.schema_version(),
                     " is newer than this build understands (",
                     kWalletSchemaVersion, "); upgrade banca"));
  }
  if (decoded.envelope.stream_id() != record.key) {
    return absl::DataLossError("envelope stream differs from the record key");
  }
  if (!decoded.event.ParseFromString(decoded.envelope.payload())) {
    return absl::DataLossError("payload is not a WalletEvent");
  }
  return decoded;
}

std::string PostingReasonName(int reason) {
  constexpr std::string_view kPrefix = "POSTING_REASON_";
  const std::string& name = v1::PostingReason_Name(reason);
  if (name.size() <= kPrefix.size() ||
      name.compare(0, kPrefix.size(), kPrefix) != 0) {
    return absl::StrCat("REASON_", reason);
  }
  return name.substr(kPrefix.size());
}

namespace {

std::string Amount(int64_t minor) { return money::FormatMinor(minor); }

std::string DescribeTx(const v1::LedgerTransaction& tx) {
  std::string out = absl::StrCat(PostingReasonName(tx.reason()),
                                 " ref=", tx.reference().id(), " [");
  for (int i = 0; i < tx.postings_size(); ++i) {
    absl::StrAppend(&out, i ? ", " : "", tx.postings(i).account(), " ",
                    tx.postings(i).amount_minor() > 0 ? "+" : "",
                    Amount(tx.postings(i).amount_minor()));
  }
  absl::StrAppend(&out, "]");
  return out;
}

}  // namespace

std::string DescribeWalletEvent(const v1::WalletEvent& event) {
  switch (event.kind_case()) {
    case v1::WalletEvent::kAccountOpened:
      return absl::StrCat(
          "AccountOpened player=", event.account_opened().player_id(), " ",
          event.account_opened().currency());
    case v1::WalletEvent::kAccountClosed:
      return absl::StrCat("AccountClosed player=",
                          event.account_closed().player_id());
    case v1::WalletEvent::kTransactionPosted:
      return absl::StrCat("TransactionPosted ",
                          DescribeTx(event.transaction_posted().tx()));
    case v1::WalletEvent::kHoldPlaced:
      return absl::StrCat("HoldPlaced ", event.hold_placed().hold_id(), " ",
                          Amount(event.hold_placed().amount_minor()));
    case v1::WalletEvent::kHoldCaptured:
      return absl::StrCat("HoldCaptured ", event.hold_captured().hold_id(), " ",
                          Amount(event.hold_captured().amount_minor()), " ",
                          DescribeTx(event.hold_captured().tx()));
    case v1::WalletEvent::kHoldReleased:
      return absl::StrCat("HoldReleased ", event.hold_released().hold_id(), " ",
                          Amount(event.hold_released().amount_minor()),
                          event.hold_released().expired() ? " (expired)" : "");
    case v1::WalletEvent::kRequestRejected:
      return absl::StrCat(
          "RequestRejected player=", event.request_rejected().player_id(), " ",
          event.request_rejected().code(), ": ",
          event.request_rejected().message());
    case v1::WalletEvent::kRequestQuarantined: {
      const v1::RequestQuarantined& q = event.request_quarantined();
      return absl::StrCat("RequestQuarantined ", q.topic(), "/", q.partition(),
                          "@", q.offset(), " step=", q.step(), " ", q.code(),
                          ": ", q.message());
    }
    case v1::WalletEvent::KIND_NOT_SET:
      break;
  }
  return "unknown wallet event";
}

std::vector<const v1::LedgerTransaction*> TransactionsOf(
    const v1::WalletEvent& e) {
  std::vector<const v1::LedgerTransaction*> txs;
  if (e.has_transaction_posted()) txs.push_back(&e.transaction_posted().tx());
  if (e.has_hold_placed()) txs.push_back(&e.hold_placed().tx());
  if (e.has_hold_captured()) {
    txs.push_back(&e.hold_captured().tx());
    if (e.hold_captured().has_release_tx()) {
      txs.push_back(&e.hold_captured().release_tx());
    }
  }
  if (e.has_hold_released()) txs.push_back(&e.hold_released().tx());
  return txs;
}

}  // namespace banca::wire
