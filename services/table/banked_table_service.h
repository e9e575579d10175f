// The banked-table service: the gRPC edge over the banked games (French and
// American roulette, blackjack; each table's rules in its BankedGameState)
// and the log, beside the poker TableService in the same `banca serve`
// table process (docs/table-service.md "Banked tables").
//
// A command is authenticated (a signed token, libs/auth; the same rules as
// the poker tables), validated, claimed in the idempotency index, decided
// by applying its event to the table's state under the table's lock (the
// engine's checks are the validation: a refused event changes nothing and
// appends nothing) and queued on banca.banked.events (EventLog::AppendAsync)
// with the events it derived before the lock is released, so the log's
// order is the table's. The fsync happens off the lock, so the commands of
// a table (and of every table) share the log's group commit, as at the
// poker tables. No answer leaves before what it shows is durable: each one
// is computed under the lock, then waits (the lock released) until the
// table's log is durable up to that point (WaitDurableLocked).
//
// Money moves only in the wallet. A bet is a stake saga through the log:
// StakeRequested (with its cash -> game/<table>/wagers transaction) -> the
// wallet posts it under request id "<saga>/stake" or records a
// RequestRejected under that id -> this service reads the wallet topic and
// appends StakeCaptured or StakeRefused; PlaceBet answers when the saga
// ends. A saga the wallet has not answered within saga_timeout is refused
// (timed_out); a capture that arrives after that is paid back
// (BankedMoney "compensation"). Settlements, withdrawals and void refunds
// are BankedMoney events the wallet posts exactly once (request ids derived
// from the event id, deduplicated by its idempotency index).
//
// The clock (Tick) asks each table what is due: a roulette window that has
// run its course with no stake in flight (the number is drawn from the
// CSPRNG only then, uniform over the pockets, and recorded before it is
// applied), a blackjack deal (the shoe shuffled then), a decision timeout,
// an idle notice. Nothing about a future outcome exists before that.
#ifndef BANCA_SERVICES_TABLE_BANKED_TABLE_SERVICE_H_
#define BANCA_SERVICES_TABLE_BANKED_TABLE_SERVICE_H_

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "banca/v1/banked_table.grpc.pb.h"
#include "libs/auth/token.h"
#include "libs/cards/random.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/idempotency.h"
#include "libs/seal/deck_keys.h"
#include "libs/tables/banked_game_state.h"
#include "libs/tables/stake_sagas.h"
#include "libs/wire/banked_codec.h"
#include "services/table/caller_streams.h"
#include "services/table/host_runtime.h"
#include "services/table/saga_refusals.h"
#include "services/table/table_host_options.h"

namespace banca::table {

struct BankedTableServiceOptions : TableHostOptions {
  // How long PlaceBet waits for the wallet before DEADLINE_EXCEEDED (the
  // saga goes on).
  absl::Duration stake_wait = absl::Seconds(5);
  // How often an idle WatchTable stream looks at its call (cancelled,
  // shutting down).
  absl::Duration watch_poll = absl::Milliseconds(200);
  // Tests only: the source each table draws its shoes and numbers from,
  // so that a service test can deal the cards a rule needs (the API never
  // takes a deck). Unset, as `banca serve` always leaves it, every table
  // gets its own cards::SystemRandomSource (docs/rng.md); no flag or
  // request can set it.
  std::function<std::unique_ptr<cards::RandomSource>(
      const std::string& table_id)>
      random_source_for_tests;
};

class BankedTableService final : public v1::BankedTableService::Service {
 public:
  // Replays banca.banked.events into the tables and starts the threads.
  static absl::StatusOr<std::unique_ptr<BankedTableService>> Start(
      eventlog::EventLog& log, const Clock& clock,
      BankedTableServiceOptions options);
  ~BankedTableService() override;
  // Ends the WatchTable streams without taking their end for the players'
  // disconnections: the server going away is not the player's failure
  // (SD-33 rather than SD-34). Call before shutting the gRPC server down.
  void BeginShutdown();
  void Stop();

  // One pass of the timers: saga timeouts, spins, inactivity notices.
  void Tick();
  // Reads new wallet events and ends the stake sagas they answer.
  absl::StatusOr<int> PollWalletOutcomes();

  grpc::Status CreateTable(grpc::ServerContext*,
                           const v1::CreateBankedTableRequest*,
                           v1::BankedTableInfo*) override;
  grpc::Status ListTables(grpc::ServerContext*,
                          const v1::ListBankedTablesRequest*,
                          v1::ListBankedTablesResponse*) override;
  grpc::Status Join(grpc::ServerContext*, const v1::JoinBankedTableRequest*,
                    v1::BankedTableView*) override;
  grpc::Status Leave(grpc::ServerContext*, const v1::LeaveBankedTableRequest*,
                     v1::BankedSessionSummary*) override;
  grpc::Status PlaceBet(grpc::ServerContext*, const v1::PlaceBankedBetRequest*,
                        v1::BankedTableView*) override;
  grpc::Status WithdrawBet(grpc::ServerContext*,
                           const v1::WithdrawBankedBetRequest*,
                           v1::BankedTableView*) override;
  grpc::Status Launch(grpc::ServerContext*, const v1::LaunchRequest*,
                      v1::BankedTableView*) override;
  grpc::Status Act(grpc::ServerContext*, const v1::BankedActRequest*,
                   v1::BankedTableView*) override;
  grpc::Status GetTableView(grpc::ServerContext*,
                            const v1::GetBankedTableRequest*,
                            v1::BankedTableView*) override;
  grpc::Status WatchTable(
      grpc::ServerContext*, const v1::GetBankedTableRequest*,
      grpc::ServerWriter<v1::BankedTableView>* writer) override;
  grpc::Status GetLastNumbers(grpc::ServerContext*,
                              const v1::GetBankedTableRequest*,
                              v1::LastNumbersResponse*) override;
  grpc::Status GetLastRound(grpc::ServerContext*,
                            const v1::GetBankedTableRequest*,
                            v1::BankedRoundRecord*) override;
  grpc::Status GetReplay(grpc::ServerContext*, const v1::GetBankedTableRequest*,
                         v1::BankedReplayResponse*) override;
  grpc::Status GetSessionSummary(grpc::ServerContext*,
                                 const v1::GetBankedTableRequest*,
                                 v1::BankedSessionSummary*) override;
  grpc::Status VoidRound(grpc::ServerContext*,
                         const v1::VoidBankedRoundRequest*,
                         v1::BankedTableInfo*) override;

  int64_t replayed_events() const { return replayed_events_; }

 private:
  struct Slot {
    absl::Mutex mu;
    absl::CondVar changed;
    std::unique_ptr<tables::BankedGameState> state;
    int64_t sequence = 0;          // last stream sequence queued on the log
    int64_t durable_sequence = 0;  // last one the log has made durable
    std::map<std::string, int64_t> saga_started_micros;
    // Why a stake was refused, for the PlaceBet still waiting on it.
    SagaRefusals refusals;
    std::unique_ptr<cards::RandomSource> rng;
    // Open WatchTable streams by viewer (services/table/table_caller.h: a
    // player's name, kSpectator for any other role); a joined player is
    // connected while it has one.
    std::map<std::string, int> streams;
  };

  BankedTableService(eventlog::EventLog& log, const Clock& clock,
                     BankedTableServiceOptions options);
  absl::Status Replay();
  Slot* Find(const std::string& table_id);
  absl::StatusOr<Slot*> FindOrNotFound(const std::string& table_id);
  // The randomness of a new or replayed table.
  absl::StatusOr<std::unique_ptr<cards::RandomSource>> NewRandomSource(
      const std::string& table_id) const;
  // Applies `event` and queues it on the log with what it derived, in the
  // table's order; durable once slot.durable_sequence reaches
  // slot.sequence (the log's completion thread moves it, off the table's
  // lock, so a table's commands share one group commit). On a refusal
  // nothing changed and nothing was queued.
  absl::Status CommitLocked(Slot& slot, v1::BankedTableEvent event)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // Blocks (releasing slot.mu meanwhile) until the table's log is durable
  // up to what the state shows now. Every answer computed from the state
  // waits here before it leaves, so no caller sees what the log could
  // still lose.
  void WaitDurableLocked(Slot& slot) ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // The log's completion: `slot` durable up to `sequence`.
  void Durable(Slot& slot, int64_t sequence);
  // Commits the command's event (named by the request); for a stake,
  // waits for the wallet's answer: FAILED_PRECONDITION when refused,
  // DEADLINE_EXCEEDED when it has not come within stake_wait.
  absl::Status Decide(Slot& slot, const std::string& key,
                      const std::string& fingerprint, v1::BankedTableEvent e)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // An input event stamped with the service clock.
  v1::BankedTableEvent NewEvent(const std::string& table_id) const;
  void TickSlot(Slot& slot);
  // Records a seated player's connection going down or coming back, when
  // it changes what the table knows.
  void NoteConnectionLocked(Slot& slot, const std::string& player,
                            bool connected)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // RESOURCE_EXHAUSTED when `viewer` has not joined the table and the
  // spectators' streams there are at max_spectators_per_table.
  absl::Status AdmitLocked(const Slot& slot, const std::string& viewer) const
      ABSL_SHARED_LOCKS_REQUIRED(slot.mu);
  absl::Status HandleOutcome(const std::string& saga_id, bool captured,
                             const std::string& rejection);
  absl::StatusOr<auth::Claims> Caller(
      const grpc::ServerContextBase* context) const;
  // Authenticates, claims the request id (namespaced by the caller), runs
  // `run(claims, key, fingerprint, repeat)` and keeps its response for
  // retries.
  template <typename Response, typename Run>
  grpc::Status Command(grpc::ServerContext* context, std::string_view method,
                       const std::string& request_id,
                       const google::protobuf::Message& body,
                       Response* response, Run run);
  // A player's command at a table: `make(player, slot)` (under the table's
  // lock) turns it into its event, Decide commits it, and the answer is
  // the caller's view.
  template <typename Make>
  grpc::Status PlayerCommand(grpc::ServerContext* context,
                             std::string_view method,
                             const std::string& request_id,
                             const google::protobuf::Message& body,
                             const std::string& table_id,
                             v1::BankedTableView* response, Make make);
  // The caller's read of a table, under its lock.
  template <typename Read>
  grpc::Status Query(grpc::ServerContext* context, const std::string& table_id,
                     Read read);
  void PollStep();

  eventlog::EventLog& log_;
  const Clock& clock_;
  const BankedTableServiceOptions options_;
  ledger::IdempotencyIndex idempotency_;
  int64_t replayed_events_ = 0;

  absl::Mutex tables_mu_;
  std::map<std::string, std::unique_ptr<Slot>> tables_
      ABSL_GUARDED_BY(tables_mu_);

  absl::Mutex outcomes_mu_;
  std::vector<int64_t> wallet_offsets_ ABSL_GUARDED_BY(outcomes_mu_);

  // Every caller's open WatchTable streams, across the tables.
  CallerStreams watch_streams_;

  // Appends queued whose completion has not run yet (Stop waits for them).
  std::atomic<int64_t> in_flight_{0};
  std::atomic<bool> closing_watches_{false};
  // The timers and the wallet-outcome reader (Stop ends them).
  HostLoops loops_;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_BANKED_TABLE_SERVICE_H_
