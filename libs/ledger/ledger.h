// The double-entry ledger: player accounts, transactions that sum to zero,
// and holds.
//
// The ledger is a deterministic state machine over WalletEvents. A command
// (Deposit, PlaceHold, ...) is decided against the current state; if it is
// valid the ledger builds the event that records it, applies that event with
// the same code replay uses (Apply), and hands the event to the caller's
// commit function while the command's locks are still held. The wallet
// service appends the event to the log there, so the log's order of events
// on any account is the order the ledger decided them in. Live state and
// replayed state therefore cannot diverge.
//
// Concurrency: state is split into shards by owner ("player/<id>", or the
// account name for other accounts); a command locks only the shards of the
// owners it touches, in shard order. Hot accounts (house/*, external/*),
// which every table and every payment touches, are kept as hot_stripes
// sub-balances: a transaction credits or debits stripe
// HotStripeFor(stream owner), so no single lock serializes the system. Their
// balance is the sum of the stripes. Each stripe is kept within
// ±kMaxBalanceMinor / stripes (balance_limits.h), so no stripe ever needs to
// see another's balance to validate a posting. A reading of the whole ledger
// (Summarize, CheckReplayedState) is one consistent point of it: writers
// pass a few shared epoch gates around their shard locks and the reader
// closes them all (epoch_gates.h), so it sees every transaction whole or not
// at all and the balances it sums always sum to 0.
//
// Decide, then apply, all or nothing: a command's event is planned first
// (every new balance computed, every posting checked against the limits:
// constrained accounts 0..kMaxBalanceMinor, stripes as above) and only then
// written. A refusal changes nothing and commits nothing.
#ifndef BANCA_LIBS_LEDGER_LEDGER_H_
#define BANCA_LIBS_LEDGER_LEDGER_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "banca/v1/ledger.pb.h"
#include "banca/v1/snapshot.pb.h"
#include "libs/ledger/balance_limits.h"

namespace banca::ledger {

inline constexpr size_t kMaxPostings = 64;
inline constexpr size_t kMaxMemoBytes = 256;
// The largest encoded WalletEvent a decision may produce (64 KiB). Checked
// after the decision fills the event and before it is applied, so no input
// (unknown protobuf fields included) can make the log refuse the append
// (its records stop at eventlog::kMaxRecordBytes, 1 MiB), which would stop
// the process.
inline constexpr size_t kMaxWalletEventBytes = 64 * 1024;

// Who asked, for idempotency: the request id and a fingerprint of the body.
struct CommandMeta {
  std::string request_id;
  std::string fingerprint;
  // Who asked ("operator:bob", "service:table", "wallet"): the event's actor.
  std::string actor;
};

// An event the ledger decided and applied, ready to append.
struct Committed {
  // e.g. "wallet/player/ana"; the log key.
  const std::string& stream;
  // 1, 2, 3... within the stream.
  uint64_t sequence;
  const v1::WalletEvent& event;
};
using CommitFn = absl::FunctionRef<void(const Committed&)>;

struct PlayerBalance {
  std::string currency;
  int64_t available = 0;
  int64_t held = 0;
  bool open = false;
};

struct HoldView {
  std::string hold_id;
  std::string player_id;
  int64_t amount = 0;
  int64_t captured = 0;
  int64_t remaining = 0;
  bool open = false;
  int64_t expires_at_micros = 0;
  // The caller that placed it ("service:table"); "" in older logs.
  std::string placed_by;
};

struct ClassTotal {
  int64_t balance = 0;
  int64_t accounts = 0;
};

// Totals are summed in 128 bits; one that does not fit in int64 is reported
// clamped to INT64_MAX or INT64_MIN and sets `clamped` (a clamped sum is never
// 0, so a check of the sum still fails).
struct LedgerSummary {
  // Indexed by AccountClass.
  std::array<ClassTotal, 6> classes{};
  // Sum of every balance; 0 unless the ledger is broken.
  int64_t sum = 0;
  // Cumulative deposits and withdrawals stop at INT64_MAX (and set clamped).
  int64_t deposits = 0;
  int64_t withdrawals = 0;
  int64_t transactions = 0;
  int64_t open_holds = 0;
  int64_t players = 0;
  // Any player/table/game/tournament balance below zero (must be 0).
  int64_t negative_constrained_accounts = 0;
  // Some total above did not fit in int64 and is clamped.
  bool clamped = false;
};

struct LedgerOptions {
  std::string currency = "EUR";
  // 1 turns striping off (for the benchmark's comparison).
  int hot_stripes = 16;
  // Lock shards. Many, so that two commands rarely share one (a shared
  // shard costs a sleep and a wake-up). Tests use 1 to make every owner
  // share one map.
  int shards = 4096;
  // Whether this ledger may decide for an owner ("player/<id>", or an
  // account name): its error refuses a command whose event would be on the
  // owner's stream or would debit one of the owner's constrained accounts.
  // Several wallet processes share the owners this way (each decides for
  // the owners of its partitions and applies everyone's events): debits
  // are decided only by their owner, so no balance goes negative, and
  // every stream keeps one writer. Null: this ledger decides for everyone.
  std::function<absl::Status(std::string_view owner)> decides;
};

class Ledger {
 public:
  explicit Ledger(LedgerOptions options = {});
  ~Ledger();
  Ledger(const Ledger&) = delete;
  Ledger& operator=(const Ledger&) = delete;

  const std::string& currency() const { return options_.currency; }

  // Commands. On error nothing changed and commit was not called.
  absl::Status OpenAccount(const CommandMeta& meta, std::string_view player_id,
                           std::string_view currency, CommitFn commit);
  absl::Status CloseAccount(const CommandMeta& meta, std::string_view player_id,
                            CommitFn commit);
  // Records that a request another service made through the log could not
  // be carried out (`why`), on the player's stream; nothing moves. The
  // player need not exist.
  absl::Status RecordRejection(const CommandMeta& meta,
                               std::string_view player_id,
                               const v1::Reference& reference,
                               const absl::Status& why, CommitFn commit);
  // Records that a request another service logged (`quarantined`: its
  // topic, partition and offset, the step that failed and why) can never
  // be carried out, on `stream_owner`'s stream (the requester: "player/<id>"
  // or an account name such as "table/<id>/pot"); nothing moves. The
  // step, code and message are cut to printable ASCII of bounded length,
  // so any failure can be recorded (docs/security.md, "Quarantine").
  absl::Status RecordQuarantine(const CommandMeta& meta,
                                std::string_view stream_owner,
                                const v1::RequestQuarantined& quarantined,
                                CommitFn commit);
  // A balanced transaction. `tx.postings` carry account and amount; the
  // ledger fills tx_id and balances. `stream_owner` names the stream the
  // event belongs to (a player owner "player/<id>" or an account name).
  absl::Status Post(const CommandMeta& meta, std::string_view stream_owner,
                    v1::LedgerTransaction tx, CommitFn commit);
  // `meta.actor` is recorded as the hold's placer.
  absl::Status PlaceHold(const CommandMeta& meta, std::string_view player_id,
                         int64_t amount, v1::PostingReason purpose,
                         const v1::Reference& reference,
                         int64_t expires_at_micros, CommitFn commit);
  absl::Status CaptureHold(const CommandMeta& meta, std::string_view hold_id,
                           int64_t amount, std::string_view to_account,
                           v1::PostingReason reason,
                           const v1::Reference& reference, bool final,
                           CommitFn commit);
  absl::Status ReleaseHold(const CommandMeta& meta, std::string_view hold_id,
                           bool expired, CommitFn commit);

  // Replay: applies a recorded event as it was decided. Checks the stream
  // sequence (DATA_LOSS on a gap or repeat), the transactions' shape
  // (DATA_LOSS when postings do not sum to zero, name no valid account or
  // carry more than money::kMaxAmountMinor) and that every hold event is
  // one the live hold commands could have made from the state it applies to
  // (hold_checks.h: the player's next unused hold id, an open hold of the
  // event's player, the exact amounts moved and left), and that no other
  // event's transaction moves a player's held account (which the live Post
  // refuses: only holds move held money); nothing else is re-decided. On an
  // error nothing changes. Postings are added with wrap-around arithmetic
  // (balance_limits.h), so events of different streams may be applied in any
  // order: call CheckReplayedState once all of them are in.
  absl::Status Apply(std::string_view stream, uint64_t sequence,
                     const v1::WalletEvent& event);
  // Apply for a ledger that follows events it may have decided itself:
  // false (and nothing changes) when the stream is already at `sequence`
  // or past it; DATA_LOSS on a gap, as Apply.
  absl::StatusOr<bool> ApplyIfNext(std::string_view stream, uint64_t sequence,
                                   const v1::WalletEvent& event);
  // After a full replay: DATA_LOSS unless every account's balance (a hot
  // account's: the sum of its stripes) is within ±kMaxBalanceMinor, all
  // balances sum to 0, and every player's held account holds exactly what
  // the player's open holds have left. Negative constrained accounts are the
  // audit's to report (Summarize), not a reason to refuse the data.
  absl::Status CheckReplayedState() const;

  // Queries.
  absl::StatusOr<PlayerBalance> Balance(std::string_view player_id) const;
  absl::StatusOr<HoldView> Hold(std::string_view hold_id) const;
  // Any account; 0 for one never touched.
  int64_t AccountBalance(std::string_view account) const;
  LedgerSummary Summarize() const;
  // Open holds whose expiry is at or before now (at most `max`), of the
  // players whose owner ("player/<id>") `of_owner` accepts (null: all).
  std::vector<std::string> ExpiredHolds(
      int64_t now_micros, size_t max,
      const std::function<bool(std::string_view owner)>& of_owner =
          nullptr) const;

  // Snapshots (libs/snapshot/wallet_snapshot.h). The whole ledger at one
  // point: every gate is closed (no event is being written), `at_point`
  // runs (the caller records what goes with this point: how far the log
  // is applied), every owner is copied, the gates open, and the copy is
  // sorted (owners by key, balances by account, holds by id). Returns how
  // long the gates were closed: the pause every writer saw.
  absl::Duration ExportState(v1::LedgerState* out,
                             absl::FunctionRef<void()> at_point) const;
  // Loads an exported state into this ledger, which nothing may have been
  // applied to (FAILED_PRECONDITION otherwise, or when the state's
  // currency, stripes or stripe probe are not this ledger's); nothing
  // changes on an error. Then apply the log after the state's offsets and
  // CheckReplayedState, as after a full replay.
  absl::Status ImportState(const v1::LedgerState& state);

  static std::string StreamFor(std::string_view owner);
  // The stripe (0..stripes-1) of every hot account that a transaction on
  // `stream_owner`'s stream moves money on.
  static int HotStripeFor(std::string_view stream_owner, int stripes);

  // Internal state, defined in ledger.cc.
  struct Impl;

 private:
  LedgerOptions options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace banca::ledger

#endif  // BANCA_LIBS_LEDGER_LEDGER_H_
