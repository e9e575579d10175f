#include "libs/projection/wallet_projection.h"

#include <optional>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "banca/v1/wallet.pb.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/ledger/balance_limits.h"
#include "libs/projection/hex_key.h"
#include "libs/projection/txn_values.h"
#include "libs/wire/wallet_codec.h"
#include "libs/wire/wallet_responses.h"

namespace banca::projection {
namespace {

// A balance: wrap-around addition, as the ledger's replay (balance_limits.h).
// The projection reads the partitions one after another, not in the order
// the ledger decided, so a balance can pass int64 on the way to a final
// value that fits; wrap-around commutes and ends exact. Typed (a balance
// is touched by many records of a txn, and written once).
absl::Status AddBalance(projection::Txn& txn, std::string_view key,
                        int64_t delta) {
  ASSIGN_OR_RETURN(IntValue* const balance, TypedInt(txn, key));
  balance->value = ledger::WrappingAdd(balance->value, delta);
  return absl::OkStatus();
}

// A running total of non-negative amounts: stops at INT64_MAX (in any order
// of addition, as the ledger's own totals do).
absl::Status AddInt(projection::Txn& txn, std::string_view key, int64_t delta) {
  ASSIGN_OR_RETURN(IntValue* const total, TypedInt(txn, key));
  bool clamped = false;
  total->value = ledger::ClampToInt64(__int128{total->value} + delta, &clamped);
  return absl::OkStatus();
}

// stmt/<player>/<occurred_at:016x>/<tx id>/<posting:02d>, without
// StrFormat (a key per player posting).
std::string StatementKey(std::string_view player, int64_t at,
                         std::string_view tx_id, int posting) {
  std::string key = StatementPrefix(player);
  AppendHex16(key, static_cast<uint64_t>(at));
  key += '/';
  key += tx_id;
  key += '/';
  if (posting < 10) key += '0';
  absl::StrAppend(&key, posting);
  return key;
}

absl::Status ApplyTx(projection::Txn& txn, const v1::EventEnvelope& envelope,
                     const v1::LedgerTransaction& tx) {
  __int128 credits = 0;
  for (int i = 0; i < tx.postings_size(); ++i) {
    const v1::Posting& p = tx.postings(i);
    if (auto s = AddBalance(txn, BalanceKey(p.account()), p.amount_minor());
        !s.ok()) {
      return s;
    }
    if (p.amount_minor() > 0) credits += p.amount_minor();
    auto info = ledger::ParseAccount(p.account());
    if (!info.ok()) return absl::DataLossError(info.status().message());
    if (info->account_class != ledger::AccountClass::kPlayer) continue;
    v1::StatementEntry entry;
    entry.set_tx_id(tx.tx_id());
    entry.set_reason(tx.reason());
    *entry.mutable_reference() = tx.reference();
    entry.set_account(p.account());
    entry.set_amount_minor(p.amount_minor());
    entry.set_balance_after_minor(p.balance_after_minor());
    entry.set_occurred_at_micros(envelope.occurred_at_micros());
    entry.set_memo(tx.memo());
    txn.Put(StatementKey(info->player_id, envelope.occurred_at_micros(),
                         tx.tx_id(), i),
            entry.SerializeAsString());
  }
  bool clamped = false;
  const int64_t credited = ledger::ClampToInt64(credits, &clamped);
  if (tx.reason() == v1::POSTING_REASON_DEPOSIT) {
    if (auto s = AddInt(txn, "total/deposits", credited); !s.ok()) return s;
  } else if (tx.reason() == v1::POSTING_REASON_WITHDRAWAL) {
    if (auto s = AddInt(txn, "total/withdrawals", credited); !s.ok()) {
      return s;
    }
  }
  return AddInt(txn, "total/transactions", 1);
}

}  // namespace

std::string BalanceKey(std::string_view account) {
  return absl::StrCat("bal/", ToAbsl(account));
}

std::string StatementPrefix(std::string_view player_id) {
  return absl::StrCat("stmt/", ToAbsl(player_id), "/");
}

absl::StatusOr<int64_t> ReadInt(const projection::ProjectionStore& store,
                                std::string_view key) {
  ASSIGN_OR_RETURN(const std::optional<std::string> v, store.Get(key));
  if (!v.has_value()) return 0;
  int64_t n = 0;
  if (!absl::SimpleAtoi(*v, &n)) {
    return absl::DataLossError("projection value is not a number");
  }
  return n;
}

absl::Status WalletProjector::ApplyWallet(
    const eventlog::StoredRecord&, const wire::DecodedWalletEvent& decoded,
    Txn& txn) {
  const v1::EventEnvelope& envelope = decoded.envelope;
  const v1::WalletEvent& event = decoded.event;
  RETURN_IF_ERROR(AddInt(txn, "total/events", 1));
  switch (event.kind_case()) {
    case v1::WalletEvent::kAccountOpened:
      txn.Put(absl::StrCat("player/", event.account_opened().player_id()),
              absl::StrCat("open ", event.account_opened().currency()));
      return absl::OkStatus();
    case v1::WalletEvent::kAccountClosed: {
      const std::string key =
          absl::StrCat("player/", event.account_closed().player_id());
      ASSIGN_OR_RETURN(const std::optional<std::string> current, txn.Get(key));
      const std::string currency =
          current.has_value() && current->size() > 5 ? current->substr(5) : "";
      txn.Put(key, absl::StrCat("closed ", currency));
      return absl::OkStatus();
    }
    case v1::WalletEvent::kTransactionPosted:
      return ApplyTx(txn, envelope, event.transaction_posted().tx());
    case v1::WalletEvent::kHoldPlaced:
    case v1::WalletEvent::kHoldCaptured:
    case v1::WalletEvent::kHoldReleased: {
      const v1::HoldResponse hold = wire::HoldResponseFrom(event);
      txn.Put(absl::StrCat("hold/", hold.hold_id()), hold.SerializeAsString());
      if (event.has_hold_placed()) {
        return ApplyTx(txn, envelope, event.hold_placed().tx());
      }
      if (event.has_hold_released()) {
        return ApplyTx(txn, envelope, event.hold_released().tx());
      }
      if (auto s = ApplyTx(txn, envelope, event.hold_captured().tx());
          !s.ok()) {
        return s;
      }
      if (event.hold_captured().has_release_tx()) {
        return ApplyTx(txn, envelope, event.hold_captured().release_tx());
      }
      return absl::OkStatus();
    }
    case v1::WalletEvent::kRequestRejected:
    case v1::WalletEvent::kRequestQuarantined:
      return absl::OkStatus();  // nothing moved
    case v1::WalletEvent::KIND_NOT_SET:
      break;
  }
  return absl::DataLossError("wallet event without a kind");
}

}  // namespace banca::projection
