// The wallet's record decoder (libs/wire/wallet_codec.h) on any
// bytes as a record's value, and everything that reads a decoded event
// without a ledger: `banca log tail`'s line and the responses rebuilt for a
// retried command. Errors are expected; a crash or UB is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "banca/v1/envelope.pb.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "libs/wire/wallet_responses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace banca;
  eventlog::StoredRecord record;
  record.topic = std::string(wire::kWalletTopic);
  record.value.assign(reinterpret_cast<const char*>(data), size);
  // Once with a key that matches nothing, once with the envelope's own
  // stream as the key, so that decoding goes past the key check.
  (void)wire::DecodeWalletRecord(record);
  v1::EventEnvelope envelope;
  if (!envelope.ParseFromString(record.value)) return 0;
  record.key = envelope.stream_id();
  absl::StatusOr<wire::DecodedWalletEvent> decoded =
      wire::DecodeWalletRecord(record);
  if (!decoded.ok()) return 0;
  const v1::WalletEvent& event = decoded->event;
  (void)wire::DescribeWalletEvent(event);
  (void)wire::HoldResponseFrom(event);
  (void)wire::AccountResponseFrom(event);
  if (event.has_transaction_posted()) {
    (void)wire::TransactionResponseFrom(event.transaction_posted().tx(), "ana");
  }
  return 0;
}
