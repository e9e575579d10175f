#include "libs/projection/finance_projection.h"

#include <openssl/evp.h>
#include <sodium.h>

#include <algorithm>
#include <cassert>
#include <memory>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "banca/v1/envelope.pb.h"
#include "banca/v1/reporting.pb.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/ledger/balance_limits.h"
#include "libs/projection/hex_key.h"
#include "libs/projection/txn_values.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "libs/wire/wallet_responses.h"

namespace banca::projection {
namespace {

using ledger::WrappingAdd;

void Add(int64_t& field, int64_t amount) { field = WrappingAdd(field, amount); }

// M's field named `name`, found once per name (a descriptor lookup per
// posting was a tenth of the finance part's time).
template <typename M>
const google::protobuf::FieldDescriptor* FieldOf(std::string_view name) {
  static const auto* const by_name = [] {
    auto* fields =
        new absl::flat_hash_map<std::string,
                                const google::protobuf::FieldDescriptor*>;
    const google::protobuf::Descriptor* d = M::descriptor();
    for (int i = 0; i < d->field_count(); ++i) {
      fields->emplace(d->field(i)->name(), d->field(i));
    }
    return fields;
  }();
  auto it = by_name->find(ToAbsl(name));
  assert(it != by_name->end());
  return it->second;
}

// m.<field> += amount (wrap-around); `field` names an int64 field of m.
template <typename M>
void AddField(M& m, std::string_view field, int64_t amount) {
  const google::protobuf::FieldDescriptor* f = FieldOf<M>(field);
  const google::protobuf::Reflection* r = m.GetReflection();
  r->SetInt64(&m, f, WrappingAdd(r->GetInt64(m, f), amount));
}

// SHA-256 by OpenSSL, which uses the CPU's SHA instructions where it has
// them (libsodium's portable code was a twelfth of a bulk catch-up): the
// same digest, one context per thread.
class Sha256 {
 public:
  Sha256() : ctx_(Context()) {
    ok_ = ctx_ != nullptr && Md() != nullptr &&
          EVP_DigestInit_ex(ctx_, Md(), nullptr) == 1;
  }
  void Update(const void* data, size_t size) {
    ok_ = ok_ && EVP_DigestUpdate(ctx_, data, size) == 1;
  }
  void PutU64(uint64_t n) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i) {
      b[i] = static_cast<unsigned char>(n >> (8 * i));
    }
    Update(b, sizeof(b));
  }
  void PutBytes(std::string_view s) {
    PutU64(s.size());
    Update(s.data(), s.size());
  }
  // The 32 bytes into `out`; INTERNAL if OpenSSL failed on the way.
  absl::Status Final(unsigned char* out) {
    unsigned int size = 0;
    ok_ = ok_ && EVP_DigestFinal_ex(ctx_, out, &size) == 1 &&
          size == crypto_hash_sha256_BYTES;
    return ok_ ? absl::OkStatus() : absl::InternalError("SHA-256 failed");
  }

 private:
  static const EVP_MD* Md() {
    static const EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return md;
  }
  static EVP_MD_CTX* Context() {
    thread_local const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(
        EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    return ctx.get();
  }
  EVP_MD_CTX* const ctx_;
  bool ok_ = false;
};

// A (bucket, topic, partition)'s chain while a txn is open (Txn::Typed):
// its count and 32 bytes, hex-encoded once, when the txn is written.
struct ChainValue final : TxnValue {
  int64_t count = 0;
  std::string chain = std::string(crypto_hash_sha256_BYTES, '\0');
  void WriteTo(const std::string& key, Txn& txn) override {
    txn.Put(key, absl::StrCat(count, " ", absl::BytesToHexString(chain)));
  }
  size_t bytes() const override { return TypedBytes(sizeof(*this) + 32); }
};

// fin/ev/<B>/<topic>/<partition:08x>, without StrFormat.
std::string ChainKey(int64_t bucket, std::string_view topic, int partition) {
  std::string key(kFinanceEventsPrefix);
  AppendHex16(key, static_cast<uint64_t>(bucket) ^ (uint64_t{1} << 63));
  key += '/';
  key += topic;
  key += '/';
  AppendHex8(key, static_cast<uint32_t>(partition));
  return key;
}

// The chain at `key` as the txn has it (32 zero bytes when absent).
absl::StatusOr<std::unique_ptr<ChainValue>> LoadChain(Txn& txn,
                                                      const std::string& key) {
  ASSIGN_OR_RETURN(const std::optional<std::string> v, txn.Get(key));
  auto out = std::make_unique<ChainValue>();
  if (v.has_value()) {
    RETURN_IF_ERROR(ParseEventChain(*v, &out->count, &out->chain));
  }
  return out;
}

// Extends the chain of the record's (bucket, topic, partition).
absl::Status Chain(const eventlog::StoredRecord& record, int64_t bucket,
                   Txn& txn) {
  const std::string key = ChainKey(bucket, record.topic, record.partition);
  ASSIGN_OR_RETURN(ChainValue* const link, txn.Typed<ChainValue>(key, [&] {
    return LoadChain(txn, key);
  }));
  Sha256 sha;
  sha.Update(link->chain.data(), link->chain.size());
  sha.PutU64(static_cast<uint64_t>(record.offset));
  sha.PutBytes(record.key);
  sha.PutBytes(record.value);
  RETURN_IF_ERROR(
      sha.Final(reinterpret_cast<unsigned char*>(link->chain.data())));
  ++link->count;
  return absl::OkStatus();
}

// The FinanceHoldings field an account's balance belongs to.
std::string_view HoldingOf(const ledger::AccountInfo& info,
                           std::string_view account) {
  switch (info.account_class) {
    case ledger::AccountClass::kPlayer:
      return account.ends_with("/held") ? "player_held_minor"
                                        : "player_cash_minor";
    case ledger::AccountClass::kTable:
      return account.find("/seat/") != std::string_view::npos
                 ? "table_seats_minor"
                 : "table_pots_minor";
    case ledger::AccountClass::kGame:
      return "game_wagers_minor";
    case ledger::AccountClass::kTournament:
      if (account.ends_with("/prize_pool")) return "prize_pools_minor";
      if (account.ends_with("/bounties")) return "bounties_minor";
      if (account.find("/tickets/") != std::string_view::npos) {
        return "tickets_minor";
      }
      return "tournament_other_minor";
    case ledger::AccountClass::kHouse:
      return "house_minor";
    case ledger::AccountClass::kExternal:
      return "external_minor";
  }
  return "tournament_other_minor";
}

// Where a transaction's figures go: its game and its table or tournament;
// empty game for a transaction of no game (deposits, holds, buy-ins).
struct Dimensions {
  std::string game;
  std::string table;
  std::string tournament;
};

Dimensions DimensionsOf(const v1::LedgerTransaction& tx) {
  Dimensions d;
  const v1::Reference& ref = tx.reference();
  const auto table_of = [&] {
    const size_t dot = ref.id().rfind('.');
    return dot == std::string::npos ? ref.id() : ref.id().substr(0, dot);
  };
  if (ref.kind() == v1::REFERENCE_KIND_TOURNAMENT) {
    d.game = "tournament";
    d.tournament = ref.id();
  } else if (!tx.game().empty()) {
    d.game = tx.game();
    d.table = table_of();
  } else if (ref.kind() == v1::REFERENCE_KIND_HAND ||
             tx.reason() == v1::POSTING_REASON_RAKE) {
    d.game = "poker";
    d.table = table_of();
  } else if (ref.kind() == v1::REFERENCE_KIND_ROUND) {
    d.game = "banked";  // a round that names no game (as games_projection)
    d.table = table_of();
  }
  return d;
}

// One game transaction's figures.
absl::StatusOr<v1::FinanceFigures> FiguresOf(const v1::LedgerTransaction& tx) {
  v1::FinanceFigures f;
  int64_t stakes = 0, wins = 0, voids = 0, rake = 0, fees = 0, overlay = 0,
          prizes = 0, ggr = 0;
  for (const v1::Posting& p : tx.postings()) {
    ASSIGN_OR_RETURN(const ledger::AccountInfo info,
                     ledger::ParseAccount(p.account()));
    const int64_t amount = p.amount_minor();
    switch (info.account_class) {
      case ledger::AccountClass::kPlayer:
        if (amount <= 0) break;
        if (tx.reference().kind() == v1::REFERENCE_KIND_TOURNAMENT) {
          if (tx.reason() == v1::POSTING_REASON_PRIZE) Add(prizes, amount);
        } else if (tx.reference().kind() == v1::REFERENCE_KIND_ROUND ||
                   !tx.game().empty()) {
          Add(wins, amount);
          if (tx.reason() == v1::POSTING_REASON_VOID_REFUND) {
            Add(voids, amount);
          }
        }
        break;
      case ledger::AccountClass::kGame:
        if (tx.reason() == v1::POSTING_REASON_BET && amount > 0) {
          Add(stakes, amount);
        }
        break;
      case ledger::AccountClass::kHouse:
        Add(ggr, amount);
        if (tx.reason() == v1::POSTING_REASON_RAKE) Add(rake, amount);
        if (p.account() == "house/tournament_fees") Add(fees, amount);
        if (p.account() == "house/overlay") Add(overlay, -amount);
        break;
      default:
        break;
    }
  }
  f.set_stakes_minor(stakes);
  f.set_wins_minor(wins);
  f.set_void_refunds_minor(voids);
  f.set_rake_minor(rake);
  f.set_tournament_fees_minor(fees);
  f.set_overlay_minor(overlay);
  f.set_prizes_minor(prizes);
  f.set_ggr_minor(ggr);
  f.set_transactions(1);
  return f;
}

absl::Status AddFigures(Txn& txn, const std::string& bucket,
                        std::string_view dimension, const std::string& id,
                        const v1::FinanceFigures& delta) {
  if (id.empty()) return absl::OkStatus();
  const std::string key = absl::StrCat(ToAbsl(kFinanceFiguresPrefix), bucket,
                                       "/", ToAbsl(dimension), "/", id);
  ASSIGN_OR_RETURN(v1::FinanceFigures* const f,
                   TypedMessage<v1::FinanceFigures>(txn, key));
  if (f->id().empty()) {  // new (a stored one has both)
    f->set_dimension(std::string(dimension));
    f->set_id(id);
  }
  AddFinanceFigures(*f, delta);
  return absl::OkStatus();
}

// What `tx` moved: holdings, payments and, for a game, its figures.
absl::Status ApplyTx(const v1::LedgerTransaction& tx, const std::string& bucket,
                     v1::FinanceHoldings& holdings,
                     v1::FinancePayments& payments, Txn& txn) {
  const Dimensions dims = DimensionsOf(tx);
  const v1::PostingReason reason = tx.reason();
  for (const v1::Posting& p : tx.postings()) {
    ASSIGN_OR_RETURN(const ledger::AccountInfo info,
                     ledger::ParseAccount(p.account()));
    const int64_t amount = p.amount_minor();
    AddField(holdings, HoldingOf(info, p.account()), amount);
    std::string_view field;
    int64_t value = amount;
    switch (info.account_class) {
      case ledger::AccountClass::kPlayer:
        if (reason == v1::POSTING_REASON_DEPOSIT && amount > 0) {
          field = "deposits_minor";
        } else if (reason == v1::POSTING_REASON_WITHDRAWAL && amount < 0) {
          field = "withdrawals_minor";
          value = -amount;
        }
        break;
      case ledger::AccountClass::kExternal:
        if (reason == v1::POSTING_REASON_DEPOSIT) {
          field = "external_deposits_minor";
          value = -amount;
        } else if (reason == v1::POSTING_REASON_WITHDRAWAL) {
          field = "external_withdrawals_minor";
        } else {
          field = "external_other_minor";
        }
        break;
      case ledger::AccountClass::kHouse:
        if (dims.game.empty()) field = "house_other_minor";
        break;
      default:
        break;
    }
    if (!field.empty()) AddField(payments, field, value);
  }
  if (reason == v1::POSTING_REASON_DEPOSIT) {
    payments.set_deposits(payments.deposits() + 1);
  } else if (reason == v1::POSTING_REASON_WITHDRAWAL) {
    payments.set_withdrawals(payments.withdrawals() + 1);
  }
  if (dims.game.empty()) return absl::OkStatus();
  ASSIGN_OR_RETURN(const v1::FinanceFigures delta, FiguresOf(tx));
  RETURN_IF_ERROR(AddFigures(txn, bucket, "game", dims.game, delta));
  RETURN_IF_ERROR(AddFigures(txn, bucket, "table", dims.table, delta));
  return AddFigures(txn, bucket, "tournament", dims.tournament, delta);
}

absl::Status SumWallet(const v1::WalletEvent& event, int64_t bucket, Txn& txn) {
  const std::vector<const v1::LedgerTransaction*> txs =
      wire::TransactionsOf(event);
  // A hold is open from its placing until the capture or release that
  // leaves nothing of it (a partial capture leaves it open).
  int holds = 0;
  if (event.has_hold_placed()) {
    holds = 1;
  } else if ((event.has_hold_captured() || event.has_hold_released()) &&
             wire::HoldResponseFrom(event).state() == v1::HOLD_STATE_CLOSED) {
    holds = -1;
  }
  if (txs.empty() && holds == 0) return absl::OkStatus();
  const std::string b = FinanceBucketKey(bucket);
  const std::string hold_key = absl::StrCat(ToAbsl(kFinanceHoldingsPrefix), b);
  const std::string pay_key = absl::StrCat(ToAbsl(kFinancePaymentsPrefix), b);
  ASSIGN_OR_RETURN(v1::FinanceHoldings* const holdings,
                   TypedMessage<v1::FinanceHoldings>(txn, hold_key));
  ASSIGN_OR_RETURN(v1::FinancePayments* const payments,
                   TypedMessage<v1::FinancePayments>(txn, pay_key));
  holdings->set_open_holds(holdings->open_holds() + holds);
  for (const v1::LedgerTransaction* tx : txs) {
    RETURN_IF_ERROR(ApplyTx(*tx, b, *holdings, *payments, txn));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ParseEventChain(std::string_view value, int64_t* count,
                             std::string* chain) {
  const size_t space = value.find(' ');
  const std::string_view hex =
      space == std::string_view::npos ? "" : value.substr(space + 1);
  if (space == std::string_view::npos ||
      !absl::SimpleAtoi(ToAbsl(value.substr(0, space)), count) ||
      hex.size() != 2 * crypto_hash_sha256_BYTES ||
      !std::all_of(hex.begin(), hex.end(), [](char c) {
        return absl::ascii_isxdigit(static_cast<unsigned char>(c));
      })) {
    return absl::DataLossError("an event chain value does not parse");
  }
  *chain = absl::HexStringToBytes(ToAbsl(hex));
  return absl::OkStatus();
}

int64_t FinanceBucketOf(int64_t micros) {
  int64_t q = micros / kFinanceBucketMicros;
  if (micros % kFinanceBucketMicros < 0) --q;
  return q;
}

std::string FinanceBucketKey(int64_t bucket) {
  std::string key;
  AppendHex16(key, static_cast<uint64_t>(bucket) ^ (uint64_t{1} << 63));
  return key;
}

void AddFinanceFigures(v1::FinanceFigures& into,
                       const v1::FinanceFigures& delta) {
  into.set_stakes_minor(WrappingAdd(into.stakes_minor(), delta.stakes_minor()));
  into.set_wins_minor(WrappingAdd(into.wins_minor(), delta.wins_minor()));
  into.set_void_refunds_minor(
      WrappingAdd(into.void_refunds_minor(), delta.void_refunds_minor()));
  into.set_rake_minor(WrappingAdd(into.rake_minor(), delta.rake_minor()));
  into.set_tournament_fees_minor(
      WrappingAdd(into.tournament_fees_minor(), delta.tournament_fees_minor()));
  into.set_overlay_minor(
      WrappingAdd(into.overlay_minor(), delta.overlay_minor()));
  into.set_prizes_minor(WrappingAdd(into.prizes_minor(), delta.prizes_minor()));
  into.set_ggr_minor(WrappingAdd(into.ggr_minor(), delta.ggr_minor()));
  into.set_transactions(WrappingAdd(into.transactions(), delta.transactions()));
}

FinanceProjector::FinanceProjector(std::vector<std::string> topics)
    : topics_(std::move(topics)) {}

absl::Status FinanceProjector::ApplyWallet(
    const eventlog::StoredRecord& record,
    const wire::DecodedWalletEvent& decoded, Txn& txn) {
  const int64_t bucket = FinanceBucketOf(decoded.envelope.occurred_at_micros());
  RETURN_IF_ERROR(Chain(record, bucket, txn));
  return SumWallet(decoded.event, bucket, txn);
}

absl::Status FinanceProjector::ApplyOther(const eventlog::StoredRecord& record,
                                          Txn& txn) {
  v1::EventEnvelope envelope;
  if (!envelope.ParseFromString(record.value)) {
    return absl::DataLossError(
        absl::StrCat("a record of ", record.topic, " is not an envelope"));
  }
  return Chain(record, FinanceBucketOf(envelope.occurred_at_micros()), txn);
}

}  // namespace banca::projection
