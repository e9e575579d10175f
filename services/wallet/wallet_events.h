// How wallet events travel on the log: one EventEnvelope per record, keyed
// by the stream ("wallet/player/<id>"), with the routing fields copied into
// record headers for readers that do not decode payloads.
#ifndef BANCA_SERVICES_WALLET_WALLET_EVENTS_H_
#define BANCA_SERVICES_WALLET_WALLET_EVENTS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "banca/v1/envelope.pb.h"
#include "banca/v1/ledger.pb.h"
#include "banca/v1/wallet.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/ledger.h"

namespace banca::wallet {

inline constexpr std::string_view kWalletTopic = "banca.wallet.events";
inline constexpr int kDefaultWalletPartitions = 8;
inline constexpr std::string_view kWalletEventType = "banca.v1.WalletEvent";
inline constexpr uint32_t kWalletSchemaVersion = 1;
// The actor of the events the wallet makes for itself: the steps of the
// tables' requests, hold expiry, quarantines (WalletEvent.actor).
inline constexpr std::string_view kWalletActor = "wallet";

// Whether the wallet made `event` for itself (its actor; empty in logs
// older than the field). A table takes an outcome only from these: a
// client's events carry the client's subject.
inline bool MadeByTheWallet(const v1::WalletEvent& event) {
  return event.actor().empty() || event.actor() == kWalletActor;
}

struct EventContext {
  std::string producer = "wallet";
  std::string correlation_id;
  std::string causation_id;
  int64_t occurred_at_micros = 0;
};

eventlog::Record EncodeWalletRecord(const ledger::Committed& committed,
                                    const EventContext& context);

struct DecodedWalletEvent {
  v1::EventEnvelope envelope;
  v1::WalletEvent event;
};

// DATA_LOSS when the record is not a wallet event envelope.
absl::StatusOr<DecodedWalletEvent> DecodeWalletRecord(
    const eventlog::StoredRecord& record);

// A short human line for `banca log tail`.
std::string DescribeWalletEvent(const v1::WalletEvent& event);

// The response a command returned, rebuilt from the event it appended (so a
// retry after a restart gets the same answer).
v1::TransactionResponse TransactionResponseFrom(const v1::LedgerTransaction& tx,
                                                std::string_view player_id);
v1::HoldResponse HoldResponseFrom(const v1::WalletEvent& event);
v1::AccountResponse AccountResponseFrom(const v1::WalletEvent& event);

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_WALLET_EVENTS_H_
