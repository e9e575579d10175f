// The banked-table service: the gRPC edge over the banked games (French and
// American roulette, blackjack; each table's rules in its BankedGameState)
// and the log, beside the poker TableService in the same `banca serve`
// table process (docs/table-service.md "Banked tables").
//
// It runs on the table host (table_host.h), as the poker tables do: a
// command is authenticated (a signed token, libs/auth; the same rules as
// the poker tables), validated, claimed in the idempotency index, decided
// by applying its event to the table's state under the table's lock (the
// engine's checks are the validation: a refused event changes nothing and
// appends nothing) and queued on banca.banked.events with the events it
// derived before the lock is released; the fsync happens off the lock (the
// log's group commit). No answer leaves before what it shows is durable
// (WaitDurableLocked).
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
#include "services/common/table_host.h"
#include "services/common/table_host_options.h"
#include "services/table/banked_table.h"

namespace banca::table {

struct BankedTableServiceOptions : TableHostOptions {
  // How long PlaceBet waits for the wallet before DEADLINE_EXCEEDED (the
  // saga goes on).
  absl::Duration stake_wait = absl::Seconds(5);
  // How often an idle WatchTable stream looks at its call (cancelled,
  // shutting down).
  absl::Duration watch_poll = absl::Milliseconds(200);
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

  int64_t replayed_events() const { return host_.replayed_events(); }

 private:
  using Slot = BankedGame::Table;

  BankedTableService(eventlog::EventLog& log, const Clock& clock,
                     BankedTableServiceOptions options);
  // Decides `event` at the table and queues it on the log with what it
  // derived (TableHost::CommitLocked). On a refusal nothing changed and
  // nothing was queued.
  absl::Status CommitLocked(Slot& slot, v1::BankedTableEvent event)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu) {
    return host_.CommitLocked(slot, std::move(event));
  }
  // Blocks (releasing slot.mu meanwhile) until the table's log is durable
  // up to what the state shows now. Every answer computed from the state
  // waits here before it leaves, so no caller sees what the log could
  // still lose.
  void WaitDurableLocked(Slot& slot) ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu) {
    host_.WaitDurableLocked(slot);
  }
  // Commits the command's event (named by the request); for a stake,
  // waits for the wallet's answer: FAILED_PRECONDITION when refused,
  // DEADLINE_EXCEEDED when it has not come within stake_wait.
  absl::Status Decide(Slot& slot, const std::string& key,
                      const std::string& fingerprint, v1::BankedTableEvent e)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // A repeat of request `key`: answered by the stake it asked for, as the
  // first answer was (waiting for it as Decide does), or OK when it asked
  // for none.
  absl::Status AnswerRepeat(Slot& slot, const std::string& key)
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
  // What a wallet event means for a stake saga: captured or refused (the
  // saga ends), a capture after the table gave up (paid back), or nothing.
  absl::StatusOr<bool> HandleOutcome(const v1::WalletEvent& event,
                                     TableHost<BankedGame>::Appended* appended);
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

  const Clock& clock_;
  const BankedTableServiceOptions options_;
  std::atomic<bool> closing_watches_{false};
  // The tables, their log and their wallet outcomes (after options_).
  TableHost<BankedGame> host_;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_BANKED_TABLE_SERVICE_H_
