// How wallet events travel on the log: one EventEnvelope per record, keyed
// by the stream ("wallet/player/<id>"), with the routing fields copied into
// record headers for readers that do not decode payloads.
#ifndef BANCA_LIBS_WIRE_WALLET_CODEC_H_
#define BANCA_LIBS_WIRE_WALLET_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/envelope.pb.h"
#include "banca/v1/ledger.pb.h"
#include "banca/v1/wallet.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/ledger.h"
#include "libs/wire/topics.h"

namespace banca::wire {

// The actor of the events the wallet makes for itself: the steps of the
// tables' requests, hold expiry, quarantines (WalletEvent.actor).
inline constexpr std::string_view kWalletActor = "wallet";

// Whether the wallet made `event` for itself (its actor; empty in logs
// older than the field). A table takes an outcome only from these: a
// client's events carry the client's subject.
inline bool MadeByTheWallet(const v1::WalletEvent& event) {
  return event.actor().empty() || event.actor() == kWalletActor;
}

struct WalletEventContext {
  std::string producer = "wallet";
  std::string correlation_id;
  std::string causation_id;
  int64_t occurred_at_micros = 0;
};

eventlog::Record EncodeWalletRecord(const ledger::Committed& committed,
                                    const WalletEventContext& context);

struct DecodedWalletEvent {
  v1::EventEnvelope envelope;
  v1::WalletEvent event;
};

// DATA_LOSS when the record is not a wallet event envelope.
absl::StatusOr<DecodedWalletEvent> DecodeWalletRecord(
    const eventlog::StoredRecord& record);

// A short human line for `banca log tail`.
std::string DescribeWalletEvent(const v1::WalletEvent& event);

// Every ledger transaction a wallet event records (a posting, a hold's
// placing, capture with its release, release), in order.
std::vector<const v1::LedgerTransaction*> TransactionsOf(
    const v1::WalletEvent& e);

// "DEPOSIT" for POSTING_REASON_DEPOSIT. A reason this build has no name for
// (a newer writer's, or a damaged record's) is shown by its number
// ("REASON_99").
std::string PostingReasonName(int reason);

}  // namespace banca::wire

#endif  // BANCA_LIBS_WIRE_WALLET_CODEC_H_
