#include "libs/ledger/ledger.h"

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/container/node_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/ledger/epoch_gates.h"
#include "libs/ledger/hold_checks.h"
#include "libs/ledger/invariant.h"
#include "libs/ledger/replay_error.h"
#include "libs/money/money.h"

namespace banca::ledger {
namespace {

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
  // Plain std primitives rather than absl::Mutex: Debian's Abseil is not
  // built with TSan annotations, so ThreadSanitizer could not see through
  // absl::Mutex and the ledger could not be race-checked (docs/security.md,
  // "Fuzzing and sanitizers").
  mutable std::mutex mu;
  // Node-based: applying an event holds references to several owners while
  // it may create others in the same shard, so owners must never move.
  absl::node_hash_map<std::string, Owner> owners;
};

size_t HashKey(std::string_view key) {
  return std::hash<std::string_view>{}(key);
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
  Impl(int stripes, int shard_count, std::string ledger_currency,
       std::function<absl::Status(std::string_view)> decides_for)
      : hot_stripes(stripes),
        currency(std::move(ledger_currency)),
        shards(shard_count),
        decides(std::move(decides_for)) {}

  const int hot_stripes;
  const std::string currency;
  std::vector<Shard> shards;
  // Every writer passes one, shared, around its shard locks; a reader of
  // the whole ledger closes them all (epoch_gates.h).
  mutable EpochGates gates;
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
    return absl::StrCat(ToAbsl(account), "#",
                        Ledger::HotStripeFor(stream_owner, hot_stripes));
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
  Owner* Find(std::string_view key) {
    auto& owners = shards[ShardOf(key)].owners;
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
      shards[i].mu.lock();
      locked_.push_back(&shards[i].mu);
    }
  }
  ~LockSet() {
    for (auto it = locked_.rbegin(); it != locked_.rend(); ++it) {
      (*it)->unlock();
    }
  }
  LockSet(const LockSet&) = delete;
  LockSet& operator=(const LockSet&) = delete;

 private:
  absl::InlinedVector<size_t, 8> indexes_;
  absl::InlinedVector<std::mutex*, 8> locked_;
};

using Keys = absl::InlinedVector<std::string, 8>;

}  // namespace

Ledger::Ledger(LedgerOptions options)
    : options_(std::move(options)),
      impl_(std::make_unique<Impl>(std::max(1, options_.hot_stripes),
                                   std::max(1, options_.shards),
                                   options_.currency, options_.decides)) {}

Ledger::~Ledger() = default;

std::string Ledger::StreamFor(std::string_view owner) {
  return absl::StrCat("wallet/", ToAbsl(owner));
}

int Ledger::HotStripeFor(std::string_view stream_owner, int stripes) {
  if (stripes <= 1) return 0;
  return static_cast<int>(HashKey(stream_owner) % static_cast<size_t>(stripes));
}

// ---------------------------------------------------------------------------
// Applying events: the one code path for live commands and for replay. An
// event is planned first (every new balance computed, the event's shape
// checked) and written only when the whole plan stands, so an event that
// fails changes nothing.

namespace {

enum class Arithmetic {
  // A live decision: exact (128-bit). The decision's limits are checked on
  // the plan, and keep every balance within int64, before it is written.
  kExact,
  // A recorded event (replay, following): wrap-around, which commutes, so
  // events of different streams may come in any order (balance_limits.h).
  kWrapping,
};

// One account's balance (or one stripe's) as the event leaves it.
struct PlannedBalance {
  // The lock key of the owner or stripe that keeps it, and that owner if it
  // exists yet (owners never move: node-based maps).
  std::string key;
  Owner* owner = nullptr;
  // Views the event's posting, which outlives the plan.
  std::string_view account;
  bool hot = false;
  // Before the event, then after each of its postings.
  __int128 balance = 0;
  bool debited = false;
  bool credited = false;
};

// One posting and the balance it leaves.
struct PlannedPosting {
  size_t balance;  // index into EventPlan::balances
  int64_t amount;
  __int128 before;
  __int128 after;
};

struct EventPlan {
  absl::InlinedVector<PlannedBalance, 4> balances;
  // In the order of the event's transactions and of their postings.
  absl::InlinedVector<PlannedPosting, 4> postings;
  __int128 deposits = 0;
  __int128 withdrawals = 0;
  int64_t transactions = 0;
};

// The transactions an event carries, in the order they apply.
absl::InlinedVector<const v1::LedgerTransaction*, 2> TxsOf(
    const v1::WalletEvent& event) {
  switch (event.kind_case()) {
    case v1::WalletEvent::kTransactionPosted:
      return {&event.transaction_posted().tx()};
    case v1::WalletEvent::kHoldPlaced:
      return {&event.hold_placed().tx()};
    case v1::WalletEvent::kHoldCaptured: {
      const v1::HoldCaptured& e = event.hold_captured();
      if (e.has_release_tx()) return {&e.tx(), &e.release_tx()};
      return {&e.tx()};
    }
    case v1::WalletEvent::kHoldReleased:
      return {&event.hold_released().tx()};
    default:
      return {};
  }
}

int64_t BalanceIn(const Owner* owner, const std::string& account) {
  if (owner == nullptr) return 0;
  auto it = owner->balances.find(account);
  return it == owner->balances.end() ? 0 : it->second;
}

// Adds every posting of `tx` to the plan. DATA_LOSS (and the plan is to be
// dropped) when the transaction is not one the ledger could have decided.
absl::Status PlanTx(Ledger::Impl& impl, std::string_view stream_owner,
                    const v1::LedgerTransaction& tx, Arithmetic arithmetic,
                    EventPlan* plan) {
  if (tx.postings_size() < 2) {
    return Corrupt(
        absl::StrCat("transaction ", tx.tx_id(), " has fewer than 2 postings"));
  }
  __int128 sum = 0;
  __int128 credits = 0;
  for (const v1::Posting& p : tx.postings()) {
    const int64_t amount = p.amount_minor();
    if (amount > money::kMaxAmountMinor || amount < -money::kMaxAmountMinor) {
      return Corrupt(absl::StrCat("posting of ", amount, " on ", p.account(),
                                  " in ", tx.tx_id(), " exceeds ",
                                  money::kMaxAmountMinor));
    }
    sum += amount;
    if (amount > 0) credits += amount;
  }
  if (sum != 0) {
    return Corrupt(absl::StrCat("unbalanced transaction ", tx.tx_id()));
  }
  for (const v1::Posting& p : tx.postings()) {
    auto info = ParseAccount(p.account());
    if (!info.ok()) return Corrupt(info.status().message());
    std::string key = impl.KeyFor(*info, p.account(), stream_owner);
    size_t index = 0;
    while (index < plan->balances.size() &&
           (plan->balances[index].key != key ||
            plan->balances[index].account != p.account())) {
      ++index;
    }
    if (index == plan->balances.size()) {
      Owner* owner = impl.Find(key);
      const int64_t current = BalanceIn(owner, p.account());
      plan->balances.push_back(PlannedBalance{std::move(key), owner,
                                              p.account(), info->hot, current});
    }
    PlannedBalance& b = plan->balances[index];
    const int64_t amount = p.amount_minor();
    const __int128 before = b.balance;
    b.balance = arithmetic == Arithmetic::kExact
                    ? before + amount
                    : WrappingAdd(static_cast<int64_t>(before), amount);
    (amount < 0 ? b.debited : b.credited) = true;
    plan->postings.push_back(PlannedPosting{index, amount, before, b.balance});
  }
  if (tx.reason() == v1::POSTING_REASON_DEPOSIT) {
    plan->deposits += credits;
  } else if (tx.reason() == v1::POSTING_REASON_WITHDRAWAL) {
    plan->withdrawals += credits;
  }
  plan->transactions++;
  return absl::OkStatus();
}

// The hold a capture or release names, as the locked state has it; null
// when there is none. DATA_LOSS for an id that does not parse.
absl::StatusOr<const HoldState*> LoggedHold(const Ledger::Impl& impl,
                                            std::string_view hold_id) {
  auto parsed = ParseHoldId(hold_id);
  if (!parsed.ok()) return Corrupt(parsed.status().message());
  const Owner* owner = impl.Find(PlayerOwner(parsed->first));
  if (owner == nullptr) return nullptr;
  auto it = owner->holds.find(ToAbsl(hold_id));
  return it == owner->holds.end() ? nullptr : &it->second;
}

// The player a HoldPlaced names, as the locked state has it.
HolderState HolderOf(const Ledger::Impl& impl, const v1::HoldPlaced& e) {
  const Owner* owner = impl.Find(PlayerOwner(e.player_id()));
  if (owner == nullptr) return {};
  return {owner->is_player && owner->open, owner->holds_created,
          owner->holds.contains(e.hold_id())};
}

// A hold event is one the live hold commands could have made from this
// state, and any other event's transactions move no player's held account
// (hold_checks.h). DATA_LOSS naming what is wrong.
absl::Status CheckHoldEvent(const Ledger::Impl& impl,
                            std::string_view stream_owner,
                            const v1::WalletEvent& event) {
  switch (event.kind_case()) {
    case v1::WalletEvent::kHoldPlaced:
      return CheckHoldPlaced(stream_owner, event.hold_placed(),
                             HolderOf(impl, event.hold_placed()));
    case v1::WalletEvent::kHoldCaptured: {
      const v1::HoldCaptured& e = event.hold_captured();
      ASSIGN_OR_RETURN(const HoldState* hold, LoggedHold(impl, e.hold_id()));
      return CheckHoldCaptured(stream_owner, e, hold);
    }
    case v1::WalletEvent::kHoldReleased: {
      const v1::HoldReleased& e = event.hold_released();
      ASSIGN_OR_RETURN(const HoldState* hold, LoggedHold(impl, e.hold_id()));
      return CheckHoldReleased(stream_owner, e, hold);
    }
    default:
      for (const v1::LedgerTransaction* tx : TxsOf(event)) {
        RETURN_IF_ERROR(CheckNoHeldPosting(*tx));
      }
      return absl::OkStatus();
  }
}

// Everything `event` would change, computed from the locked state without
// changing it (nothing is created either). Requires every key the event
// touches to be locked.
absl::StatusOr<EventPlan> PlanEvent(Ledger::Impl& impl,
                                    std::string_view stream_owner,
                                    uint64_t sequence,
                                    const v1::WalletEvent& event,
                                    Arithmetic arithmetic) {
  const Owner* stream = impl.Find(stream_owner);
  const uint64_t at = stream == nullptr ? 0 : stream->stream_seq;
  if (sequence != at + 1) {
    return Corrupt(absl::StrCat("stream ", ToAbsl(stream_owner), " expected ",
                                at + 1, ", got ", sequence));
  }
  if (event.kind_case() == v1::WalletEvent::KIND_NOT_SET) {
    return Corrupt("event without a kind");
  }
  RETURN_IF_ERROR(CheckHoldEvent(impl, stream_owner, event));
  EventPlan plan;
  for (const v1::LedgerTransaction* tx : TxsOf(event)) {
    RETURN_IF_ERROR(PlanTx(impl, stream_owner, *tx, arithmetic, &plan));
  }
  return plan;
}

// Adds `amount` ≥ 0 to a running total, stopping at INT64_MAX (adding
// non-negative amounts that way commutes, so replay order does not matter).
void AddSaturating(std::atomic<int64_t>& total, __int128 amount) {
  int64_t current = total.load(std::memory_order_relaxed);
  bool clamped = false;
  while (!total.compare_exchange_weak(
      current, ClampToInt64(__int128{current} + amount, &clamped),
      std::memory_order_relaxed)) {
  }
}

// The hold a planned capture or release names (PlanEvent found it).
HoldState& PlannedHold(Ledger::Impl& impl, std::string_view hold_id) {
  auto parsed = ParseHoldId(hold_id);
  BANCA_CHECK(parsed.ok());
  Owner* owner = impl.Find(PlayerOwner(parsed->first));
  BANCA_CHECK(owner != nullptr);
  auto it = owner->holds.find(ToAbsl(hold_id));
  BANCA_CHECK(it != owner->holds.end());
  return it->second;
}

// Writes a plan PlanEvent made for `event`. Cannot fail. Requires the same
// locks as PlanEvent, still held.
void WriteEvent(Ledger::Impl& impl, std::string_view stream_owner,
                uint64_t sequence, const EventPlan& plan,
                const v1::WalletEvent& event) {
  for (const PlannedBalance& b : plan.balances) {
    bool clamped = false;
    const int64_t balance = ClampToInt64(b.balance, &clamped);
    BANCA_CHECK(!clamped);  // kExact: the limits; kWrapping: always in range
    Owner& owner = b.owner != nullptr ? *b.owner : impl.Get(b.key);
    owner.balances[ToAbsl(b.account)] = balance;
  }
  switch (event.kind_case()) {
    case v1::WalletEvent::kAccountOpened: {
      const auto& e = event.account_opened();
      Owner& owner = impl.Get(PlayerOwner(e.player_id()));
      owner.is_player = true;
      owner.open = true;
      owner.currency = e.currency();
      owner.balances.try_emplace(PlayerCashAccount(e.player_id()), 0);
      owner.balances.try_emplace(PlayerHeldAccount(e.player_id()), 0);
      break;
    }
    case v1::WalletEvent::kAccountClosed:
      impl.Get(PlayerOwner(event.account_closed().player_id())).open = false;
      break;
    case v1::WalletEvent::kHoldPlaced: {
      const auto& e = event.hold_placed();
      Owner& owner = impl.Get(PlayerOwner(e.player_id()));
      owner.holds_created++;
      const bool placed =
          owner.holds
              .try_emplace(e.hold_id(),
                           HoldState{e.player_id(), e.amount_minor(), 0,
                                     e.amount_minor(), true,
                                     e.expires_at_micros(), e.placed_by()})
              .second;
      // Never over a hold already placed: PlanEvent refused a used id.
      BANCA_CHECK(placed);
      break;
    }
    case v1::WalletEvent::kHoldCaptured: {
      const auto& e = event.hold_captured();
      HoldState& hold = PlannedHold(impl, e.hold_id());
      hold.captured += e.amount_minor();  // at most the hold's amount
      hold.remaining = e.remaining_minor();
      hold.open = e.remaining_minor() > 0;
      break;
    }
    case v1::WalletEvent::kHoldReleased: {
      HoldState& hold = PlannedHold(impl, event.hold_released().hold_id());
      hold.remaining = 0;
      hold.open = false;
      break;
    }
    default:
      break;  // transactions only, or nothing moved (rejections)
  }
  if (plan.deposits > 0) AddSaturating(impl.deposits, plan.deposits);
  if (plan.withdrawals > 0) AddSaturating(impl.withdrawals, plan.withdrawals);
  impl.transactions.fetch_add(plan.transactions, std::memory_order_relaxed);
  impl.Get(stream_owner).stream_seq = sequence;
}

// A live event records the balance each posting on a constrained account
// left (hot accounts' balances are spread over stripes: not recorded).
void FillBalances(const EventPlan& plan, v1::WalletEvent& event) {
  size_t next = 0;
  for (const v1::LedgerTransaction* recorded : TxsOf(event)) {
    // TxsOf views `event`, which the caller may change.
    auto* tx = const_cast<v1::LedgerTransaction*>(recorded);
    for (v1::Posting& p : *tx->mutable_postings()) {
      const PlannedPosting& planned = plan.postings[next++];
      if (plan.balances[planned.balance].hot) continue;
      p.set_balance_after_minor(static_cast<int64_t>(planned.after));
    }
  }
  BANCA_CHECK(next == plan.postings.size());
}

int64_t LimitOf(const Ledger::Impl& impl, const PlannedBalance& b) {
  return b.hot ? StripeLimitMinor(impl.hot_stripes) : kMaxBalanceMinor;
}

std::string FormatWide(__int128 amount, std::string_view currency) {
  bool clamped = false;
  return money::Format(ClampToInt64(amount, &clamped), currency);
}

// The decision's limits, posting by posting, on the plan: a debit may not
// take a constrained account below 0 (FAILED_PRECONDITION, insufficient
// funds: the state refuses it) nor a hot account's stripe below
// -StripeLimitMinor; a credit may not take an account past
// kMaxBalanceMinor, nor a stripe past StripeLimitMinor (OUT_OF_RANGE: the
// amount is valid, but the balance it would make is outside the range the
// ledger keeps; it may pass once the balance has moved). A posting that
// moves a balance back toward its range always passes.
absl::Status CheckDecisionLimits(const Ledger::Impl& impl,
                                 const EventPlan& plan) {
  const std::string& currency = impl.currency;
  for (const PlannedPosting& p : plan.postings) {
    const PlannedBalance& b = plan.balances[p.balance];
    const int64_t limit = LimitOf(impl, b);
    const bool past_top = p.amount > 0 && p.after > limit;
    const bool past_bottom = p.amount < 0 && p.after < (b.hot ? -limit : 0);
    if (!past_top && !past_bottom) continue;
    if (past_bottom && !b.hot) {
      return absl::FailedPreconditionError(
          absl::StrCat("insufficient funds in ", ToAbsl(b.account),
                       ": balance ", FormatWide(p.before, currency), ", debit ",
                       money::Format(-p.amount, currency)));
    }
    const std::string where =
        b.hot ? absl::StrCat("this stream's stripe of ", ToAbsl(b.account),
                             " (", money::Format(kMaxBalanceMinor, currency),
                             " over ", impl.hot_stripes, " stripes)")
              : std::string(b.account);
    return absl::OutOfRangeError(absl::StrCat(
        past_top ? "a credit of " : "a debit of ",
        money::Format(p.amount < 0 ? -p.amount : p.amount, currency),
        " would take ", where, " from ", FormatWide(p.before, currency), " to ",
        FormatWide(p.after, currency), ", past the ledger's limit of ",
        past_top ? "" : "-", money::Format(limit, currency)));
  }
  return absl::OkStatus();
}

// Money invariants of a decision, on the state it wrote (in 128-bit
// arithmetic): each balance is the planned one; a constrained account it
// debited is not negative, an account it credited is within its limit, a
// stripe it debited within its limit; and the balances it wrote moved by
// 0 in all, so the sum of every balance in the ledger, 0, is still 0
// (checked on each event, so no running total is kept: it would only ever
// add these zeros). That each transaction has two postings or more and
// sums to 0 is PlanTx's check, which stops the process on a live decision.
void AssertDecided(const Ledger::Impl& impl, const EventPlan& plan) {
  for (const PlannedBalance& b : plan.balances) {
    const Owner* owner = b.owner != nullptr ? b.owner : impl.Find(b.key);
    BANCA_CHECK(owner != nullptr);
    auto it = owner->balances.find(ToAbsl(b.account));
    BANCA_CHECK(it != owner->balances.end());
    const int64_t stored = it->second;
    BANCA_CHECK(stored == b.balance);
    if (b.debited) BANCA_CHECK(stored >= (b.hot ? -LimitOf(impl, b) : 0));
    if (b.credited) BANCA_CHECK(stored <= LimitOf(impl, b));
  }
  // Each balance is its last posting's (checked above), so this is what
  // the balances moved by.
  __int128 moved = 0;
  for (const PlannedPosting& p : plan.postings) moved += p.after - p.before;
  BANCA_CHECK(moved == 0);
}

// A hold's numbers, copied before a decision changes them.
struct HoldNumbers {
  bool exists = false;
  bool open = false;
  int64_t amount = 0;
  int64_t captured = 0;
  int64_t remaining = 0;
};

// The hold a live hold event names (live events carry the player), as
// it stands now; all zero for any other event or a hold not yet placed.
HoldNumbers HoldNumbersOf(const Ledger::Impl& impl,
                          const v1::WalletEvent& event) {
  const std::string* hold_id = nullptr;
  const std::string* player_id = nullptr;
  switch (event.kind_case()) {
    case v1::WalletEvent::kHoldPlaced:
      hold_id = &event.hold_placed().hold_id();
      player_id = &event.hold_placed().player_id();
      break;
    case v1::WalletEvent::kHoldCaptured:
      hold_id = &event.hold_captured().hold_id();
      player_id = &event.hold_captured().player_id();
      break;
    case v1::WalletEvent::kHoldReleased:
      hold_id = &event.hold_released().hold_id();
      player_id = &event.hold_released().player_id();
      break;
    default:
      return {};
  }
  const Owner* owner = impl.Find(PlayerOwner(*player_id));
  if (owner == nullptr) return {};
  auto it = owner->holds.find(*hold_id);
  if (it == owner->holds.end()) return {};
  const HoldState& h = it->second;
  return {true, h.open, h.amount, h.captured, h.remaining};
}

// Money invariants of a hold decision, on the hold before and after it: a
// hold is never negative (open exactly while something remains); a new
// hold holds its whole amount and has captured nothing; a capture takes a
// positive amount from an open hold and, with what the hold keeps after
// it, never more than the hold had left (so, step by step, a hold never
// captures more than it held); a release leaves nothing; and the player's
// held account moves by exactly what the hold's remainder moved.
void AssertHoldStep(const Ledger::Impl& impl, const v1::WalletEvent& event,
                    HoldNumbers before) {
  const v1::WalletEvent::KindCase kind = event.kind_case();
  if (kind != v1::WalletEvent::kHoldPlaced &&
      kind != v1::WalletEvent::kHoldCaptured &&
      kind != v1::WalletEvent::kHoldReleased) {
    return;
  }
  const HoldNumbers after = HoldNumbersOf(impl, event);
  const std::string* player_id = nullptr;
  switch (event.kind_case()) {
    case v1::WalletEvent::kHoldPlaced:
      player_id = &event.hold_placed().player_id();
      // A new hold starts from nothing. (The id is the player's next one,
      // never used: PlaceHold refuses one in use and replay refuses a log
      // that skipped or reused ids.)
      before = HoldNumbers{};
      BANCA_CHECK(after.amount > 0 && after.captured == 0);
      BANCA_CHECK(after.remaining == after.amount);
      break;
    case v1::WalletEvent::kHoldCaptured: {
      player_id = &event.hold_captured().player_id();
      const int64_t amount = event.hold_captured().amount_minor();
      BANCA_CHECK(before.open && amount > 0);
      BANCA_CHECK(__int128{amount} + after.remaining <= before.remaining);
      break;
    }
    case v1::WalletEvent::kHoldReleased:
      player_id = &event.hold_released().player_id();
      BANCA_CHECK(before.open && after.remaining == 0);
      break;
    default:
      return;
  }
  BANCA_CHECK(after.exists && after.remaining >= 0);
  BANCA_CHECK(after.open == (after.remaining > 0));
  const std::string held = PlayerHeldAccount(*player_id);
  __int128 held_moved = 0;
  for (const v1::LedgerTransaction* tx : TxsOf(event)) {
    for (const v1::Posting& p : tx->postings()) {
      if (p.account() == held) held_moved += p.amount_minor();
    }
  }
  BANCA_CHECK(held_moved == __int128{after.remaining} - before.remaining);
}

}  // namespace

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
  switch (event.kind_case()) {
    case v1::WalletEvent::kAccountOpened:
      keys.push_back(PlayerOwner(event.account_opened().player_id()));
      break;
    case v1::WalletEvent::kAccountClosed:
      keys.push_back(PlayerOwner(event.account_closed().player_id()));
      break;
    case v1::WalletEvent::kHoldPlaced:
      keys.push_back(PlayerOwner(event.hold_placed().player_id()));
      break;
    case v1::WalletEvent::kHoldCaptured: {
      auto parsed = ParseHoldId(event.hold_captured().hold_id());
      if (!parsed.ok()) return Corrupt(parsed.status().message());
      keys.push_back(PlayerOwner(parsed->first));
      break;
    }
    case v1::WalletEvent::kHoldReleased: {
      auto parsed = ParseHoldId(event.hold_released().hold_id());
      if (!parsed.ok()) return Corrupt(parsed.status().message());
      keys.push_back(PlayerOwner(parsed->first));
      break;
    }
    case v1::WalletEvent::kTransactionPosted:
    case v1::WalletEvent::kRequestRejected:
    case v1::WalletEvent::kRequestQuarantined:
      break;
    case v1::WalletEvent::KIND_NOT_SET:
      return Corrupt("event without a kind");
  }
  for (const v1::LedgerTransaction* tx : TxsOf(event)) {
    RETURN_IF_ERROR(add_tx(*tx));
  }
  return keys;
}

// The owners an event needs the right to decide for: its stream's, and
// those of every constrained account it debits.
absl::Status AddDebitedOwners(const v1::LedgerTransaction& tx, Keys* owners) {
  for (const auto& p : tx.postings()) {
    if (p.amount_minor() >= 0) continue;
    ASSIGN_OR_RETURN(auto info, ParseAccount(p.account()));
    if (!info.hot) owners->push_back(std::string(info.owner));
  }
  return absl::OkStatus();
}

absl::Status CheckDecides(const Ledger::Impl& impl, const Keys& owners) {
  if (!impl.decides) return absl::OkStatus();
  for (const std::string& owner : owners) {
    RETURN_IF_ERROR(impl.decides(owner));
  }
  return absl::OkStatus();
}

absl::StatusOr<Keys> DecidingOwners(std::string_view stream_owner,
                                    const v1::WalletEvent& event) {
  Keys owners{std::string(stream_owner)};
  // Opening, closing, rejections carry no transaction: the stream's owner
  // only.
  for (const v1::LedgerTransaction* tx : TxsOf(event)) {
    RETURN_IF_ERROR(AddDebitedOwners(*tx, &owners));
  }
  return owners;
}

// Decides, applies and commits one command under its locks.
// The size an event may have, checked on the event as decided (the balances
// FillBalances adds later are a few bytes a posting, far inside the log's
// record limit).
absl::Status CheckEventSize(const v1::WalletEvent& event) {
  const size_t bytes = event.ByteSizeLong();
  if (bytes <= kMaxWalletEventBytes) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("the command would make an event of ", bytes,
                   " bytes, over the limit of ", kMaxWalletEventBytes,
                   " (are unknown or oversize fields in the request?)"));
}

// Decides, applies and commits one command under its locks: decide fills
// the event; the event is planned and checked against the limits; only a
// plan that stands is written and committed.
template <typename Decide>
absl::Status Run(Ledger::Impl& impl, const Keys& keys,
                 std::string_view stream_owner, const CommandMeta& meta,
                 Decide&& decide, CommitFn commit) {
  // Another ledger's owner: its state here may be behind, so nothing
  // decided about it here would mean anything.
  if (impl.decides) {
    RETURN_IF_ERROR(impl.decides(stream_owner));
  }
  const EpochGates::Pass pass(impl.gates);
  LockSet locks(impl, keys);
  const Owner* stream_state = impl.Find(stream_owner);
  const uint64_t sequence = (stream_state ? stream_state->stream_seq : 0) + 1;
  const std::string stream = Ledger::StreamFor(stream_owner);
  const std::string event_id = absl::StrCat(stream, "#", sequence);
  v1::WalletEvent event;
  RETURN_IF_ERROR(decide(event_id, event));
  event.set_request_id(meta.request_id);
  event.set_request_fingerprint(meta.fingerprint);
  if (!meta.actor.empty()) event.set_actor(meta.actor);
  RETURN_IF_ERROR(CheckEventSize(event));
  if (impl.decides) {
    ASSIGN_OR_RETURN(Keys owners, DecidingOwners(stream_owner, event));
    RETURN_IF_ERROR(CheckDecides(impl, owners));
  }
  // The command built this event from input it validated, against the same
  // locked state: an event that does not plan (unbalanced, unknown hold,
  // wrong sequence) is a bug of the ledger's, never the caller's. Nothing is
  // applied or committed yet; stop rather than serve on.
  absl::StatusOr<EventPlan> plan =
      PlanEvent(impl, stream_owner, sequence, event, Arithmetic::kExact);
  if (!plan.ok()) StopOnInvariantBreak("a decided event", plan.status());
  RETURN_IF_ERROR(CheckDecisionLimits(impl, *plan));
  const HoldNumbers hold_before = HoldNumbersOf(impl, event);
  WriteEvent(impl, stream_owner, sequence, *plan, event);
  FillBalances(*plan, event);
  AssertDecided(impl, *plan);
  AssertHoldStep(impl, event, hold_before);
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
        RETURN_IF_ERROR(CheckPlayer(owner, player_id));
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
  RETURN_IF_ERROR(CheckReason(tx.reason()));
  RETURN_IF_ERROR(CheckReference(tx.reference()));
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
    RETURN_IF_ERROR(AddDebitedOwners(tx, &debited));
    RETURN_IF_ERROR(CheckDecides(*impl_, debited));
  }
  std::vector<AccountInfo> infos;
  infos.reserve(tx.postings_size());
  Keys keys{std::string(stream_owner)};
  absl::flat_hash_set<std::string> seen;
  int64_t sum = 0;
  for (const v1::Posting& p : tx.postings()) {
    ASSIGN_OR_RETURN(auto info, ParseAccount(p.account()));
    if (!seen.insert(p.account()).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("account ", p.account(), " appears twice"));
    }
    if (info.account_class == AccountClass::kPlayer &&
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
    keys.push_back(impl_->KeyFor(info, p.account(), stream_owner));
    infos.push_back(std::move(info));
  }
  if (sum != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("postings sum to ", sum, ", not 0"));
  }
  return Run(
      *impl_, keys, stream_owner, meta,
      [&](const std::string& event_id, v1::WalletEvent& event) -> absl::Status {
        for (const AccountInfo& info : infos) {
          if (info.account_class == AccountClass::kPlayer) {
            RETURN_IF_ERROR(
                CheckPlayer(impl_->Find(info.owner), info.player_id));
          }
        }
        // Balances (funds, the cap, hot stripes) are checked by Run on the
        // event's plan, as for every other command.
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
  RETURN_IF_ERROR(CheckAmount(amount));
  RETURN_IF_ERROR(CheckReason(purpose));
  RETURN_IF_ERROR(CheckReference(reference));
  const std::string owner_key = PlayerOwner(player_id);
  return Run(
      *impl_, Keys{owner_key}, owner_key, meta,
      [&](const std::string& event_id, v1::WalletEvent& event) -> absl::Status {
        const Owner* owner = impl_->Find(owner_key);
        RETURN_IF_ERROR(CheckPlayer(owner, player_id));
        const std::string cash = PlayerCashAccount(player_id);
        const int64_t available = BalanceIn(owner, cash);
        if (available < amount) {
          return absl::FailedPreconditionError(absl::StrCat(
              "insufficient funds for a hold of ",
              money::Format(amount, options_.currency), ": available ",
              money::Format(available, options_.currency)));
        }
        std::string hold_id =
            absl::StrCat(ToAbsl(player_id), ":", owner->holds_created + 1);
        // Replay refuses a log that used ids out of turn, so the next id is
        // free; never write a hold over one that is not.
        if (owner->holds.contains(hold_id)) {
          return absl::InternalError(absl::StrCat(
              "hold id \"", hold_id, "\" is already used; no hold placed"));
        }
        auto* e = event.mutable_hold_placed();
        e->set_hold_id(std::move(hold_id));
        e->set_player_id(std::string(player_id));
        e->set_amount_minor(amount);
        e->set_expires_at_micros(expires_at_micros);
        e->set_purpose(purpose);
        e->set_placed_by(meta.actor);
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
  ASSIGN_OR_RETURN(auto parsed, ParseHoldId(hold_id));
  const std::string& player_id = parsed.first;
  RETURN_IF_ERROR(CheckAmount(amount));
  RETURN_IF_ERROR(CheckReason(reason));
  RETURN_IF_ERROR(CheckReference(reference));
  ASSIGN_OR_RETURN(auto to, ParseAccount(to_account));
  if (to.account_class == AccountClass::kPlayer &&
      absl::EndsWith(ToAbsl(to_account), "/held")) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(to_account), " moves only through holds"));
  }
  const std::string owner_key = PlayerOwner(player_id);
  Keys keys{owner_key, impl_->KeyFor(to, to_account, owner_key)};
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
        if (to.account_class == AccountClass::kPlayer) {
          RETURN_IF_ERROR(CheckPlayer(impl_->Find(to.owner), to.player_id));
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
  ASSIGN_OR_RETURN(auto parsed, ParseHoldId(hold_id));
  const std::string& player_id = parsed.first;
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

// A recorded event, applied as it was decided, with wrap-around arithmetic
// (replay may see streams out of their decision order). With `skip_applied`,
// an event the stream already has is skipped (false) instead of refused.
absl::StatusOr<bool> ApplyRecorded(Ledger::Impl& impl, std::string_view stream,
                                   uint64_t sequence,
                                   const v1::WalletEvent& event,
                                   bool skip_applied) {
  constexpr std::string_view kPrefix = "wallet/";
  if (stream.substr(0, kPrefix.size()) != kPrefix) {
    return Corrupt(absl::StrCat("not a wallet stream: ", ToAbsl(stream)));
  }
  const std::string_view owner = stream.substr(kPrefix.size());
  ASSIGN_OR_RETURN(auto keys, KeysOf(impl, owner, event));
  const EpochGates::Pass pass(impl.gates);
  LockSet locks(impl, keys);
  if (skip_applied) {
    const Owner* state = impl.Find(owner);
    if (state != nullptr && sequence <= state->stream_seq) return false;
  }
  ASSIGN_OR_RETURN(EventPlan plan, PlanEvent(impl, owner, sequence, event,
                                             Arithmetic::kWrapping));
  WriteEvent(impl, owner, sequence, plan, event);
  return true;
}

// DATA_LOSS unless a player's held account holds exactly what the player's
// open holds have left (closed holds have nothing left). Only hold events
// move a held account, and replay checks each of them against its hold
// (hold_checks.h), so this holds of any log that replays; checked once
// more on the end state, for the money no hold accounts for.
absl::Status CheckHeldMatchesHolds(std::string_view key, const Owner& owner) {
  __int128 held = 0;
  std::string_view held_account;
  for (const auto& [account, balance] : owner.balances) {
    auto info = ParseAccount(account);
    if (!info.ok() || info->account_class != AccountClass::kPlayer ||
        !absl::EndsWith(account, "/held")) {
      continue;
    }
    held += balance;
    held_account = account;
  }
  __int128 remaining = 0;
  for (const auto& [id, hold] : owner.holds) remaining += hold.remaining;
  if (held == remaining) return absl::OkStatus();
  bool clamped = false;
  return Corrupt(absl::StrCat(
      held_account.empty() ? ToAbsl(key) : ToAbsl(held_account), " ends at ",
      ClampToInt64(held, &clamped), ", but the open holds of ", ToAbsl(key),
      " have ", ClampToInt64(remaining, &clamped), " left"));
}

// Calls on_owner(key, owner) for every owner and on_account(account, info,
// balance) once for every account: a hot account with the sum of its
// stripes, added with wrap-around (exact whenever the total fits in int64).
// Requires the gates closed (EpochGates::Closed), so that what it visits is
// one point of the ledger: no event is written in part, in some shards and
// not yet in others, while it reads.
template <typename OnOwner, typename OnAccount>
void VisitAccounts(const Ledger::Impl& impl, const EpochGates::Closed&,
                   OnOwner&& on_owner, OnAccount&& on_account) {
  absl::flat_hash_map<std::string, int64_t> hot;
  for (const Shard& shard : impl.shards) {
    std::lock_guard<std::mutex> lock(shard.mu);
    for (const auto& [key, owner] : shard.owners) {
      on_owner(key, owner);
      for (const auto& [account, balance] : owner.balances) {
        auto info = ParseAccount(account);
        if (!info.ok()) continue;
        if (info->hot) {
          int64_t& total = hot[account];
          total = WrappingAdd(total, balance);
        } else {
          on_account(account, *info, balance);
        }
      }
    }
  }
  for (const auto& [account, total] : hot) {
    auto info = ParseAccount(account);
    if (info.ok()) on_account(account, *info, total);
  }
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
  std::lock_guard<std::mutex> lock(impl_->shards[impl_->ShardOf(key)].mu);
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
  ASSIGN_OR_RETURN(auto parsed, ParseHoldId(hold_id));
  const std::string key = PlayerOwner(parsed.first);
  std::lock_guard<std::mutex> lock(impl_->shards[impl_->ShardOf(key)].mu);
  const Owner* owner = impl_->Find(key);
  if (owner != nullptr) {
    auto it = owner->holds.find(ToAbsl(hold_id));
    if (it != owner->holds.end()) {
      const HoldState& h = it->second;
      return HoldView{std::string(hold_id), h.player_id, h.amount,
                      h.captured,           h.remaining, h.open,
                      h.expires_at_micros,  h.placed_by};
    }
  }
  return absl::NotFoundError(absl::StrCat("no hold \"", ToAbsl(hold_id), "\""));
}

int64_t Ledger::AccountBalance(std::string_view account) const {
  auto info = ParseAccount(account);
  if (!info.ok()) return 0;
  const int stripes = info->hot ? impl_->hot_stripes : 1;
  Keys keys;
  for (int s = 0; s < stripes; ++s) {
    keys.push_back(stripes == 1 ? std::string(info->owner)
                                : absl::StrCat(ToAbsl(account), "#", s));
  }
  // Every stripe's shard at once (few, in shard order like a command's),
  // so the stripes are read at one point, not one after another.
  const LockSet locks(*impl_, keys);
  int64_t total = 0;
  for (const std::string& key : keys) {
    // Stripes wrap around like replay does: the total is exact whenever it
    // fits in int64, whatever each stripe holds.
    total =
        WrappingAdd(total, BalanceIn(impl_->Find(key), std::string(account)));
  }
  return total;
}

LedgerSummary Ledger::Summarize() const {
  LedgerSummary summary;
  std::array<__int128, 6> class_totals{};
  __int128 sum = 0;
  // One point of the ledger: every transaction in it whole, or not at all,
  // so the sum is 0 whenever the ledger is sound, however many commands
  // are posting meanwhile (they wait at the gates for the scan).
  const EpochGates::Closed closed(impl_->gates);
  VisitAccounts(
      *impl_, closed,
      [&](std::string_view, const Owner& owner) {
        if (owner.is_player) summary.players++;
        for (const auto& [id, hold] : owner.holds) {
          if (hold.open) summary.open_holds++;
        }
      },
      [&](std::string_view, const AccountInfo& info, int64_t balance) {
        const int c = static_cast<int>(info.account_class);
        class_totals[c] += balance;
        summary.classes[c].accounts++;
        sum += balance;
        if (!info.hot && balance < 0) summary.negative_constrained_accounts++;
      });
  for (size_t c = 0; c < class_totals.size(); ++c) {
    summary.classes[c].balance =
        ClampToInt64(class_totals[c], &summary.clamped);
  }
  summary.sum = ClampToInt64(sum, &summary.clamped);
  summary.deposits = impl_->deposits.load();
  summary.withdrawals = impl_->withdrawals.load();
  summary.transactions = impl_->transactions.load();
  constexpr int64_t kTop = std::numeric_limits<int64_t>::max();
  if (summary.deposits == kTop || summary.withdrawals == kTop) {
    summary.clamped = true;
  }
  return summary;
}

absl::Status Ledger::CheckReplayedState() const {
  absl::Status first;
  __int128 sum = 0;
  const EpochGates::Closed closed(impl_->gates);
  VisitAccounts(
      *impl_, closed,
      [&](std::string_view key, const Owner& owner) {
        if (first.ok()) first = CheckHeldMatchesHolds(key, owner);
      },
      [&](std::string_view account, const AccountInfo&, int64_t balance) {
        sum += balance;
        if (first.ok() &&
            (balance > kMaxBalanceMinor || balance < -kMaxBalanceMinor)) {
          first = Corrupt(
              absl::StrCat(ToAbsl(account), " ends at ",
                           money::Format(balance, options_.currency),
                           ", past the balance limit of ±",
                           money::Format(kMaxBalanceMinor, options_.currency),
                           " that every decision keeps"));
        }
      });
  if (!first.ok()) return first;
  if (sum != 0) {
    bool clamped = false;
    return Corrupt(absl::StrCat("the balances sum to ",
                                ClampToInt64(sum, &clamped), ", not 0"));
  }
  return absl::OkStatus();
}

std::vector<std::string> Ledger::ExpiredHolds(
    int64_t now_micros, size_t max,
    const std::function<bool(std::string_view owner)>& of_owner) const {
  std::vector<std::string> expired;
  for (const Shard& shard : impl_->shards) {
    std::lock_guard<std::mutex> lock(shard.mu);
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

// ---------------------------------------------------------------------------
// Snapshots.

namespace {

// Owners whose stripe a build must agree on to load another's snapshot.
constexpr std::string_view kStripeProbe[] = {"player/a", "player/b",
                                             "table/t1/pot", "house/rake"};

std::vector<int32_t> StripeProbe(int stripes) {
  std::vector<int32_t> probe;
  for (std::string_view owner : kStripeProbe) {
    probe.push_back(Ledger::HotStripeFor(owner, stripes));
  }
  return probe;
}

void CopyOwner(const std::string& key, const Owner& owner,
               v1::LedgerOwnerState* out) {
  out->set_key(key);
  out->set_stream_seq(owner.stream_seq);
  out->set_is_player(owner.is_player);
  out->set_open(owner.open);
  out->set_currency(owner.currency);
  out->set_holds_created(owner.holds_created);
  for (const auto& [account, balance] : owner.balances) {
    v1::LedgerBalanceState* b = out->add_balances();
    b->set_account(account);
    b->set_balance_minor(balance);
  }
  for (const auto& [id, hold] : owner.holds) {
    v1::LedgerHoldState* h = out->add_holds();
    h->set_hold_id(id);
    h->set_player_id(hold.player_id);
    h->set_amount_minor(hold.amount);
    h->set_captured_minor(hold.captured);
    h->set_remaining_minor(hold.remaining);
    h->set_open(hold.open);
    h->set_expires_at_micros(hold.expires_at_micros);
    h->set_placed_by(hold.placed_by);
  }
}

void SortOwner(v1::LedgerOwnerState& owner) {
  auto* balances = owner.mutable_balances();
  std::sort(
      balances->pointer_begin(), balances->pointer_end(),
      [](const auto* a, const auto* b) { return a->account() < b->account(); });
  auto* holds = owner.mutable_holds();
  std::sort(
      holds->pointer_begin(), holds->pointer_end(),
      [](const auto* a, const auto* b) { return a->hold_id() < b->hold_id(); });
}

void RestoreOwner(const v1::LedgerOwnerState& in, Owner& owner) {
  owner.stream_seq = in.stream_seq();
  owner.is_player = in.is_player();
  owner.open = in.open();
  owner.currency = in.currency();
  owner.holds_created = in.holds_created();
  for (const v1::LedgerBalanceState& b : in.balances()) {
    owner.balances[b.account()] = b.balance_minor();
  }
  for (const v1::LedgerHoldState& h : in.holds()) {
    owner.holds[h.hold_id()] = HoldState{
        .player_id = h.player_id(),
        .amount = h.amount_minor(),
        .captured = h.captured_minor(),
        .remaining = h.remaining_minor(),
        .open = h.open(),
        .expires_at_micros = h.expires_at_micros(),
        .placed_by = h.placed_by(),
    };
  }
}

}  // namespace

absl::Duration Ledger::ExportState(v1::LedgerState* out,
                                   absl::FunctionRef<void()> at_point) const {
  out->Clear();
  out->set_currency(options_.currency);
  out->set_hot_stripes(impl_->hot_stripes);
  for (int32_t s : StripeProbe(impl_->hot_stripes)) out->add_stripe_probe(s);
  absl::Duration paused;
  {
    const absl::Time closing = absl::Now();
    const EpochGates::Closed closed(impl_->gates);
    at_point();
    out->set_deposits_minor(impl_->deposits.load());
    out->set_withdrawals_minor(impl_->withdrawals.load());
    out->set_transactions(impl_->transactions.load());
    for (const Shard& shard : impl_->shards) {
      std::lock_guard<std::mutex> lock(shard.mu);
      for (const auto& [key, owner] : shard.owners) {
        CopyOwner(key, owner, out->add_owners());
      }
    }
    paused = absl::Now() - closing;
  }
  auto* owners = out->mutable_owners();
  std::sort(owners->pointer_begin(), owners->pointer_end(),
            [](const auto* a, const auto* b) { return a->key() < b->key(); });
  for (v1::LedgerOwnerState& owner : *owners) SortOwner(owner);
  return paused;
}

absl::Status Ledger::ImportState(const v1::LedgerState& state) {
  if (state.currency() != options_.currency) {
    return absl::FailedPreconditionError(
        absl::StrCat("the state is in ", state.currency(), ", the ledger in ",
                     options_.currency));
  }
  const std::vector<int32_t> probe = StripeProbe(impl_->hot_stripes);
  if (state.hot_stripes() != impl_->hot_stripes ||
      !std::equal(probe.begin(), probe.end(), state.stripe_probe().begin(),
                  state.stripe_probe().end())) {
    return absl::FailedPreconditionError(
        absl::StrCat("the state has ", state.hot_stripes(),
                     " hot stripes (or stripes otherwise), the ledger ",
                     impl_->hot_stripes));
  }
  const EpochGates::Closed closed(impl_->gates);
  for (Shard& shard : impl_->shards) {
    std::lock_guard<std::mutex> lock(shard.mu);
    if (!shard.owners.empty()) {
      return absl::FailedPreconditionError(
          "a state loads only into an empty ledger");
    }
  }
  if (impl_->transactions.load() != 0) {
    return absl::FailedPreconditionError(
        "a state loads only into an empty ledger");
  }
  for (const v1::LedgerOwnerState& in : state.owners()) {
    Shard& shard = impl_->shards[impl_->ShardOf(in.key())];
    std::lock_guard<std::mutex> lock(shard.mu);
    RestoreOwner(in, shard.owners[in.key()]);
  }
  impl_->deposits.store(state.deposits_minor());
  impl_->withdrawals.store(state.withdrawals_minor());
  impl_->transactions.store(state.transactions());
  return absl::OkStatus();
}

}  // namespace banca::ledger
