// The table host: what runs every table the same way, whatever its game.
// The poker tables (TableService) and the banked games (BankedTableService)
// are its two gRPC APIs; each names its game (poker_table.h,
// banked_table.h) and keeps only what its API adds.
//
// The host keeps the tables (HostedTable, each behind its lock) and
//  - replays the game's table topic into them at start (an event the
//    rules refuse is DATA_LOSS, a gap in a table's sequence too);
//  - decides an event at a table under its lock (size-checked, its deal
//    sealed, applied with what it derives: a refusal changes nothing and
//    appends nothing) and queues the batch on the log before the lock is
//    released, so the log's order is the table's; the fsync happens off
//    the lock, so the commands of every table share the log's group
//    commit;
//  - holds every answer until what it shows is durable (WaitDurableLocked,
//    ReplyWhenDurable, SendWhenDurable): a player never sees what the log
//    could still lose; if the log cannot make a batch durable the process
//    stops (memory then holds a decision the log does not);
//  - reads the wallet's outcomes for its sagas from a committed position,
//    and moves that position only once what the outcomes appended is
//    durable;
//  - runs the timers and the outcome reader on their own threads;
//  - authenticates callers and runs idempotent commands;
//  - in group mode (options.group, table_group.h), decides only for the
//    tables of the partitions the group assigns this process: the others
//    are neither found nor listed here, and a call for one is refused
//    with the route to its owner (owner_redirect.h).
#ifndef BANCA_SERVICES_COMMON_TABLE_HOST_H_
#define BANCA_SERVICES_COMMON_TABLE_HOST_H_

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "banca/v1/wallet.pb.h"
#include "google/protobuf/message.h"
#include "grpcpp/grpcpp.h"
#include "libs/auth/token.h"
#include "libs/cards/random.h"
#include "libs/common/clock.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/idempotency.h"
#include "libs/tables/table_aggregate.h"
#include "services/common/bearer_auth.h"
#include "services/common/caller_streams.h"
#include "services/common/host_runtime.h"
#include "services/common/hosted_table.h"
#include "services/common/idempotent_command.h"
#include "services/common/table_group.h"
#include "services/common/table_host_metrics.h"
#include "services/common/table_host_options.h"

namespace banca::table {

// What a game brings to the host (PokerGame, BankedGame):
//   using State = ...;   a tables::TableAggregate
//   using Table = ...;   HostedTable<State>, or a struct deriving from it
//   static constexpr std::string_view kName;  its tables, in log lines and
//                                             errors ("no <kName> <id>")
//   static constexpr const wire::TableTopics& kTopics;
//   static constexpr std::string_view kOutcomeGroup;  its wallet reader's
//   static const std::string& IdOf(const Event&);  the aggregate's id
//   static absl::StatusOr<wire::DecodedEnvelope<Event>> Decode(record);
//   static void Append(event, sequence, context, records);
//   static const std::string* SagaStarted(const Event&);  // or nullptr
//   static bool SagaPending(const State&, const std::string& saga_id);
//   static Event SagaTimedOut(const State&, saga_id, now);  // ends it
// and, for its metrics (table_host_metrics.h):
//   static constexpr std::string_view kService;  "table", "tournament"
//   static constexpr std::string_view kGame;     "poker", "banked", ...
//   static bool FinishesRound(const Event&);  a hand or round is over
//   static SagaEnd SagaEndOf(const Event&);   how it ends a saga, if it does
template <typename Game>
class TableHost {
 public:
  using State = typename Game::State;
  using Table = typename Game::Table;
  using Event = typename State::Event;
  static_assert(tables::TableAggregate<State>);
  static_assert(std::is_base_of_v<HostedTable<State>, Table>);

  // Slots (the durability of what the outcomes appended) for the reader.
  using Appended = std::vector<std::pair<Table*, int64_t>>;
  // Whether a wallet event is an outcome of this game's sagas: handled
  // (true), not one (false), or an error that stops this pass.
  using OutcomeHandler =
      std::function<absl::StatusOr<bool>(const v1::WalletEvent&, Appended*)>;
  // Called for each replayed event after it applied; true when the game
  // keeps the event's request id itself (else the host's index does).
  using ReplayNote = std::function<bool(Table&, const Event&)>;

  TableHost(eventlog::EventLog& log, const Clock& clock,
            const TableHostOptions& options);
  TableHost(const TableHost&) = delete;
  TableHost& operator=(const TableHost&) = delete;
  ~TableHost() { Stop(); }

  // Makes the topics, replays them into the tables and finds where the
  // outcome reader left off.
  absl::Status Open(const ReplayNote& note);
  // Starts the timers (`tick`) and the outcome reader (`handle`).
  void Run(std::function<void()> tick, OutcomeHandler handle);
  // Ends the threads and waits for the appends queued.
  void Stop();

  // The table, when this process decides for it (in group mode, only a
  // table of the partitions it owns).
  Table* Find(const std::string& table_id);
  // INVALID_ARGUMENT for a malformed id, NOT_FOUND for an unknown table,
  // UNAVAILABLE (naming its owner: DecidedElsewhere) for one another
  // process decides for.
  absl::StatusOr<Table*> FindOrNotFound(const std::string& table_id);
  // The tables this process decides for.
  std::vector<Table*> Tables();
  // The table's partition on the game's topic (where its stream is).
  int PartitionOf(std::string_view table_id) const;
  // Where the table is decided: this process (address "" without a group
  // or an advertised address), or the owner the group last announced.
  // INVALID_ARGUMENT for a malformed id.
  absl::StatusOr<TableOwner> Locate(const std::string& table_id);
  // The table group (null without one).
  TableGroup* group() { return group_.get(); }
  // Logs `opening` (durable before it returns) and adds its table.
  // ALREADY_EXISTS, RESOURCE_EXHAUSTED at max_tables.
  absl::StatusOr<Table*> AddTable(const Event& opening,
                                  std::unique_ptr<State> state);

  // Decides `event` at `table` (checked for size, its deal sealed, applied
  // with the events it derives, appended to *batch in the log's order).
  // On error nothing changed.
  absl::Status DecideLocked(Table& table, Event event,
                            std::vector<Event>* batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);
  // Queues `batch` (applied) on the log in the table's order: durable once
  // table.durable_sequence reaches table.sequence.
  void QueueLocked(Table& table, std::vector<Event> batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);
  // DecideLocked, then QueueLocked.
  absl::Status CommitLocked(Table& table, Event event)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);

  // The sagas of `table` the wallet has not answered within saga_timeout,
  // each with the event that ends it (the callers waiting are told why);
  // the sagas that ended are forgotten.
  std::vector<Event> ExpiredSagasLocked(Table& table, int64_t now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);

  // Blocks (releasing the lock meanwhile) until the table's log is
  // durable up to `sequence`.
  void WaitDurableLocked(Table& table, int64_t sequence)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);
  // Up to what the state shows now.
  void WaitDurableLocked(Table& table) ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu) {
    WaitDurableLocked(table, table.sequence);
  }
  // Finishes `reactor` with OK once the table is durable up to `sequence`:
  // if it already is, the reactor goes to `now` for the caller to finish
  // once it has unlocked; else the log's completion thread finishes it.
  void ReplyWhenDurable(Table& table, int64_t sequence,
                        grpc::ServerUnaryReactor* reactor,
                        std::vector<grpc::ServerUnaryReactor*>* now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);
  // Runs `send` once the table is durable up to `sequence`, after
  // everything queued before it.
  void SendWhenDurable(Table& table, int64_t sequence,
                       std::function<void()> send)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);

  // A new table's randomness: the system CSPRNG (docs/rng.md), or the
  // tests' source when the options name one.
  absl::StatusOr<std::unique_ptr<cards::RandomSource>> NewRandomSource(
      const std::string& table_id) const;

  // Reads new wallet events (the timers' twin, for tests that drive it).
  absl::StatusOr<int> PollWalletOutcomes();

  absl::StatusOr<auth::Claims> Caller(
      const grpc::ServerContextBase* context) const;
  // Authenticates, claims the request id (namespaced by the caller), runs
  // `run(claims, key, fingerprint, repeat)` and keeps its response for
  // retries. A saga the wallet has not answered in time is still on its
  // way: its DEADLINE_EXCEEDED keeps the id, so a retry does not start a
  // second one.
  template <typename Response, typename Run>
  grpc::Status Command(grpc::ServerContext* context, std::string_view method,
                       const std::string& request_id,
                       const google::protobuf::Message& body,
                       Response* response, Run run) {
    const absl::Time start = absl::Now();
    grpc::Status status = RunIdempotentCommand(
        idempotency_, Caller(context), method, request_id, body, response,
        std::move(run), /*keep_undecided=*/true);
    if (metrics_) {
      metrics_->ObserveAnswer(method,
                              absl::ToDoubleSeconds(absl::Now() - start));
    }
    return status;
  }

  // CreateTable, whatever the game: an operator's, the id and name
  // checked, a retry answered from the table. `open(key, fingerprint)`
  // returns the opening event (settings normalized in it) and the table.
  template <typename Info, typename Open>
  grpc::Status CreateTable(grpc::ServerContext* context,
                           std::string_view method,
                           const google::protobuf::Message& request,
                           const std::string& request_id,
                           const std::string& table_id, const std::string& name,
                           Info* response, Open open) {
    return Command(
        context, method, request_id, request, response,
        [&](const auth::Claims& caller, const std::string& key,
            const std::string& fingerprint, bool repeat) -> absl::Status {
          RETURN_IF_ERROR(CheckCreate(caller, table_id, name));
          Table* table = nullptr;
          if (repeat) {
            ASSIGN_OR_RETURN(table, FindOrNotFound(table_id));
          } else {
            ASSIGN_OR_RETURN(auto opened, open(key, fingerprint));
            ASSIGN_OR_RETURN(table,
                             AddTable(opened.first, std::move(opened.second)));
          }
          absl::MutexLock lock(&table->mu);
          *response = table->state->Info();
          return absl::OkStatus();
        });
  }
  // An operator voids what is in play at a table (a hand, a round):
  // `make(table, key, fingerprint)` is the event that voids it (an error
  // when nothing is in play), `commit` the API's commit; the answer is
  // the table's Info once durable. `what` names it in the refusal.
  template <typename Info, typename Make, typename Commit>
  grpc::Status VoidCommand(grpc::ServerContext* context,
                           std::string_view method,
                           const google::protobuf::Message& request,
                           const std::string& request_id,
                           const std::string& table_id,
                           const std::string& reason, std::string_view what,
                           Info* response, Make make, Commit commit) {
    return Command(
        context, method, request_id, request, response,
        [&](const auth::Claims& caller, const std::string& key,
            const std::string& fingerprint, bool repeat) -> absl::Status {
          RETURN_IF_ERROR(CheckVoid(caller, reason, what));
          ASSIGN_OR_RETURN(Table * table, FindOrNotFound(table_id));
          absl::MutexLock lock(&table->mu);
          if (!repeat) {
            ASSIGN_OR_RETURN(Event e, make(*table, key, fingerprint));
            RETURN_IF_ERROR(commit(*table, std::move(e)));
          }
          *response = table->state->Info();
          WaitDurableLocked(*table);
          return absl::OkStatus();
        });
  }
  // ListTables, whatever the game: every table's Info, as durable.
  template <typename List>
  grpc::Status ListTables(grpc::ServerContext* context, List* response) {
    absl::StatusOr<auth::Claims> caller = Caller(context);
    if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
    for (Table* table : Tables()) {
      absl::MutexLock lock(&table->mu);
      *response->add_tables() = table->state->Info();
      WaitDurableLocked(*table);
    }
    return grpc::Status::OK;
  }

  const TableHostOptions& options() const { return options_; }
  const Clock& clock() const { return clock_; }
  ledger::IdempotencyIndex& idempotency() { return idempotency_; }
  CallerStreams& watch_streams() { return watch_streams_; }
  int64_t replayed_events() const { return replayed_events_; }
  // Stop has begun.
  bool stopping() const { return loops_.stopping(); }

 private:
  // PERMISSION_DENIED unless an operator's; INVALID_ARGUMENT for a bad id
  // or name.
  static absl::Status CheckCreate(const auth::Claims& caller,
                                  const std::string& table_id,
                                  const std::string& name);
  // PERMISSION_DENIED unless an operator's; INVALID_ARGUMENT for a reason
  // over kMaxVoidReasonBytes.
  static absl::Status CheckVoid(const auth::Claims& caller,
                                const std::string& reason,
                                std::string_view what);
  absl::Status Replay(const ReplayNote& note);
  // `following`: the partition is followed on a takeover (group mode), and
  // events the table has applied already (this process's own) are skipped.
  absl::Status ReplayRecord(const eventlog::StoredRecord& record, int64_t now,
                            const ReplayNote& note, bool following = false);
  // Group mode: joins the group; Follow and OutcomesGained are its hooks.
  absl::Status JoinGroup(const ReplayNote& note);
  absl::StatusOr<int64_t> Follow(int p, int64_t from, const ReplayNote& note);
  absl::Status OutcomesGained(const std::vector<int>& gained);
  // The table, whichever process decides for it.
  Table* FindAny(const std::string& table_id);
  // UNAVAILABLE for a table another process of the group decides for,
  // naming its owner when announced (owner_redirect.h: the trailing
  // metadata banca-owner).
  absl::Status DecidedElsewhere(const std::string& table_id);
  // The consumer group of the outcome reader's position (per partition in
  // group mode).
  std::string OutcomeGroup(int p) const;
  // Hands `records` to the log (fenced in group mode, for `table_id`'s
  // partition); `done` runs once they are durable.
  void AppendFor(const std::string& table_id,
                 std::vector<eventlog::Record> records,
                 eventlog::AppendCallback done);
  void Durable(Table& table, int64_t sequence);
  void PollStep();
  // The metrics of the events of `batch` (rounds finished, sagas ended).
  void CountQueued(const std::vector<Event>& batch);
  void CountTablesOpen() ABSL_LOCKS_EXCLUDED(tables_mu_);

  eventlog::EventLog& log_;
  const Clock& clock_;
  const TableHostOptions& options_;
  ledger::IdempotencyIndex idempotency_;
  int64_t replayed_events_ = 0;
  std::unique_ptr<TableHostMetrics> metrics_;  // null: no registry

  absl::Mutex tables_mu_;
  std::map<std::string, std::unique_ptr<Table>> tables_
      ABSL_GUARDED_BY(tables_mu_);

  absl::Mutex outcomes_mu_;
  std::vector<int64_t> wallet_offsets_ ABSL_GUARDED_BY(outcomes_mu_);
  OutcomeHandler handle_outcome_;

  // Every caller's open WatchTable streams, across the tables.
  CallerStreams watch_streams_;
  // Appends queued whose completion has not run yet (Stop waits for them).
  std::atomic<int64_t> in_flight_{0};
  // The timers and the wallet-outcome reader.
  HostLoops loops_;
  // Group mode: the membership, and where the replay ended per partition.
  std::unique_ptr<TableGroup> group_;
  std::vector<int64_t> replayed_to_;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_COMMON_TABLE_HOST_H_
