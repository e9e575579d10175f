// The table service: the gRPC edge over the poker tables, on the table
// host (table_host.h) that runs the banked games too.
//
// A command is authenticated (a signed token, libs/auth), validated,
// claimed in the idempotency index, decided by applying its TableEvent to
// the table (TableState) under the table's lock, and queued on the log
// (EventLog::AppendAsync) with the events it derived before the lock is
// released, so the log's order is the table's. The reply goes out once the
// events are durable; if the log cannot make them durable the process
// stops, since memory then holds a decision the log does not (the wallet
// does the same).
//
// Act and GetTableView use gRPC's callback API: their handler never waits
// for an fsync. The answer is computed under the table's lock and parked
// until the log reports the table's events up to that point durable; the
// log's completion thread then sends it. So no view (nor any other answer)
// shows a state the log could still lose: a player never sees a card that
// a lost action would take back. The other methods stay synchronous and
// wait the same way.
//
// Act's idempotency is per table and bounded: the answers of the current
// and the previous hand are kept (an Act names its hand, and an Act for an
// older hand can never apply again, so its retry is refused with
// FAILED_PRECONDITION and appends nothing). The other commands use the
// process-wide index (libs/ledger/idempotency.h); they are rare.
//
// Money moves only in the wallet. The table asks for it through the log:
// a buy-in is a saga (BuyInRequested -> the wallet's hold and captures or
// its rejection -> BuyInCompleted or BuyInFailed, with a timeout and a
// compensating pay-back for a capture that arrives after it); a finished
// hand is a HandSettled event with its balanced transactions; a player
// leaving is a PlayerLeft event the wallet pays out. docs/table-service.md.
#ifndef BANCA_SERVICES_TABLE_TABLE_SERVICE_H_
#define BANCA_SERVICES_TABLE_TABLE_SERVICE_H_

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "banca/v1/table.grpc.pb.h"
#include "libs/auth/token.h"
#include "libs/cards/random.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/idempotency.h"
#include "libs/seal/deck_keys.h"
#include "libs/tables/table_state.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "services/common/table_host.h"
#include "services/common/table_host_options.h"
#include "services/table/poker_seats.h"
#include "services/table/poker_table.h"

namespace banca::table {

struct TableServiceOptions : TableHostOptions {
  TableServiceOptions() { partitions = wire::kDefaultTablePartitions; }
  // How long Sit and Rebuy wait for the wallet before answering
  // DEADLINE_EXCEEDED (the saga goes on).
  absl::Duration sit_wait = absl::Seconds(5);
};

using TableServiceBase = v1::TableService::WithCallbackMethod_Act<
    v1::TableService::WithCallbackMethod_GetTableView<
        v1::TableService::WithCallbackMethod_Play<
            v1::TableService::WithCallbackMethod_Relay<
                v1::TableService::Service>>>>;

class TableService final : public TableServiceBase, private PokerSeats {
 public:
  // Replays the table topic into the tables and starts the threads.
  static absl::StatusOr<std::unique_ptr<TableService>> Start(
      eventlog::EventLog& log, const Clock& clock, TableServiceOptions options);
  ~TableService() override;
  // Ends the Play streams (UNAVAILABLE) and refuses new ones, so that a
  // server shutting down does not wait for its players to hang up.
  void BeginShutdown();
  void Stop();

  // One pass of the timers: decision timeouts (HE-45, after HE-44's extra
  // time when the table grants it), rests past the table's limit (HE-68),
  // hand starts, saga timeouts.
  void Tick();
  // Reads new wallet events and finishes the buy-in sagas they answer.
  absl::StatusOr<int> PollWalletOutcomes();

  grpc::Status CreateTable(grpc::ServerContext*, const v1::CreateTableRequest*,
                           v1::TableInfo*) override;
  grpc::Status ListTables(grpc::ServerContext*, const v1::ListTablesRequest*,
                          v1::ListTablesResponse*) override;
  grpc::Status Sit(grpc::ServerContext*, const v1::SitRequest*,
                   v1::SeatResponse*) override;
  grpc::Status Rebuy(grpc::ServerContext*, const v1::RebuyRequest*,
                     v1::SeatResponse*) override;
  grpc::Status Leave(grpc::ServerContext*, const v1::LeaveRequest*,
                     v1::LeaveResponse*) override;
  grpc::Status SitOut(grpc::ServerContext*, const v1::SitOutRequest*,
                      v1::SeatResponse*) override;
  grpc::Status SitIn(grpc::ServerContext*, const v1::SitInRequest*,
                     v1::SeatResponse*) override;
  grpc::ServerUnaryReactor* Act(grpc::CallbackServerContext*,
                                const v1::ActRequest*, v1::TableView*) override;
  grpc::Status WatchTable(grpc::ServerContext*, const v1::WatchTableRequest*,
                          grpc::ServerWriter<v1::TableView>*) override;
  grpc::ServerUnaryReactor* GetTableView(grpc::CallbackServerContext*,
                                         const v1::WatchTableRequest*,
                                         v1::TableView*) override;
  grpc::ServerBidiReactor<v1::PlayRequest, v1::PlayUpdate>* Play(
      grpc::CallbackServerContext*) override;
  grpc::ServerBidiReactor<v1::RelayRequest, v1::RelayUpdate>* Relay(
      grpc::CallbackServerContext*) override;
  grpc::Status GetLastHand(grpc::ServerContext*, const v1::GetLastHandRequest*,
                           v1::LastHandResponse*) override;
  grpc::Status GetSessionSummary(grpc::ServerContext*,
                                 const v1::GetSessionSummaryRequest*,
                                 v1::SessionSummary*) override;
  grpc::Status VoidHand(grpc::ServerContext*, const v1::VoidHandRequest*,
                        v1::TableInfo*) override;

  int64_t replayed_events() const { return host_.replayed_events(); }
  // Act answers the table keeps for retries (tests: the window is bounded).
  size_t act_answers(const std::string& table_id);

 private:
  using Slot = PokerTable;

  // What the Play and Relay streams may ask (poker_seats.h).
  absl::StatusOr<auth::Claims> Caller(
      const grpc::ServerContextBase* context) const override {
    return host_.Caller(context);
  }
  absl::StatusOr<auth::Claims> Verify(const std::string& token) const override;
  absl::Status Serving() const override;
  void RelayOpened(RelayStream* relay) override;
  void RelayDone(RelayStream* relay) override;
  ledger::IdempotencyIndex& idempotency() override {
    return host_.idempotency();
  }
  absl::Status DecideActLocked(Slot& slot, const auth::Claims& caller,
                               const v1::ActRequest& request,
                               int64_t* sequence) override
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu) {
    return DecideActLocked(slot, caller, request, nullptr, sequence);
  }

  TableService(eventlog::EventLog& log, const Clock& clock,
               TableServiceOptions options);
  Slot* Find(const std::string& table_id) { return host_.Find(table_id); }
  absl::StatusOr<Slot*> FindOrNotFound(const std::string& table_id) override {
    return host_.FindOrNotFound(table_id);
  }
  // Applies `event` and whatever it derives (and, when the table may deal
  // at once, the next hand's start), then queues them on the log; they are
  // durable once slot.durable_sequence reaches slot.sequence. Requires
  // slot.mu.
  absl::Status CommitLocked(Slot& slot, v1::TableEvent event)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // Blocks (releasing slot.mu meanwhile) until the table's log is durable
  // up to `sequence`.
  void WaitDurable(Slot& slot, int64_t sequence)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu) {
    host_.WaitDurableLocked(slot, sequence);
  }
  // Finishes `reactor` with OK once the table's log is durable up to
  // `sequence`: if it already is, the reactor goes to `now` for the caller
  // to finish once it has unlocked; else the log's completion thread
  // finishes it. Requires slot.mu.
  void ReplyWhenDurable(Slot& slot, int64_t sequence,
                        grpc::ServerUnaryReactor* reactor,
                        std::vector<grpc::ServerUnaryReactor*>* now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu) {
    host_.ReplyWhenDurable(slot, sequence, reactor, now);
  }
  // Sends `update` to `session` once the table's log is durable up to
  // `sequence`, after every update queued before it. Requires slot.mu.
  void SendWhenDurable(Slot& slot, int64_t sequence,
                       const std::shared_ptr<PlaySession>& session,
                       v1::PlayUpdate update) override
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // Sends their view to the players with a Play stream open who were just
  // given a session notice (`noticed`: HE-70/71, HE-68) or whose turn it
  // now is. Requires slot.mu.
  void TellPlayersLocked(Slot& slot, const std::vector<std::string>& noticed)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // Decides `request` (or recognises its retry) at `slot`: on success the
  // answer may be sent once the table's log is durable up to *sequence,
  // and, when `response` is not null, *response is the caller's view for
  // it (kept for a retry). A refused Act appends nothing.
  absl::Status DecideActLocked(Slot& slot, const auth::Claims& caller,
                               const v1::ActRequest& request,
                               v1::TableView* response, int64_t* sequence)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // Keeps Act answers for the current and the previous hand only.
  static void PruneActs(Slot& slot) ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // A new hand with a fresh CSPRNG shuffle (HE-46 draw included).
  absl::StatusOr<v1::TableEvent> NewHand(Slot& slot);
  void TickSlot(Slot& slot);
  // HE-68: ends the sessions whose rest ran past the table's limit.
  void EndRestsLocked(Slot& slot, int64_t now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // Whether `player` has a seat at the table or a buy-in on its way to one.
  static bool HasSeatLocked(const Slot& slot, const std::string& player)
      ABSL_SHARED_LOCKS_REQUIRED(slot.mu);
  // RESOURCE_EXHAUSTED when `viewer` has no seat at the table and the
  // spectators' streams there (WatchTable and Play streams of callers
  // without a seat) are at max_spectators_per_table. A seated player is
  // always admitted.
  absl::Status AdmitLocked(const Slot& slot,
                           const std::string& viewer) const override
      ABSL_SHARED_LOCKS_REQUIRED(slot.mu);
  // The player's view with the decision timer's deadline.
  v1::TableView ViewLocked(const Slot& slot,
                           const std::string& player) const override
      ABSL_SHARED_LOCKS_REQUIRED(slot.mu);
  // Commits what a wallet outcome means for its table, if anything, and
  // notes in `appended` the table and the sequence that must be durable
  // before the reader's position moves past the outcome. An outcome counts
  // only by provenance: the wallet's own step (its actor), for the saga's
  // player and, for the seat's capture, the saga's amount; anything else
  // is ignored (and logged), never taken by its request id alone.
  absl::StatusOr<bool> HandleOutcome(const v1::WalletEvent& event,
                                     TableHost<PokerGame>::Appended* appended);
  // A buy-in, in steps shared by the Sit and Rebuy calls and Play's
  // rebuys. A retry of one already decided (after a restart, or answered
  // DEADLINE_EXCEEDED): the seat, or DEADLINE_EXCEEDED while the player's
  // saga is under way.
  absl::Status RepeatedBuyInLocked(Slot& slot, const std::string& player,
                                   v1::SeatResponse* response) override
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // Checks the buy-in and commits its BuyInRequested: the saga's id.
  absl::StatusOr<std::string> StartBuyInLocked(
      Slot& slot, const std::string& player, const std::string& key,
      const std::string& fingerprint, int seat, int64_t amount,
      bool rebuy) override ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // The answer to the buy-in of saga `saga_id`: the seat, the wallet's
  // refusal (when the caller `waited` for it in slot.refusals) or
  // DEADLINE_EXCEEDED while it is under way.
  absl::Status BuyInAnswerLocked(Slot& slot, const std::string& saga_id,
                                 bool waited, const std::string& player,
                                 v1::SeatResponse* response) override
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  grpc::Status BuyIn(grpc::ServerContext* context, std::string_view method,
                     const google::protobuf::Message& body,
                     const std::string& request_id, const std::string& table_id,
                     int seat, int64_t amount, bool rebuy,
                     v1::SeatResponse* response);
  // SitOut and SitIn: the SitOutChanged they commit.
  grpc::Status ChangeSitOut(grpc::ServerContext* context,
                            std::string_view method,
                            const google::protobuf::Message& body,
                            const std::string& request_id,
                            const std::string& table_id, bool sitting_out,
                            v1::SeatResponse* response);
  v1::SeatResponse SeatOf(const tables::TableState& state,
                          const std::string& player) const;

  const Clock& clock_;
  const TableServiceOptions options_;
  // The tables, their log and their wallet outcomes (after options_).
  TableHost<PokerGame> host_;

  // The open Relay streams (each removes itself when gRPC is done with it),
  // for BeginShutdown.
  absl::Mutex relays_mu_;
  absl::flat_hash_set<RelayStream*> relays_ ABSL_GUARDED_BY(relays_mu_);

  std::atomic<bool> closing_plays_{false};
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_TABLE_SERVICE_H_
