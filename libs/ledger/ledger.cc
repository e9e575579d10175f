#include "libs/ledger/ledger.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/container/node_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/money/money.h"

namespace banca::ledger {
namespace {

struct HoldState {
  std::string player_id;
  int64_t amount = 0;
  int64_t captured = 0;
  int64_t remaining = 0;
  bool open = false;
  int64_t expires_at_micros = 0;
};

// Everything that one lock key owns. A player owner holds the player's two
// accounts, registration and holds; any other owner holds one account (or one
// stripe of a hot account) and, if it is a stream's owner, its sequence.
struct Owner {
  absl::flat_hash_map<std::string, int64_t> balances;
  uint64_t stream_seq = 0;
  bool is_player = false;
  bool open = false;
  std::string currency;
  uint64_t holds_created = 0;
  absl::flat_hash_map<std::string, HoldState> holds;
};

struct Shard {
  mutable absl::Mutex mu;
  // Node-based: applying an event holds references to several owners while
  // it may create others in the same shard, so owners must never move.
  absl::node_hash_map<std::string, Owner> owners;
};

size_t HashKey(std::string_view key) {
  return std::hash<std::string_view>{}(key);
}

absl::Status Corrupt(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("ledger replay: ", what));
}

absl::StatusOr<std::pair<std::string, uint64_t>> ParseHoldId(
    std::string_view hold_id) {
  const size_t colon = hold_id.rfind(':');
  uint64_t n = 0;
  if (colon == std::string_view::npos || colon == 0 ||
      !IsValidId(hold_id.substr(0, colon)) ||
      !absl::SimpleAtoi(ToAbsl(hold_id.substr(colon + 1)), &n) || n == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed hold id \"", ToAbsl(hold_id.substr(0, 80)),
                     "\": expected <player>:<n>"));
  }
  return std::make_pair(std::string(hold_id.substr(0, colon)), n);
}

}  // namespace

struct Ledger::Impl {
  Impl(int stripes, int shard_count,
       std::function<absl::Status(std::string_view)> decides_for)
      : hot_stripes(stripes),
        shards(shard_count),
        decides(std::move(decides_for)) {}

  const int hot_stripes;
  std::vector<Shard> shards;
  size_t ShardOf(std::string_view key) const {
    return HashKey(key) % shards.size();
  }
  std::atomic<int64_t> deposits{0};
  std::atomic<int64_t> withdrawals{0};
  std::atomic<int64_t> transactions{0};
  const std::function<absl::Status(std::string_view)> decides;

  // The lock key of `account` when `stream_owner` moves money on it.
  std::string KeyFor(const AccountInfo& info, std::string_view account,
                     std::string_view stream_owner) const {
    if (!info.hot || hot_stripes <= 1) return std::string(info.owner);
    return absl::StrCat(
        ToAbsl(account), "#",
        HashKey(stream_owner) % static_cast<size_t>(hot_stripes));
  }

  // Requires the key's shard to be locked.
  Owner& Get(std::string_view key) {
    return shards[ShardOf(key)].owners[ToAbsl(key)];
  }
  const Owner* Find(std::string_view key) const {
    const auto& owners = shards[ShardOf(key)].owners;
    auto it = owners.find(ToAbsl(key));
    return it == owners.end() ? nullptr : &it->second;
  }
};

namespace {

// Locks the shards of a set of keys in shard order, so two commands never
// wait on each other in a cycle.
class LockSet {
 public:
  template <typename Keys>
  LockSet(const Ledger::Impl& impl, const Keys& keys) {
    const std::vector<Shard>& shards = impl.shards;
    for (const auto& key : keys) indexes_.push_back(impl.ShardOf(key));
    std::sort(indexes_.begin(), indexes_.end());
    indexes_.erase(std::unique(indexes_.begin(), indexes_.end()),
                   indexes_.end());
    for (size_t i : indexes_) {
      shards[i].mu.Lock();
      locked_.push_back(&shards[i].mu);
    }
  }
  ~LockSet() {
    for (auto it = locked_.rbegin(); it != locked_.rend(); ++it) {
      (*it)->Unlock();
    }
  }
  LockSet(const LockSet&) = delete;
  LockSet& operator=(const LockSet&) = delete;

 private:
  absl::InlinedVector<size_t, 8> indexes_;
  absl::InlinedVector<absl::Mutex*, 8> locked_;
};

using Keys = absl::InlinedVector<std::string, 8>;

}  // namespace

Ledger::Ledger(LedgerOptions options)
    : options_(std::move(options)),
      impl_(std::make_unique<Impl>(std::max(1, options_.hot_stripes),
                                   std::max(1, options_.shards),
                                   options_.decides)) {}

Ledger::~Ledger() = default;

std::string Ledger::StreamFor(std::string_view owner) {
  return absl::StrCat("wallet/", ToAbsl(owner));
}

// ---------------------------------------------------------------------------
// Applying events: the one code path for live commands and for replay.

namespace {

struct ApplyContext {
  Ledger::Impl* impl;
  std::string_view stream_owner;
  // Live: write each posting's balance_after. Replay: leave the record as is.
  bool fill_balances;
};

}  // namespace

static absl::Status ApplyTx(const ApplyContext& ctx, v1::LedgerTransaction* tx,
                            const v1::LedgerTransaction& recorded) {
  int64_t sum = 0;
  int64_t credits = 0;
  for (const v1::Posting& p : recorded.postings()) {
    auto s = money::Add(sum, p.amount_minor());
    if (!s.ok()) return Corrupt("posting sum overflows");
    sum = *s;
    if (p.amount_minor() > 0) credits += p.amount_minor();
  }
  if (sum != 0 || recorded.postings_size() < 2) {
    return Corrupt(absl::StrCat("unbalanced transaction ", recorded.tx_id()));
  }
  for (int i = 0; i < recorded.postings_size(); ++i) {
    const v1::Posting& p = recorded.postings(i);
    auto info = ParseAccount(p.account());
    if (!info.ok()) return Corrupt(info.status().message());
    const std::string key =
        ctx.impl->KeyFor(*info, p.account(), ctx.stream_owner);
    int64_t& balance = ctx.impl->Get(key).balances[p.account()];
    auto next = money::Add(balance, p.amount_minor());
    if (!next.ok()) return Corrupt("balance overflows");
    balance = *next;
    if (ctx.fill_balances && !info->hot) {
      tx->mutable_postings(i)->set_balance_after_minor(balance);
    }
  }
  if (recorded.reason() == v1::POSTING_REASON_DEPOSIT) {
    ctx.impl->deposits.fetch_add(credits, std::memory_order_relaxed);
  } else if (recorded.reason() == v1::POSTING_REASON_WITHDRAWAL) {
    ctx.impl->withdrawals.fetch_add(credits, std::memory_order_relaxed);
  }
  ctx.impl->transactions.fetch_add(1, std::memory_order_relaxed);
  return absl::OkStatus();
}

// Requires every key the event touches to be locked. `event` is written
// (balances) only when ctx.fill_balances.
static absl::Status ApplyEvent(const ApplyContext& ctx, uint64_t sequence,
                               v1::WalletEvent* event) {
  Owner& stream = ctx.impl->Get(ctx.stream_owner);
  if (sequence != stream.stream_seq + 1) {
    return Corrupt(absl::StrCat("stream ", ToAbsl(ctx.stream_owner),
                                " expected ", stream.stream_seq + 1, ", got ",
                                sequence));
  }
  switch (event->kind_case()) {
    case v1::WalletEvent::kAccountOpened: {
      const auto& e = event->account_opened();
      Owner& owner = ctx.impl->Get(PlayerOwner(e.player_id()));
      owner.is_player = true;
      owner.open = true;
      owner.currency = e.currency();
      owner.balances.try_emplace(PlayerCashAccount(e.player_id()), 0);
      owner.balances.try_emplace(PlayerHeldAccount(e.player_id()), 0);
      break;
    }
    case v1::WalletEvent::kAccountClosed: {
      Owner& owner =
          ctx.impl->Get(PlayerOwner(event->account_closed().player_id()));
      owner.open = false;
      break;
    }
    case v1::WalletEvent::kTransactionPosted: {
      auto* e = event->mutable_transaction_posted();
      if (auto s = ApplyTx(ctx, e->mutable_tx(), e->tx()); !s.ok()) return s;
      break;
    }
    case v1::WalletEvent::kHoldPlaced: {
      auto* e = event->mutable_hold_placed();
      if (auto s = ApplyTx(ctx, e->mutable_tx(), e->tx()); !s.ok()) return s;
      Owner& owner = ctx.impl->Get(PlayerOwner(e->player_id()));
      owner.holds_created++;
      owner.holds[e->hold_id()] =
          HoldState{e->player_id(), e->amount_minor(),     0, e->amount_minor(),
                    true,           e->expires_at_micros()};
      break;
    }
    case v1::WalletEvent::kHoldCaptured: {
      auto* e = event->mutable_hold_captured();
      auto parsed = ParseHoldId(e->hold_id());
      if (!parsed.ok()) return Corrupt(parsed.status().message());
      Owner& owner = ctx.impl->Get(PlayerOwner(parsed->first));
      auto it = owner.holds.find(e->hold_id());
      if (it == owner.holds.end()) return Corrupt("capture of unknown hold");
      if (auto s = ApplyTx(ctx, e->mutable_tx(), e->tx()); !s.ok()) return s;
      if (e->has_release_tx()) {
        auto s = ApplyTx(ctx, e->mutable_release_tx(), e->release_tx());
        if (!s.ok()) return s;
      }
      it->second.captured += e->amount_minor();
      it->second.remaining = e->remaining_minor();
      it->second.open = e->remaining_minor() > 0;
      break;
    }
    case v1::WalletEvent::kHoldReleased: {
      auto* e = event->mutable_hold_released();
      auto parsed = ParseHoldId(e->hold_id());
      if (!parsed.ok()) return Corrupt(parsed.status().message());
      Owner& owner = ctx.impl->Get(PlayerOwner(parsed->first));
      auto it = owner.holds.find(e->hold_id());
      if (it == owner.holds.end()) return Corrupt("release of unknown hold");
      if (auto s = ApplyTx(ctx, e->mutable_tx(), e->tx()); !s.ok()) return s;
      it->second.remaining = 0;
      it->second.open = false;
      break;
    }
    case v1::WalletEvent::kRequestRejected:
    case v1::WalletEvent::kRequestQuarantined:
      break;  // nothing moved; the stream's sequence records it
    case v1::WalletEvent::KIND_NOT_SET:
      return Corrupt("event without a kind");
  }
  stream.stream_seq = sequence;
  return absl::OkStatus();
}

namespace {

// The lock keys an event touches (for replay, where nothing is decided).
absl::StatusOr<Keys> KeysOf(const Ledger::Impl& impl,
                            std::string_view stream_owner,
                            const v1::WalletEvent& event) {
  Keys keys{std::string(stream_owner)};
  auto add_tx = [&](const v1::LedgerTransaction& tx) -> absl::Status {
    for (const auto& p : tx.postings()) {
      auto info = ParseAccount(p.account());
      if (!info.ok()) return Corrupt(info.status().message());
      keys.push_back(impl.KeyFor(*info, p.account(), stream_owner));
    }
    return absl::OkStatus();
  };
  absl::Status s;
  switch (event.kind_case()) {
    case v1::WalletEvent::kAccountOpened:
      keys.push_back(PlayerOwner(event.account_opened().player_id()));
      break;
    case v1::WalletEvent::kAccountClosed:
      keys.push_back(PlayerOwner(event.account_closed().player_id()));
      break;
    case v1::WalletEvent::kTransactionPosted:
      s = add_tx(event.transaction_posted().tx());
      break;
    case v1::WalletEvent::kHoldPlaced:
      keys.push_back(PlayerOwner(event.hold_placed().player_id()));
      s = add_tx(event.hold_placed().tx());
      break;
    case v1::WalletEvent::kHoldCaptured: {
      auto parsed = ParseHoldId(event.hold_captured().hold_id());
      if (!parsed.ok()) return Corrupt(parsed.status().message());
      keys.push_back(PlayerOwner(parsed->first));
      s = add_tx(event.hold_captured().tx());
      if (s.ok() && event.hold_captured().has_release_tx()) {
        s = add_tx(event.hold_captured().release_tx());
      }
      break;
    }
    case v1::WalletEvent::kHoldReleased: {
      auto parsed = ParseHoldId(event.hold_released().hold_id());
      if (!parsed.ok()) return Corrupt(parsed.status().message());
      keys.push_back(PlayerOwner(parsed->first));
      s = add_tx(event.hold_released().tx());
      break;
    }
    case v1::WalletEvent::kRequestRejected:
    case v1::WalletEvent::kRequestQuarantined:
      break;
    case v1::WalletEvent::KIND_NOT_SET:
      return Corrupt("event without a kind");
  }
  if (!s.ok()) return s;
  return keys;
}

// The owners an event needs the right to decide for: its stream's, and
// those of every constrained account it debits.
absl::Status AddDebitedOwners(const v1::LedgerTransaction& tx, Keys* owners) {
  for (const auto& p : tx.postings()) {
    if (p.amount_minor() >= 0) continue;
    auto info = ParseAccount(p.account());
    if (!info.ok()) return info.status();
    if (!info->hot) owners->push_back(std::string(info->owner));
  }
  return absl::OkStatus();
}

absl::Status CheckDecides(const Ledger::Impl& impl, const Keys& owners) {
  if (!impl.decides) return absl::OkStatus();
  for (const std::string& owner : owners) {
    if (absl::Status s = impl.decides(owner); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<Keys> DecidingOwners(std::string_view stream_owner,
                                    const v1::WalletEvent& event) {
  Keys owners{std::string(stream_owner)};
  auto add_tx = [&](const v1::LedgerTransaction& tx) {
    return AddDebitedOwners(tx, &owners);
  };
  absl::Status s;
  switch (event.kind_case()) {
    case v1::WalletEvent::kTransactionPosted:
      s = add_tx(event.transaction_posted().tx());
      break;
    case v1::WalletEvent::kHoldPlaced:
      s = add_tx(event.hold_placed().tx());
      break;
    case v1::WalletEvent::kHoldCaptured:
      s = add_tx(event.hold_captured().tx());
      if (s.ok() && event.hold_captured().has_release_tx()) {
        s = add_tx(event.hold_captured().release_tx());
      }
      break;
    case v1::WalletEvent::kHoldReleased:
      s = add_tx(event.hold_released().tx());
      break;
    default:
      break;  // opening, closing, rejections: the stream's owner only
  }
  if (!s.ok()) return s;
  return owners;
}

// Decides, applies and commits one command under its locks.
template <typename Decide>
absl::Status Run(Ledger::Impl& impl, const Keys& keys,
                 std::string_view stream_owner, const CommandMeta& meta,
                 Decide&& decide, CommitFn commit) {
  // Another ledger's owner: its state here may be behind, so nothing
  // decided about it here would mean anything.
  if (impl.decides) {
    if (absl::Status s = impl.decides(stream_owner); !s.ok()) return s;
  }
  LockSet locks(impl, keys);
  const Owner* stream_state = impl.Find(stream_owner);
  const uint64_t sequence = (stream_state ? stream_state->stream_seq : 0) + 1;
  const std::string stream = Ledger::StreamFor(stream_owner);
  const std::string event_id = absl::StrCat(stream, "#", sequence);
  v1::WalletEvent event;
  if (absl::Status s = decide(event_id, event); !s.ok()) return s;
  event.set_request_id(meta.request_id);
  event.set_request_fingerprint(meta.fingerprint);
  if (impl.decides) {
    absl::StatusOr<Keys> owners = DecidingOwners(stream_owner, event);
    if (!owners.ok()) return owners.status();
    if (absl::Status s = CheckDecides(impl, *owners); !s.ok()) return s;
  }
  const ApplyContext ctx{&impl, stream_owner, /*fill_balances=*/true};
  // The decision was validated against the same locked state, so applying it
  // cannot fail; if it does, the ledger has a bug and must not go on.
  absl::Status applied = ApplyEvent(ctx, sequence, &event);
  if (!applied.ok()) {
    return absl::InternalError(
        absl::StrCat("ledger invariant broken: ", applied.message()));
  }
  commit(Committed{stream, sequence, event});
  return absl::OkStatus();
}

absl::Status CheckAmount(int64_t amount) {
  if (amount <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("amount must be positive, got ", amount));
  }
  if (amount > money::kMaxAmountMinor) {
    return absl::InvalidArgumentError(absl::StrCat(
        "amount ", amount, " exceeds the limit ", money::kMaxAmountMinor));
  }
  return absl::OkStatus();
}

absl::Status CheckReference(const v1::Reference& ref) {
  if (ref.kind() == v1::REFERENCE_KIND_UNSPECIFIED) {
    return absl::InvalidArgumentError("reference kind is required");
  }
  if (!v1::ReferenceKind_IsValid(ref.kind())) {
    return absl::InvalidArgumentError("unknown reference kind");
  }
  if (!IsValidId(ref.id())) {
    return absl::InvalidArgumentError(
        "reference id must be 1-64 of [A-Za-z0-9_.-]");
  }
  return absl::OkStatus();
}

absl::Status CheckReason(v1::PostingReason reason) {
  if (reason == v1::POSTING_REASON_UNSPECIFIED ||
      !v1::PostingReason_IsValid(reason)) {
    return absl::InvalidArgumentError("a posting reason is required");
  }
  if (reason == v1::POSTING_REASON_HOLD ||
      reason == v1::POSTING_REASON_HOLD_RELEASE) {
    return absl::InvalidArgumentError(
        "hold and hold_release postings are made by the ledger itself");
  }
  return absl::OkStatus();
}

absl::Status CheckPlayer(const Owner* owner, std::string_view player_id) {
  if (owner == nullptr || !owner->is_player) {
    return absl::NotFoundError(
        absl::StrCat("no account for player \"", ToAbsl(player_id), "\""));
  }
  if (!owner->open) {
    return absl::FailedPreconditionError(absl::StrCat(
        "account of player \"", ToAbsl(player_id), "\" is closed"));
  }
  return absl::OkStatus();
}

int64_t BalanceIn(const Owner* owner, const std::string& account) {
  if (owner == nullptr) return 0;
  auto it = owner->balances.find(account);
  return it == owner->balances.end() ? 0 : it->second;
}

v1::Posting* AddPosting(v1::LedgerTransaction& tx, std::string account,
                        int64_t amount) {
  v1::Posting* p = tx.add_postings();
  p->set_account(std::move(account));
  p->set_amount_minor(amount);
  return p;
}

}  // namespace

// ---------------------------------------------------------------------------
// Commands.

absl::Status Ledger::OpenAccount(const CommandMeta& meta,
                                 std::string_view player_id,
                                 std::string_view currency, CommitFn commit) {
  if (!IsValidId(player_id)) {
    return absl::InvalidArgumentError(
        "player id must be 1-64 of [A-Za-z0-9_.-]");
  }
  if (currency != options_.currency) {
    return absl::InvalidArgumentError(
        absl::StrCat("currency \"", ToAbsl(currency.substr(0, 8)),
                     "\" is not this ledger's currency ", options_.currency));
  }
  const std::string owner_key = PlayerOwner(player_id);
  return Run(
      *impl_, Keys{owner_key}, owner_key, meta,
      [&](const std::string&, v1::WalletEvent& event) -> absl::Status {
        const Owner* owner = impl_->Find(owner_key);
        if (owner != nullptr && owner->is_player) {
          return owner->open ? absl::AlreadyExistsError(
                                   absl::StrCat("player \"", ToAbsl(player_id),
                                                "\" already has an account"))
                             : absl::FailedPreconditionError(absl::StrCat(
                                   "account of player \"", ToAbsl(player_id),
                                   "\" was closed and cannot be reopened"));
        }
        auto* e = event.mutable_account_opened();
        e->set_player_id(std::string(player_id));
        e->set_currency(std::string(currency));
        return absl::OkStatus();
      },
      commit);
}

absl::Status Ledger::CloseAccount(const CommandMeta& meta,
                                  std::string_view player_id, CommitFn commit) {
  if (!IsValidId(player_id)) {
    return absl::InvalidArgumentError(
        "player id must be 1-64 of [A-Za-z0-9_.-]");
  }
  const std::string owner_key = PlayerOwner(player_id);
  return Run(
      *impl_, Keys{owner_key}, owner_key, meta,
      [&](const std::string&, v1::WalletEvent& event) -> absl::Status {
        const Owner* owner = impl_->Find(owner_key);
        if (auto s = CheckPlayer(owner, player_id); !s.ok()) return s;
        const int64_t cash = BalanceIn(owner, PlayerCashAccount(player_id));
        const int64_t held = BalanceIn(owner, PlayerHeldAccount(player_id));
        if (cash != 0 || held != 0) {
          return absl::FailedPreconditionError(absl::StrCat(
              "account of player \"", ToAbsl(player_id), "\" still holds ",
              money::Format(cash + held, options_.currency),
              "; withdraw it first"));
        }
        event.mutable_account_closed()->set_player_id(std::string(player_id));
        return absl::OkStatus();
      },
      commit);
}

absl::Status Ledger::RecordRejection(const CommandMeta& meta,
                                     std::string_view player_id,
                                     const v1::Reference& reference,
                                     const absl::Status& why, CommitFn commit) {
  if (!IsValidId(player_id)) {
    return absl::InvalidArgumentError(
        "player id must be 1-64 of [A-Za-z0-9_.-]");
  }
  if (why.ok()) {
    return absl::InvalidArgumentError("a rejection needs a non-OK status");
  }
  const std::string owner_key = PlayerOwner(player_id);
  return Run(
      *impl_, Keys{owner_key}, owner_key, meta,
      [&](const std::string&, v1::WalletEvent& event) -> absl::Status {
        v1::RequestRejected* r = event.mutable_request_rejected();
        r->set_player_id(std::string(player_id));
        *r->mutable_reference() = reference;
        r->set_code(absl::StatusCodeToString(why.code()));
        r->set_message(std::string(why.message().substr(0, kMaxMemoBytes)));
        return absl::OkStatus();
      },
      commit);
}

absl::Status Ledger::RecordQuarantine(const CommandMeta& meta,
                                      std::string_view stream_owner,
                                      const v1::RequestQuarantined& quarantined,
                                      CommitFn commit) {
  constexpr size_t kMaxTopicBytes = 128;
  constexpr size_t kMaxStepBytes = 128;
  constexpr size_t kMaxCodeBytes = 32;
  // Free text from a hostile record may be long or not even UTF-8 (which
  // a protobuf string must be): keep printable ASCII, '?' for the rest.
  auto printable = [](std::string_view text, size_t max) {
    std::string out(text.substr(0, max));
    for (char& c : out) {
      if (c < ' ' || c > '~') c = '?';
    }
    return out;
  };
  const bool player_owner = absl::StartsWith(ToAbsl(stream_owner), "player/") &&
                            IsValidId(stream_owner.substr(7));
  absl::StatusOr<AccountInfo> account = ParseAccount(stream_owner);
  if (!player_owner && (!account.ok() || account->owner != stream_owner ||
                        account->account_class == AccountClass::kPlayer)) {
    return absl::InvalidArgumentError(
        "a quarantine is recorded on a player's or an account's stream");
  }
  const std::string& topic = quarantined.topic();
  if (topic.empty() || topic.size() > kMaxTopicBytes ||
      printable(topic, kMaxTopicBytes) != topic ||
      quarantined.partition() < 0 || quarantined.offset() < 0) {
    return absl::InvalidArgumentError(
        "a quarantine names the request's topic, partition and offset");
  }
  if (quarantined.code().empty()) {
    return absl::InvalidArgumentError("a quarantine needs the failure's code");
  }
  const std::string owner_key(stream_owner);
  return Run(
      *impl_, Keys{owner_key}, owner_key, meta,
      [&](const std::string&, v1::WalletEvent& event) -> absl::Status {
        v1::RequestQuarantined* q = event.mutable_request_quarantined();
        q->set_topic(topic);
        q->set_partition(quarantined.partition());
        q->set_offset(quarantined.offset());
        q->set_step(printable(quarantined.step(), kMaxStepBytes));
        q->set_code(printable(quarantined.code(), kMaxCodeBytes));
        q->set_message(printable(quarantined.message(), kMaxMemoBytes));
        return absl::OkStatus();
      },
      commit);
}

absl::Status Ledger::Post(const CommandMeta& meta,
                          std::string_view stream_owner,
                          v1::LedgerTransaction tx, CommitFn commit) {
  if (auto s = CheckReason(tx.reason()); !s.ok()) return s;
  if (auto s = CheckReference(tx.reference()); !s.ok()) return s;
  if (tx.memo().size() > kMaxMemoBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("memo longer than ", kMaxMemoBytes, " bytes"));
  }
  if (tx.postings_size() < 2 ||
      static_cast<size_t>(tx.postings_size()) > kMaxPostings) {
    return absl::InvalidArgumentError(
        absl::StrCat("a transaction has 2 to ", kMaxPostings, " postings, got ",
                     tx.postings_size()));
  }
  if (tx.currency().empty()) tx.set_currency(options_.currency);
  if (tx.currency() != options_.currency) {
    return absl::InvalidArgumentError(
        absl::StrCat("currency \"", tx.currency().substr(0, 8),
                     "\" is not this ledger's currency ", options_.currency));
  }
  if (impl_->decides) {
    Keys debited;
    if (absl::Status s = AddDebitedOwners(tx, &debited); !s.ok()) return s;
    if (absl::Status s = CheckDecides(*impl_, debited); !s.ok()) return s;
  }
  std::vector<AccountInfo> infos;
  infos.reserve(tx.postings_size());
  Keys keys{std::string(stream_owner)};
  absl::flat_hash_set<std::string> seen;
  int64_t sum = 0;
  for (const v1::Posting& p : tx.postings()) {
    auto info = ParseAccount(p.account());
    if (!info.ok()) return info.status();
    if (!seen.insert(p.account()).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("account ", p.account(), " appears twice"));
    }
    if (info->account_class == AccountClass::kPlayer &&
        absl::EndsWith(p.account(), "/held")) {
      return absl::InvalidArgumentError(
          absl::StrCat(p.account(), " moves only through holds"));
    }
    const int64_t magnitude =
        p.amount_minor() < 0 && p.amount_minor() != INT64_MIN
            ? -p.amount_minor()
            : p.amount_minor();
    if (p.amount_minor() == 0 || p.amount_minor() == INT64_MIN ||
        magnitude > money::kMaxAmountMinor) {
      return absl::InvalidArgumentError(absl::StrCat(
          "posting amount on ", p.account(), " must be non-zero and within ",
          money::kMaxAmountMinor, ", got ", p.amount_minor()));
    }
    sum += p.amount_minor();  // bounded: ≤ 64 × 10^15
    keys.push_back(impl_->KeyFor(*info, p.account(), stream_owner));
    infos.push_back(*std::move(info));
  }
  if (sum != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("postings sum to ", sum, ", not 0"));
  }
  return Run(
      *impl_, keys, stream_owner, meta,
      [&](const std::string& event_id, v1::WalletEvent& event) -> absl::Status {
        for (int i = 0; i < tx.postings_size(); ++i) {
          const v1::Posting& p = tx.postings(i);
          const AccountInfo& info = infos[i];
          if (info.account_class == AccountClass::kPlayer) {
            auto s = CheckPlayer(impl_->Find(info.owner), info.player_id);
            if (!s.ok()) return s;
          }
          if (info.hot) continue;
          const int64_t balance =
              BalanceIn(impl_->Find(info.owner), p.account());
          auto next = money::Add(balance, p.amount_minor());
          if (!next.ok()) {
            return absl::OutOfRangeError(
                absl::StrCat("balance of ", p.account(), " would overflow"));
          }
          if (*next < 0) {
            return absl::FailedPreconditionError(absl::StrCat(
                "insufficient funds in ", p.account(), ": balance ",
                money::Format(balance, options_.currency), ", debit ",
                money::Format(-p.amount_minor(), options_.currency)));
          }
        }
        tx.set_tx_id(event_id);
        // `infos` views into tx's account names are not used past here.
        *event.mutable_transaction_posted()->mutable_tx() = std::move(tx);
        return absl::OkStatus();
      },
      commit);
}

absl::Status Ledger::PlaceHold(const CommandMeta& meta,
                               std::string_view player_id, int64_t amount,
                               v1::PostingReason purpose,
                               const v1::Reference& reference,
                               int64_t expires_at_micros, CommitFn commit) {
  if (!IsValidId(player_id)) {
    return absl::InvalidArgumentError(
        "player id must be 1-64 of [A-Za-z0-9_.-]");
  }
  if (auto s = CheckAmount(amount); !s.ok()) return s;
  if (auto s = CheckReason(purpose); !s.ok()) return s;
  if (auto s = CheckReference(reference); !s.ok()) return s;
  const std::string owner_key = PlayerOwner(player_id);
  return Run(
      *impl_, Keys{owner_key}, owner_key, meta,
      [&](const std::string& event_id, v1::WalletEvent& event) -> absl::Status {
        const Owner* owner = impl_->Find(owner_key);
        if (auto s = CheckPlayer(owner, player_id); !s.ok()) return s;
        const std::string cash = PlayerCashAccount(player_id);
        const int64_t available = BalanceIn(owner, cash);
        if (available < amount) {
          return absl::FailedPreconditionError(absl::StrCat(
              "insufficient funds for a hold of ",
              money::Format(amount, options_.currency), ": available ",
              money::Format(available, options_.currency)));
        }
        auto* e = event.mutable_hold_placed();
        e->set_hold_id(
            absl::StrCat(ToAbsl(player_id), ":", owner->holds_created + 1));
        e->set_player_id(std::string(player_id));
        e->set_amount_minor(amount);
        e->set_expires_at_micros(expires_at_micros);
        e->set_purpose(purpose);
        *e->mutable_reference() = reference;
        v1::LedgerTransaction& tx = *e->mutable_tx();
        tx.set_tx_id(event_id);
        tx.set_reason(v1::POSTING_REASON_HOLD);
        *tx.mutable_reference() = reference;
        tx.set_currency(options_.currency);
        AddPosting(tx, cash, -amount);
        AddPosting(tx, PlayerHeldAccount(player_id), amount);
        return absl::OkStatus();
      },
      commit);
}

absl::Status Ledger::CaptureHold(const CommandMeta& meta,
                                 std::string_view hold_id, int64_t amount,
                                 std::string_view to_account,
                                 v1::PostingReason reason,
                                 const v1::Reference& reference, bool final,
                                 CommitFn commit) {
  auto parsed = ParseHoldId(hold_id);
  if (!parsed.ok()) return parsed.status();
  const std::string& player_id = parsed->first;
  if (auto s = CheckAmount(amount); !s.ok()) return s;
  if (auto s = CheckReason(reason); !s.ok()) return s;
  if (auto s = CheckReference(reference); !s.ok()) return s;
  auto to = ParseAccount(to_account);
  if (!to.ok()) return to.status();
  if (to->account_class == AccountClass::kPlayer &&
      absl::EndsWith(ToAbsl(to_account), "/held")) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(to_account), " moves only through holds"));
  }
  const std::string owner_key = PlayerOwner(player_id);
  Keys keys{owner_key, impl_->KeyFor(*to, to_account, owner_key)};
  return Run(
      *impl_, keys, owner_key, meta,
      [&](const std::string& event_id, v1::WalletEvent& event) -> absl::Status {
        const Owner* owner = impl_->Find(owner_key);
        const HoldState* hold = nullptr;
        if (owner != nullptr) {
          auto it = owner->holds.find(ToAbsl(hold_id));
          if (it != owner->holds.end()) hold = &it->second;
        }
        if (hold == nullptr) {
          return absl::NotFoundError(
              absl::StrCat("no hold \"", ToAbsl(hold_id), "\""));
        }
        if (!hold->open) {
          return absl::FailedPreconditionError(
              absl::StrCat("hold \"", ToAbsl(hold_id), "\" is closed"));
        }
        if (amount > hold->remaining) {
          return absl::FailedPreconditionError(absl::StrCat(
              "capture of ", money::Format(amount, options_.currency),
              " exceeds what hold \"", ToAbsl(hold_id), "\" has left, ",
              money::Format(hold->remaining, options_.currency)));
        }
        if (to->account_class == AccountClass::kPlayer) {
          auto s = CheckPlayer(impl_->Find(to->owner), to->player_id);
          if (!s.ok()) return s;
        }
        const int64_t left = hold->remaining - amount;
        const bool release_rest = final && left > 0;
        auto* e = event.mutable_hold_captured();
        e->set_hold_id(std::string(hold_id));
        e->set_amount_minor(amount);
        e->set_remaining_minor(release_rest ? 0 : left);
        e->set_hold_amount_minor(hold->amount);
        e->set_captured_total_minor(hold->captured + amount);
        e->set_player_id(player_id);
        e->set_expires_at_micros(hold->expires_at_micros);
        v1::LedgerTransaction& tx = *e->mutable_tx();
        tx.set_tx_id(event_id);
        tx.set_reason(reason);
        *tx.mutable_reference() = reference;
        tx.set_currency(options_.currency);
        AddPosting(tx, PlayerHeldAccount(player_id), -amount);
        AddPosting(tx, std::string(to_account), amount);
        if (release_rest) {
          v1::LedgerTransaction& rtx = *e->mutable_release_tx();
          rtx.set_tx_id(absl::StrCat(event_id, "/release"));
          rtx.set_reason(v1::POSTING_REASON_HOLD_RELEASE);
          *rtx.mutable_reference() = reference;
          rtx.set_currency(options_.currency);
          AddPosting(rtx, PlayerHeldAccount(player_id), -left);
          AddPosting(rtx, PlayerCashAccount(player_id), left);
        }
        return absl::OkStatus();
      },
      commit);
}

absl::Status Ledger::ReleaseHold(const CommandMeta& meta,
                                 std::string_view hold_id, bool expired,
                                 CommitFn commit) {
  auto parsed = ParseHoldId(hold_id);
  if (!parsed.ok()) return parsed.status();
  const std::string& player_id = parsed->first;
  const std::string owner_key = PlayerOwner(player_id);
  return Run(
      *impl_, Keys{owner_key}, owner_key, meta,
      [&](const std::string& event_id, v1::WalletEvent& event) -> absl::Status {
        const Owner* owner = impl_->Find(owner_key);
        const HoldState* hold = nullptr;
        if (owner != nullptr) {
          auto it = owner->holds.find(ToAbsl(hold_id));
          if (it != owner->holds.end()) hold = &it->second;
        }
        if (hold == nullptr) {
          return absl::NotFoundError(
              absl::StrCat("no hold \"", ToAbsl(hold_id), "\""));
        }
        if (!hold->open) {
          return absl::FailedPreconditionError(
              absl::StrCat("hold \"", ToAbsl(hold_id), "\" is closed"));
        }
        auto* e = event.mutable_hold_released();
        e->set_hold_id(std::string(hold_id));
        e->set_amount_minor(hold->remaining);
        e->set_expired(expired);
        e->set_hold_amount_minor(hold->amount);
        e->set_captured_total_minor(hold->captured);
        e->set_player_id(player_id);
        e->set_expires_at_micros(hold->expires_at_micros);
        v1::LedgerTransaction& tx = *e->mutable_tx();
        tx.set_tx_id(event_id);
        tx.set_reason(v1::POSTING_REASON_HOLD_RELEASE);
        tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_OPERATOR);
        tx.mutable_reference()->set_id(expired ? "hold-expired"
                                               : "hold-released");
        tx.set_currency(options_.currency);
        AddPosting(tx, PlayerHeldAccount(player_id), -hold->remaining);
        AddPosting(tx, PlayerCashAccount(player_id), hold->remaining);
        return absl::OkStatus();
      },
      commit);
}

// ---------------------------------------------------------------------------
// Replay and queries.

namespace {

// A recorded event, applied as it was decided. With `skip_applied`, an
// event the stream already has is skipped (false) instead of refused.
absl::StatusOr<bool> ApplyRecorded(Ledger::Impl& impl, std::string_view stream,
                                   uint64_t sequence,
                                   const v1::WalletEvent& event,
                                   bool skip_applied) {
  constexpr std::string_view kPrefix = "wallet/";
  if (stream.substr(0, kPrefix.size()) != kPrefix) {
    return Corrupt(absl::StrCat("not a wallet stream: ", ToAbsl(stream)));
  }
  const std::string_view owner = stream.substr(kPrefix.size());
  auto keys = KeysOf(impl, owner, event);
  if (!keys.ok()) return keys.status();
  LockSet locks(impl, *keys);
  if (skip_applied) {
    const Owner* state = impl.Find(owner);
    if (state != nullptr && sequence <= state->stream_seq) return false;
  }
  const ApplyContext ctx{&impl, owner, /*fill_balances=*/false};
  // ApplyEvent writes only when filling balances, so this cast is safe.
  absl::Status s =
      ApplyEvent(ctx, sequence, const_cast<v1::WalletEvent*>(&event));
  if (!s.ok()) return s;
  return true;
}

}  // namespace

absl::Status Ledger::Apply(std::string_view stream, uint64_t sequence,
                           const v1::WalletEvent& event) {
  return ApplyRecorded(*impl_, stream, sequence, event, false).status();
}

absl::StatusOr<bool> Ledger::ApplyIfNext(std::string_view stream,
                                         uint64_t sequence,
                                         const v1::WalletEvent& event) {
  return ApplyRecorded(*impl_, stream, sequence, event, true);
}

absl::StatusOr<PlayerBalance> Ledger::Balance(
    std::string_view player_id) const {
  if (!IsValidId(player_id)) {
    return absl::InvalidArgumentError(
        "player id must be 1-64 of [A-Za-z0-9_.-]");
  }
  const std::string key = PlayerOwner(player_id);
  absl::MutexLock lock(&impl_->shards[impl_->ShardOf(key)].mu);
  const Owner* owner = impl_->Find(key);
  if (owner == nullptr || !owner->is_player) {
    return absl::NotFoundError(
        absl::StrCat("no account for player \"", ToAbsl(player_id), "\""));
  }
  return PlayerBalance{
      owner->currency, BalanceIn(owner, PlayerCashAccount(player_id)),
      BalanceIn(owner, PlayerHeldAccount(player_id)), owner->open};
}

absl::StatusOr<HoldView> Ledger::Hold(std::string_view hold_id) const {
  auto parsed = ParseHoldId(hold_id);
  if (!parsed.ok()) return parsed.status();
  const std::string key = PlayerOwner(parsed->first);
  absl::MutexLock lock(&impl_->shards[impl_->ShardOf(key)].mu);
  const Owner* owner = impl_->Find(key);
  if (owner != nullptr) {
    auto it = owner->holds.find(ToAbsl(hold_id));
    if (it != owner->holds.end()) {
      const HoldState& h = it->second;
      return HoldView{std::string(hold_id), h.player_id, h.amount,
                      h.captured,           h.remaining, h.open,
                      h.expires_at_micros};
    }
  }
  return absl::NotFoundError(absl::StrCat("no hold \"", ToAbsl(hold_id), "\""));
}

int64_t Ledger::AccountBalance(std::string_view account) const {
  auto info = ParseAccount(account);
  if (!info.ok()) return 0;
  const int stripes = info->hot ? impl_->hot_stripes : 1;
  int64_t total = 0;
  for (int s = 0; s < stripes; ++s) {
    const std::string key = stripes == 1
                                ? std::string(info->owner)
                                : absl::StrCat(ToAbsl(account), "#", s);
    absl::MutexLock lock(&impl_->shards[impl_->ShardOf(key)].mu);
    total += BalanceIn(impl_->Find(key), std::string(account));
  }
  return total;
}

LedgerSummary Ledger::Summarize() const {
  LedgerSummary summary;
  absl::flat_hash_set<std::string> hot_accounts;
  for (const Shard& shard : impl_->shards) {
    absl::MutexLock lock(&shard.mu);
    for (const auto& [key, owner] : shard.owners) {
      if (owner.is_player) summary.players++;
      for (const auto& [account, holds] : owner.holds) {
        if (holds.open) summary.open_holds++;
      }
      for (const auto& [account, balance] : owner.balances) {
        auto info = ParseAccount(account);
        if (!info.ok()) continue;
        ClassTotal& total =
            summary.classes[static_cast<int>(info->account_class)];
        total.balance += balance;
        summary.sum += balance;
        if (info->hot) {
          if (hot_accounts.insert(account).second) total.accounts++;
        } else {
          total.accounts++;
          if (balance < 0) summary.negative_constrained_accounts++;
        }
      }
    }
  }
  summary.deposits = impl_->deposits.load();
  summary.withdrawals = impl_->withdrawals.load();
  summary.transactions = impl_->transactions.load();
  return summary;
}

std::vector<std::string> Ledger::ExpiredHolds(
    int64_t now_micros, size_t max,
    const std::function<bool(std::string_view owner)>& of_owner) const {
  std::vector<std::string> expired;
  for (const Shard& shard : impl_->shards) {
    absl::MutexLock lock(&shard.mu);
    for (const auto& [key, owner] : shard.owners) {
      if (owner.holds.empty()) continue;
      if (of_owner && !of_owner(key)) continue;
      for (const auto& [id, hold] : owner.holds) {
        if (hold.open && hold.expires_at_micros <= now_micros) {
          expired.push_back(id);
          if (expired.size() >= max) return expired;
        }
      }
    }
  }
  return expired;
}

}  // namespace banca::ledger
