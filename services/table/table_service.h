// The table service: the gRPC edge over the poker table engine and the log.
//
// A command is authenticated (a signed token, libs/auth), validated,
// claimed in the idempotency index, decided by applying its TableEvent to
// the table (TableState) under the table's lock, and appended with the
// events it derived before the lock is released, so the log's order is the
// table's. The reply goes out once the events are durable; if the log
// cannot make them durable the process stops, since memory then holds a
// decision the log does not (the wallet does the same).
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
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "banca/v1/table.grpc.pb.h"
#include "libs/auth/token.h"
#include "libs/cards/random.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/idempotency.h"
#include "services/table/table_codec.h"
#include "services/table/table_state.h"

namespace banca::table {

struct TableServiceOptions {
  std::string producer = "table";
  int partitions = kDefaultTablePartitions;
  // The wallet's topic, read for buy-in outcomes.
  int wallet_partitions = 8;
  auth::Key token_key{};
  // A buy-in the wallet has not answered by then fails (compensated if the
  // money arrives later).
  absl::Duration saga_timeout = absl::Seconds(10);
  // How long Sit and Rebuy wait for the wallet before answering
  // DEADLINE_EXCEEDED (the saga goes on).
  absl::Duration sit_wait = absl::Seconds(5);
  // Background threads: the timers (decision time, hand starts, saga
  // timeouts) every tick_interval, the wallet-outcome reader every
  // poll_interval. Zero turns one off; tests then call Tick() and
  // PollWalletOutcomes() themselves.
  absl::Duration tick_interval = absl::Milliseconds(20);
  absl::Duration poll_interval = absl::Milliseconds(2);
  // Upper bounds (TigerBeetle style: a limit on everything).
  int max_tables = 10'000;
  int max_watchers_per_table = 64;
};

class TableService final : public v1::TableService::Service {
 public:
  // Replays the table topic into the tables and starts the threads.
  static absl::StatusOr<std::unique_ptr<TableService>> Start(
      eventlog::EventLog& log, const Clock& clock, TableServiceOptions options);
  ~TableService() override;
  void Stop();

  // One pass of the timers: decision timeouts (HE-45), hand starts, saga
  // timeouts.
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
  grpc::Status Act(grpc::ServerContext*, const v1::ActRequest*,
                   v1::TableView*) override;
  grpc::Status WatchTable(grpc::ServerContext*, const v1::WatchTableRequest*,
                          grpc::ServerWriter<v1::TableView>*) override;
  grpc::Status GetTableView(grpc::ServerContext*, const v1::WatchTableRequest*,
                            v1::TableView*) override;
  grpc::Status GetLastHand(grpc::ServerContext*, const v1::GetLastHandRequest*,
                           v1::LastHandResponse*) override;
  grpc::Status GetSessionSummary(grpc::ServerContext*,
                                 const v1::GetSessionSummaryRequest*,
                                 v1::SessionSummary*) override;
  grpc::Status VoidHand(grpc::ServerContext*, const v1::VoidHandRequest*,
                        v1::TableInfo*) override;

  int64_t replayed_events() const { return replayed_events_; }

 private:
  struct Slot {
    absl::Mutex mu;
    absl::CondVar changed;
    std::unique_ptr<TableState> state;
    uint64_t sequence = 0;  // last appended stream sequence
    // The turn the decision timer runs for: (hand, actions so far).
    int64_t timer_hand = 0;
    size_t timer_actions = 0;
    int64_t action_deadline_micros = 0;
    int64_t hand_due_micros = 0;
    std::map<std::string, int64_t> saga_started_micros;
    std::map<std::string, std::string> saga_failures;
    std::unique_ptr<cards::RandomSource> rng;
    int watchers = 0;
  };

  TableService(eventlog::EventLog& log, const Clock& clock,
               TableServiceOptions options);
  absl::Status Replay();
  Slot* Find(const std::string& table_id);
  // Applies `event` and whatever it derives (and, when the table may deal
  // at once, the next hand's start), then appends them. Requires slot.mu.
  absl::Status Commit(Slot& slot, v1::TableEvent event);
  absl::Status CommitLocked(Slot& slot, v1::TableEvent event)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // A new hand with a fresh CSPRNG shuffle (HE-46 draw included).
  absl::StatusOr<v1::TableEvent> NewHand(Slot& slot);
  void TickSlot(Slot& slot);
  absl::Status HandleOutcome(const std::string& request_id,
                             const std::string& player_id, bool captured,
                             const std::string& rejection);
  template <typename Response, typename Run>
  grpc::Status Command(grpc::ServerContext* context, std::string_view method,
                       const std::string& request_id,
                       const google::protobuf::Message& body,
                       Response* response, Run run);
  grpc::Status BuyIn(grpc::ServerContext* context, std::string_view method,
                     const google::protobuf::Message& body,
                     const std::string& request_id, const std::string& table_id,
                     int seat, int64_t amount, bool rebuy,
                     v1::SeatResponse* response);
  absl::StatusOr<auth::Claims> Caller(const grpc::ServerContext* context) const;
  v1::SeatResponse SeatOf(const TableState& state,
                          const std::string& player) const;
  void Loop(absl::Duration every, void (TableService::*step)());
  void PollStep();

  eventlog::EventLog& log_;
  const Clock& clock_;
  const TableServiceOptions options_;
  ledger::IdempotencyIndex idempotency_;
  int64_t replayed_events_ = 0;

  absl::Mutex tables_mu_;
  std::map<std::string, std::unique_ptr<Slot>> tables_
      ABSL_GUARDED_BY(tables_mu_);

  absl::Mutex outcomes_mu_;
  std::vector<int64_t> wallet_offsets_ ABSL_GUARDED_BY(outcomes_mu_);

  std::atomic<bool> stopping_{false};
  std::vector<std::thread> threads_;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_TABLE_SERVICE_H_
